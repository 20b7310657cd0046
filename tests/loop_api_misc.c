/* Entry points gcc 12 emits only with task reductions, scan or cancellation, called
 * directly: GOMP_loop[_ull]_ordered_start, GOMP_loop[_ull]_doacross_*start, the `mem`
 * argument (a team-shared zeroed block), GOMP_sections2_start, and the *_end_cancel /
 * GOMP_barrier_cancel forms in a region that is not cancelled.
 * test-gcc-only: it calls GOMP_* entry points directly */
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

typedef unsigned long long ull;
bool GOMP_loop_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ordered_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ull_ordered_start(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *,
                                 void **);
bool GOMP_loop_doacross_start(unsigned, long *, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ull_doacross_start(unsigned, ull *, long, ull, ull *, ull *, uintptr_t *, void **);
bool GOMP_loop_ull_doacross_static_start(unsigned, ull *, ull, ull *, ull *);
bool GOMP_loop_ull_doacross_dynamic_start(unsigned, ull *, ull, ull *, ull *);
bool GOMP_loop_ull_doacross_guided_start(unsigned, ull *, ull, ull *, ull *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
bool GOMP_loop_ordered_runtime_next(long *, long *);
bool GOMP_loop_ull_ordered_runtime_next(ull *, ull *);
void GOMP_ordered_start(void);
void GOMP_ordered_end(void);
void GOMP_doacross_post(long *);
void GOMP_doacross_wait(long, ...);
void GOMP_doacross_ull_post(ull *);
void GOMP_doacross_ull_wait(ull, ...);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
bool GOMP_loop_end_cancel(void);
unsigned GOMP_sections2_start(unsigned, uintptr_t *, void **);
unsigned GOMP_sections_next(void);
bool GOMP_sections_end_cancel(void);
bool GOMP_barrier_cancel(void);

#define N 300
static int seq[N], pos;
static long grid[N][4];

int main(void) {
  for (int t = 1; t <= 4; t++) {
    int bad = 0, secs[6] = {0};
    pos = 0;
#pragma omp parallel num_threads(t)
    {
      /* mem: one zeroed block shared by the team */
      void *mem = (void *)(uintptr_t)(t * sizeof(long));
      long a, b;
      CHECK(GOMP_loop_start(0, 1, 1, 1, 0, NULL, NULL, NULL, &mem));
      long *blk = mem;
      CHECK(blk != NULL);
      if (blk[omp_get_thread_num()] != 0) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      blk[omp_get_thread_num()] = omp_get_thread_num() + 1;
      GOMP_barrier_cancel();
      for (int i = 0; i < t; i++)
        if (blk[i] != i + 1) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      CHECK(!GOMP_loop_end_cancel());

      /* ordered via GOMP_loop_ordered_start (dynamic, chunk 2) */
      if (GOMP_loop_ordered_start(0, N, 1, 2, 2, &a, &b, NULL, NULL)) do
          for (long i = a; i < b; i++) {
            GOMP_ordered_start();
            seq[pos++] = (int)i;
            GOMP_ordered_end();
          }
        while (GOMP_loop_ordered_runtime_next(&a, &b));
      GOMP_loop_end();

      /* ull ordered, counting down, with mem */
      void *m2 = (void *)(uintptr_t)64;
      ull ua, ub;
      if (GOMP_loop_ull_ordered_start(false, 2 * N, N, (ull)-1, 3, 4, &ua, &ub, NULL, &m2)) do
          for (ull i = ua; i > ub; i--) {
            GOMP_ordered_start();
            seq[pos++ - N] += (int)(2 * N - i) == pos - 1 - N ? 0 : 1000;
            GOMP_ordered_end();
          }
        while (GOMP_loop_ull_ordered_runtime_next(&ua, &ub));
      CHECK(m2 != NULL && *(long *)m2 == 0);
      GOMP_loop_end();

      /* doacross over N x 4: each cell needs the one above */
      long counts[2] = {N, 4};
      if (GOMP_loop_doacross_start(2, counts, 2, 3, &a, &b, NULL, NULL)) do
          for (long i = a; i < b; i++)
            for (long j = 0; j < 4; j++) {
              if (i > 0) GOMP_doacross_wait(i - 1, j);
              grid[i][j] = (i ? grid[i - 1][j] : j) + 1;
              long v[2] = {i, j};
              GOMP_doacross_post(v);
            }
        while (GOMP_loop_runtime_next(&a, &b));
      GOMP_loop_end();
      for (int kind = 0; kind < 4; kind++) {
        ull uc[2] = {N, 4};
        bool got;
        switch (kind) {
        case 0: got = GOMP_loop_ull_doacross_static_start(2, uc, 0, &ua, &ub); break;
        case 1: got = GOMP_loop_ull_doacross_dynamic_start(2, uc, 5, &ua, &ub); break;
        case 2: got = GOMP_loop_ull_doacross_guided_start(2, uc, 1, &ua, &ub); break;
        default: got = GOMP_loop_ull_doacross_start(2, uc, 1, 7, &ua, &ub, NULL, NULL); break;
        }
        if (got) do
            for (ull i = ua; i < ub; i++)
              for (ull j = 0; j < 4; j++) {
                if (i > 0) GOMP_doacross_ull_wait(i - 1, j);
                grid[i][j] = (i ? grid[i - 1][j] : j) + 1;
                ull v[2] = {i, j};
                GOMP_doacross_ull_post(v);
              }
          while (GOMP_loop_ull_runtime_next(&ua, &ub));
        GOMP_loop_end();
      }

      /* sections2 with mem */
      void *m3 = (void *)(uintptr_t)8;
      for (unsigned s = GOMP_sections2_start(5, NULL, &m3); s; s = GOMP_sections_next())
        __atomic_add_fetch(&secs[s], 1, __ATOMIC_RELAXED);
      CHECK(m3 != NULL);
      CHECK(!GOMP_sections_end_cancel());
    }
    CHECK(bad == 0);
    CHECK(pos == 2 * N);
    for (int i = 0; i < N; i++) CHECK(seq[i] == i);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < 4; j++) CHECK(grid[i][j] == j + i + 1);
    CHECK(secs[0] == 0);
    for (int s = 1; s <= 5; s++) CHECK(secs[s] == 1);
  }
  puts("ok");
  return 0;
}
