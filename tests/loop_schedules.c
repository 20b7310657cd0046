/* Loops as gcc compiles them: dynamic / guided / runtime / monotonic schedules, with and
 * without chunks, counting up and down, long and unsigned long long variables, 1..4 threads
 * and more threads than iterations, combined `parallel for` forms and nowait chains long
 * enough to make threads lap the worksharing ring.
 * test-env: OMP_SCHEDULE=guided,2
 */
#include <omp.h>
#include <string.h>

#include "check.h"

#define N 1000
static int hit[N];

static void reset(void) { memset(hit, 0, sizeof hit); }
#define HIT(i) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED)

int main(void) {
  for (int t = 1; t <= 4; t++) {
    for (int n = 0; n <= N; n += (n < 10 ? 1 : 331)) {
      reset();
#pragma omp parallel num_threads(t)
      {
#pragma omp for schedule(dynamic)
        for (int i = 0; i < n; i++) HIT(i);
#pragma omp for schedule(dynamic, 7)
        for (int i = n - 1; i >= 0; i--) HIT(i);
#pragma omp for schedule(monotonic : dynamic, 3)
        for (long i = 0; i < n; i += 2) HIT(i);
#pragma omp for schedule(monotonic : dynamic, 3)
        for (long i = 1; i < n; i += 2) HIT(i);
#pragma omp for schedule(guided)
        for (int i = n - 1; i >= 0; i -= 3) HIT(i);
#pragma omp for schedule(guided, 5)
        for (int i = n - 2; i >= 0; i -= 3) HIT(i);
#pragma omp for schedule(monotonic : guided, 5)
        for (int i = n - 3; i >= 0; i -= 3) HIT(i);
#pragma omp for schedule(runtime)
        for (unsigned long long i = 0; i < (unsigned long long)n; i++) HIT(i);
#pragma omp for schedule(dynamic, 4)
        for (unsigned long long i = n; i > 0; i--) HIT(i - 1);
#pragma omp for schedule(guided, 2)
        for (unsigned long long i = 2ULL * n; i > 0; i -= 2) HIT(i / 2 - 1);
#pragma omp for schedule(monotonic : runtime)
        for (int i = 0; i < n; i++) HIT(i);
#pragma omp for schedule(nonmonotonic : runtime)
        for (int i = 0; i < n; i++) HIT(i);
      }
      for (int i = 0; i < n; i++) CHECK(hit[i] == 9);
      for (int i = n; i < N; i++) CHECK(hit[i] == 0);
    }
  }

  /* combined parallel loop forms */
  for (int t = 1; t <= 5; t++) {
    int n = t == 5 ? 3 : N; /* more threads than iterations */
    reset();
#pragma omp parallel for schedule(dynamic) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
#pragma omp parallel for schedule(monotonic : dynamic, 2) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
#pragma omp parallel for schedule(guided) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
#pragma omp parallel for schedule(monotonic : guided, 3) num_threads(t)
    for (int i = n - 1; i >= 0; i--) HIT(i);
#pragma omp parallel for schedule(runtime) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
#pragma omp parallel for schedule(nonmonotonic : runtime) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
#pragma omp parallel for schedule(monotonic : runtime) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
#pragma omp parallel for schedule(static, 3) num_threads(t)
    for (int i = 0; i < n; i++) HIT(i);
    for (int i = 0; i < n; i++) CHECK(hit[i] == 8);
  }

  /* nowait chains: the thread that finishes early runs many constructs ahead */
  reset();
  int counts[4] = {0};
#pragma omp parallel num_threads(4)
  {
    int me = omp_get_thread_num();
    for (int r = 0; r < 200; r++) {
#pragma omp for schedule(dynamic) nowait
      for (int i = 0; i < 40; i++) {
        if (me == 3) { /* slow thread */
          volatile int x = 0;
          for (int k = 0; k < 2000; k++) x += k;
        }
        __atomic_add_fetch(&hit[r], 1, __ATOMIC_RELAXED);
      }
#pragma omp single nowait
      __atomic_add_fetch(&counts[0], 1, __ATOMIC_RELAXED);
#pragma omp sections nowait
      {
#pragma omp section
        __atomic_add_fetch(&counts[1], 1, __ATOMIC_RELAXED);
#pragma omp section
        __atomic_add_fetch(&counts[2], 1, __ATOMIC_RELAXED);
      }
    }
  }
  for (int r = 0; r < 200; r++) CHECK(hit[r] == 40);
  CHECK(counts[0] == 200 && counts[1] == 200 && counts[2] == 200);
  puts("ok");
  return 0;
}
