/* 32 threads on a small machine: dynamic and guided loops, ordered loops and singles keep
 * working when threads outnumber processors (waiters must sleep, not spin forever). */
#include <omp.h>

#include "check.h"

#define N 20000
static int hit[N];

int main(void) {
  int seq = 0, bad = 0, singles = 0;
#pragma omp parallel num_threads(32)
  {
    for (int r = 0; r < 20; r++) {
#pragma omp for schedule(dynamic, 16)
      for (int i = 0; i < N; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(guided) nowait
      for (int i = 0; i < N; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
#pragma omp single
      singles++;
    }
#pragma omp for ordered schedule(dynamic)
    for (int i = 0; i < 2000; i++) {
#pragma omp ordered
      {
        if (seq != i) bad++;
        seq++;
      }
    }
  }
  for (int i = 0; i < N; i++) CHECK(hit[i] == 40);
  CHECK(seq == 2000 && bad == 0);
  CHECK(singles == 20);
  puts("ok");
  return 0;
}
