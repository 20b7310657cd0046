/* A thread waiting in a cancellable barrier leaves it when the region is cancelled, also
 * while the team's task count is not zero.  A thread that created a task holds task slots
 * (src/core/task.h, "Credits") until its next barrier, so the count stays above zero while
 * it cancels the region; a waiter that sampled the barrier's sequence word after the
 * cancellation's wake-up then went to sleep on the "tasks exist, none queued for us"
 * branch, which did not look at the cancellation, and nobody woke it again: the canceller
 * and the others waited for it in the closing barrier.  Hung within 20000 regions of 8
 * threads before the fix (found in review).  Many short regions, the last thread creating
 * a task and cancelling after a varying delay, the others in a barrier; a region that does
 * not end within 30 s fails the test (WATCHDOG) rather than hanging it.
 * test-env: OMP_CANCELLATION=true OMP_WAIT_POLICY=passive */
#include <omp.h>
#include <stdio.h>

#include "check.h"

static volatile int sink;
static void delay(unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink++;
}

int main(void) {
  enum { REGIONS = 20000, NTH = 8 };
  CHECK(omp_get_cancellation());
  unsigned seed = 1;
  int ran = 0;
  for (int it = 0; it < REGIONS; it++) {
    seed = seed * 1103515245u + 12345u;
    unsigned d = (seed >> 16) % 4000;
    WATCHDOG(30,
             "a region whose last thread cancels it did not end (a thread missed the "
             "cancellation in the barrier)",
             it);
#pragma omp parallel num_threads(NTH)
    {
      if (omp_get_thread_num() == omp_get_num_threads() - 1) {
#pragma omp task
        {
          delay(3000);
          __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
        }
        delay(d);
#pragma omp cancel parallel
      } else {
#pragma omp barrier
      }
    }
  }
  /* a task of a cancelled region may be discarded only if it had not started; the region's
   * end waits for every task that did */
  CHECKF(ran <= REGIONS, "%d tasks ran in %d regions", ran, REGIONS);
  puts("ok");
  WATCHDOG_OFF();
  return check_failures != 0;
}
