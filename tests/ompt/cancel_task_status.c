/* A task that cancels its taskgroup leaves its region there: its task_schedule end has status
 * ompt_task_cancel, not complete (OpenMP 5.2's ompt_task_status_t; LLVM's cancel/cancel_taskgroup
 * wants it and libomp reports it).  tomp reported complete before.  An undeferred task (its
 * end is on the encountering thread, so the run is deterministic) and a deferred one.
 *
 * ompt-run: x3 OMP_CANCELLATION=true
 * ompt-count: status=cancel == 2
 * ompt-count: cancel task=[0-9]+ flags=taskgroup\|activated == 2
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  int after = 0;
#pragma omp parallel num_threads(2) shared(after)
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task if (0) shared(after)
      {
#pragma omp cancel taskgroup
        after = 1; /* skipped: cancellation is active */
      }
    }
#pragma omp taskgroup
    {
#pragma omp task shared(after)
      {
#pragma omp cancel taskgroup
        after = 2;
      }
    }
  }
  CHECK(!omp_get_cancellation() || after == 0);
  printf("ok\n");
  return 0;
}
