/* The barrier at the end of a parallel region waits for every task, also one created by a
 * thread that arrives just after another thread's task took the task count to 0 (the
 * finishing thread then saw "all arrived" and used to release the barrier without looking at
 * the count again).  Many short regions, one task per thread.
 * test-env: OMP_NUM_THREADS=2
 * test-skip-tsan: TSan reports the join freeing an implicit task's child bookkeeping (pinfo) against a worker's earlier access to it from the barrier's task loop (seen 1 run in ~5 of this test; also on 17e12a4 with only the barrier fix, so not the deques); open
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static long count;

int main(void) {
  for (int rep = 0; rep < 30000; rep++) {
    int nthr = 0;
    count = 0;
#pragma omp parallel
    {
#pragma omp single nowait
      nthr = omp_get_num_threads();
#pragma omp task
      __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    }
    CHECK(count == nthr);
  }
  printf("ok\n");
  return 0;
}
