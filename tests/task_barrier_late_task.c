/* The barrier at the end of a parallel region waits for every task, also one created by a
 * thread that arrives just after another thread's task took the task count to 0 (the
 * finishing thread then saw "all arrived" and used to release the barrier without looking at
 * the count again).  Many short regions, one task per thread.  Each task runs about a
 * microsecond, long enough that tomp's adaptive cut-off defers it (a shorter one runs at
 * once, and the test then checks nothing); the test insists that most tasks were deferred,
 * seen as the task starting after its creator went on.
 * test-env: OMP_NUM_THREADS=2
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

enum { REPS = 30000 };
static long count, deferred;

static void spin_ns(long ns) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do
    clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec < ns);
}

int main(void) {
  long total = 0;
  for (int rep = 0; rep < REPS; rep++) {
    int nthr = 0;
    int went_on[64] = {0};
    count = 0;
#pragma omp parallel shared(went_on)
    {
      int me = omp_get_thread_num();
#pragma omp single nowait
      nthr = omp_get_num_threads();
#pragma omp task firstprivate(me)
      {
        if (__atomic_load_n(&went_on[me], __ATOMIC_ACQUIRE))
          __atomic_fetch_add(&deferred, 1, __ATOMIC_RELAXED);
        spin_ns(1000);
        __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
      }
      __atomic_store_n(&went_on[me], 1, __ATOMIC_RELEASE);
    }
    CHECK(count == nthr);
    total += nthr;
  }
  printf("%ld tasks, %ld started after their creator went on\n", total, deferred);
  CHECK(deferred * 2 > total);
  return 0;
}
