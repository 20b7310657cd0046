/* cancel parallel and cancellation points, with cancel-var true: the cancelling thread's
 * GOMP_cancel returns true, every other thread sees the cancellation at a cancellation
 * point, queued tasks of the region are discarded, and the next region is not cancelled.
 * test-env: OMP_CANCELLATION=true
 * NOTE: needs OMP_CANCELLATION parsed into tomp_g.cancellation (environment module).
 * test-no-libomp: libomp 14 does not finish it (hangs, seen here) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  for (int rep = 0; rep < 20; rep++) {
    int saw[8] = {0}, reached_end[8] = {0};
#pragma omp parallel num_threads(4)
    {
      int me = omp_get_thread_num();
      if (me == 0) {
#pragma omp cancel parallel
        CHECK(0); /* not reached: cancel returns true and jumps to the region's end */
      }
      for (long i = 0; i < 2000000000L; i++) {
#pragma omp cancellation point parallel
        if (i == 1999999999L) reached_end[me] = 1;
      }
      saw[me] = 1; /* not reached either */
    }
    for (int t = 0; t < 4; t++) CHECK(!saw[t] && !reached_end[t]);
  }

  /* tasks queued when the region is cancelled are discarded */
  int ran = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      for (int i = 0; i < 200; i++) {
#pragma omp task shared(ran)
        {
          __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
          volatile long s = 0;
          for (long k = 0; k < 5000000L; k++) s += k;
        }
      }
#pragma omp cancel parallel
    }
  }
  CHECK(ran < 200);

  /* the next region runs normally */
  int count = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp cancellation point parallel
    __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  }
  CHECK(count == 4);
  puts("ok");
  return 0;
}
