/* Combined parallel loop / sections entry points, including the pre-GCC-4.9 *_start forms
 * (GOMP_parallel_loop_*_start + GOMP_parallel_end, GOMP_parallel_sections_start) that
 * gcc 12 no longer emits but old binaries call; called directly here.
 * test-gcc-only: it calls GOMP_* entry points directly */
#include <omp.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"

void GOMP_parallel_loop_static_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_dynamic_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_guided_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_runtime_start(void (*)(void *), void *, unsigned, long, long, long);
void GOMP_parallel_loop_static(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_dynamic(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_guided(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_runtime(void (*)(void *), void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_dynamic(void (*)(void *), void *, unsigned, long, long, long,
                                             long, unsigned);
void GOMP_parallel_loop_nonmonotonic_guided(void (*)(void *), void *, unsigned, long, long, long,
                                            long, unsigned);
void GOMP_parallel_loop_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long, long,
                                             unsigned);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long,
                                                   long, unsigned);
void GOMP_parallel_sections_start(void (*)(void *), void *, unsigned, unsigned);
void GOMP_parallel_sections(void (*)(void *), void *, unsigned, unsigned, unsigned);
void GOMP_parallel_end(void);
bool GOMP_loop_runtime_next(long *, long *);
void GOMP_loop_end_nowait(void);
unsigned GOMP_sections_next(void);
void GOMP_sections_end_nowait(void);

#define N 777
static int hit[N];

/* the body of a combined loop: threads start inside the construct and only call next */
static void body(void *arg) {
  long a, b;
  long step = *(long *)arg;
  while (GOMP_loop_runtime_next(&a, &b))
    for (long i = a; step > 0 ? i < b : i > b; i += step) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
  GOMP_loop_end_nowait();
}

static void sbody(void *arg) {
  (void)arg;
  unsigned s;
  while ((s = GOMP_sections_next()) != 0) __atomic_add_fetch(&hit[s], 1, __ATOMIC_RELAXED);
  GOMP_sections_end_nowait();
}

int main(void) {
  long up = 1, down = -1;
  for (unsigned t = 1; t <= 4; t++) {
    memset(hit, 0, sizeof hit);
    GOMP_parallel_loop_static_start(body, &up, t, 0, N, 1, 0);
    body(&up);
    GOMP_parallel_end();
    GOMP_parallel_loop_dynamic_start(body, &down, t, N - 1, -1, -1, 5);
    body(&down);
    GOMP_parallel_end();
    GOMP_parallel_loop_guided_start(body, &up, t, 0, N, 1, 3);
    body(&up);
    GOMP_parallel_end();
    GOMP_parallel_loop_runtime_start(body, &up, t, 0, N, 1);
    body(&up);
    GOMP_parallel_end();
    GOMP_parallel_loop_static(body, &up, t, 0, N, 1, 4, 0);
    GOMP_parallel_loop_dynamic(body, &down, t, N - 1, -1, -1, 1, 0);
    GOMP_parallel_loop_guided(body, &up, t, 0, N, 1, 1, 0);
    GOMP_parallel_loop_runtime(body, &up, t, 0, N, 1, 0);
    GOMP_parallel_loop_nonmonotonic_dynamic(body, &up, t, 0, N, 1, 2, 0);
    GOMP_parallel_loop_nonmonotonic_guided(body, &down, t, N - 1, -1, -1, 2, 0);
    GOMP_parallel_loop_nonmonotonic_runtime(body, &up, t, 0, N, 1, 0);
    GOMP_parallel_loop_maybe_nonmonotonic_runtime(body, &up, t, 0, N, 1, 0);
    for (int i = 0; i < N; i++) CHECK(hit[i] == 12);
    memset(hit, 0, sizeof hit);
    GOMP_parallel_sections_start(sbody, NULL, t, 9);
    sbody(NULL);
    GOMP_parallel_end();
    GOMP_parallel_sections(sbody, NULL, t, 9, 0);
    CHECK(hit[0] == 0);
    for (int i = 1; i <= 9; i++) CHECK(hit[i] == 2);
    CHECK(hit[10] == 0);
  }
  puts("ok");
  return 0;
}
