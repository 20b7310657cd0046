/* cancel for / cancel sections with cancellation points.
 * test-env: OMP_CANCELLATION=true
 * NOTE: needs the worksharing module (GOMP_loop_*, GOMP_loop_end_cancel, GOMP_sections_*,
 * clearing TOMP_CANCEL_WS at construct end) and OMP_CANCELLATION parsing; it can pass only
 * after the merge. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  int done = 0, after = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 100000; i++) {
      if (i == 10) {
#pragma omp cancel for
      }
#pragma omp cancellation point for
      __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
    }
    /* the next construct is not cancelled */
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 100; i++) __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
  }
  CHECK(done < 100000);
  CHECK(after == 100);

  int s1 = 0, s2 = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp cancel sections
        s1 = 1;
      }
#pragma omp section
      {
        for (long k = 0; k < 2000000000L; k++) {
#pragma omp cancellation point sections
        }
        s2 = 1;
      }
    }
  }
  CHECK(s1 == 0 && s2 == 0);
  puts("ok");
  return 0;
}
