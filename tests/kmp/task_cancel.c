/* cancel taskgroup as clang compiles it (__kmpc_cancel, __kmpc_cancellationpoint with kind
 * 4): tasks of a cancelled taskgroup that have not started are discarded, running ones see
 * the cancellation at their cancellation points, and the taskgroup's end still waits for
 * every member.  Tasks of other taskgroups are not affected.  Also cancel parallel with the
 * cancellable barrier (__kmpc_cancel_barrier).
 * test-env: OMP_CANCELLATION=true
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

#define NT 400

int main(void) {
  CHECK(omp_get_cancellation());
  for (int rep = 0; rep < 5; rep++) {
    int ran = 0, after_cancel = 0, other = 0;
#pragma omp parallel num_threads(4) shared(ran, after_cancel, other)
    if (omp_get_thread_num() == 0) {
#pragma omp taskgroup
      {
        for (int i = 0; i < NT; i++) {
#pragma omp task shared(ran, after_cancel)
          {
            __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
            if (i == 10) {
#pragma omp cancel taskgroup
            }
#pragma omp cancellation point taskgroup
            __atomic_fetch_add(&after_cancel, 1, __ATOMIC_SEQ_CST);
          }
        }
      }
      /* a new taskgroup is not cancelled */
#pragma omp taskgroup
      {
        for (int i = 0; i < 20; i++) {
#pragma omp task shared(other)
          __atomic_fetch_add(&other, 1, __ATOMIC_SEQ_CST);
        }
      }
    }
    CHECKF(ran >= 1 && ran <= NT && after_cancel < NT, "ran %d after %d", ran, after_cancel);
    CHECK(other == 20);
  }

  int past = 0, reached = 0;
#pragma omp parallel num_threads(4) shared(past, reached)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
    __atomic_fetch_add(&reached, 1, __ATOMIC_SEQ_CST);
#pragma omp barrier
    __atomic_fetch_add(&past, 1, __ATOMIC_SEQ_CST);
  }
  /* thread 0 leaves at its cancel, so the barrier cannot complete: the others leave it
   * cancelled, never past it */
  CHECKF(past == 0 && reached == 3, "past %d reached %d", past, reached);
  printf("ok\n");
  return 0;
}
