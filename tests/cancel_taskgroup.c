/* cancel taskgroup: tasks of the group not yet started are discarded, tasks created after
 * the cancellation are not run, running ones see it at cancellation points; the enclosing
 * region and other taskgroups are unaffected.
 * test-env: OMP_CANCELLATION=true
 * NOTE: needs OMP_CANCELLATION parsed into tomp_g.cancellation (environment module). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  int late_ran = 0, saw = 0, other = 0, flag = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp masked
    {
#pragma omp taskgroup
      {
#pragma omp task shared(flag)
        {
#pragma omp cancel taskgroup
          CHECK(0); /* cancel returns true */
        }
#pragma omp task shared(saw, flag)
        {
          /* runs concurrently or is discarded: if it runs, it must see the cancellation */
          for (long k = 0; k < 4000000000L; k++) {
#pragma omp cancellation point taskgroup
          }
          __atomic_store_n(&saw, 2, __ATOMIC_RELAXED); /* not reached */
        }
        /* wait until the group is cancelled, then create more tasks: none may run */
        for (;;) {
          int c = 0;
#pragma omp task shared(c)
          {
#pragma omp cancellation point taskgroup
            c = 1;
          }
#pragma omp taskwait
          if (!c) break;
        }
        for (int i = 0; i < 50; i++) {
#pragma omp task shared(late_ran)
          __atomic_add_fetch(&late_ran, 1, __ATOMIC_RELAXED);
        }
      }
      CHECK(late_ran == 0);
      CHECK(saw == 0);
      /* a new taskgroup is not cancelled */
#pragma omp taskgroup
      {
        for (int i = 0; i < 20; i++) {
#pragma omp task shared(other)
          __atomic_add_fetch(&other, 1, __ATOMIC_RELAXED);
        }
      }
      CHECK(other == 20);
    }
  }
  puts("ok");
  return 0;
}
