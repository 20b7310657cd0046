/* test-env: OMP_CANCELLATION=true
 *
 * `cancel for` in the first loop of a region, a static loop gcc inlines (no loop start
 * reaches the runtime, so there is no construct to mark): the other threads' cancellation
 * points in that loop must see it, and the next loop must not.  tomp missed it: a request
 * without a construct cancelled only the calling thread (found by LLVM's OMPT test
 * cancel_worksharing).  The cancelling thread signals just before its `cancel for`; the
 * others wait for the signal, then 10 ms, so the cancel is active when they reach the point.
 */
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include "check.h"

int main(void) {
  CHECK(omp_get_cancellation());
  for (int rep = 0; rep < 20; rep++) {
    int signalled = 0, reached = 0, after = 0, second = 0, nth = 0;
#pragma omp parallel num_threads(4)
    {
      if (omp_get_thread_num() == 0) nth = omp_get_num_threads(); /* no construct before */
#pragma omp for schedule(static)
      for (int i = 0; i < 4; i++) {
        if (i == 0) {
          __atomic_store_n(&signalled, 1, __ATOMIC_SEQ_CST);
#pragma omp cancel for
        } else {
          while (!__atomic_load_n(&signalled, __ATOMIC_SEQ_CST))
            sched_yield();
          usleep(10000);
          __atomic_add_fetch(&reached, 1, __ATOMIC_SEQ_CST);
#pragma omp cancellation point for
          __atomic_add_fetch(&after, 1, __ATOMIC_SEQ_CST);
        }
      }
#pragma omp for schedule(static)
      for (int i = 0; i < 4; i++) {
#pragma omp cancellation point for
        __atomic_add_fetch(&second, 1, __ATOMIC_SEQ_CST);
      }
    }
    CHECK(nth == 4);
    CHECK(reached == 3); /* every other iteration reached its cancellation point */
    CHECK(after == 0);   /* and none went past it */
    CHECK(second == 4);  /* the next loop is not cancelled */
  }
  return 0;
}
