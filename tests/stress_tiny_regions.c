/* 100k tiny parallel regions: fork/join reuse under churn, with team sizes that change from
 * region to region (workers go back to the pool and come out again), then fewer regions of
 * up to twice as many threads as the machine has CPUs, then the default size.
 * test-timeout: 120
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  long count = 0, expect = 0;
  int wrong = 0;
  for (int r = 0; r < 110000; r++) {
    int n = r < 100000 ? 1 + r % 2 : 1 + r % 4;
#pragma omp parallel num_threads(n)
    {
      if (omp_get_num_threads() != n) __atomic_store_n(&wrong, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&count, 1 + omp_get_thread_num(), __ATOMIC_RELAXED);
    }
    expect += (long)n * (n + 1) / 2;
  }
  CHECK(!wrong);
  CHECK(count == expect);

  /* default team size, nothing but the fork and the join */
  int nthr = omp_get_max_threads();
  long hits = 0;
  for (int r = 0; r < 20000; r++) {
#pragma omp parallel
    __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
  }
  CHECK(hits == 20000L * nthr);
  puts("ok");
  return 0;
}
