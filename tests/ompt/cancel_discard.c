/* Tasks discarded by `cancel taskgroup` (issue 17 B4): a queued task that never starts gets
 * no task_schedule event and one cancel event with ompt_cancel_discarded_task, which ends it
 * for the tool (ompt-print counts it as the task's end and reports a discarded task that had
 * started); a task already running when the cancellation comes is not discarded: it detects
 * it at its cancellation point.  Before the fix tomp reported a switch to each discarded
 * task before its discarded_task event (ompt-print: "discarded after it started").
 *
 * ompt-run: x3 OMP_CANCELLATION=true
 * ompt-count: cancel task=[0-9]+ flags=taskgroup\|activated == 1
 * ompt-count: cancel task=[0-9]+ flags=taskgroup\|detected codeptr=present == 1
 * ompt-count: cancel task=[0-9]+ flags=taskgroup\|discarded_task codeptr=null == 3
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int started, cancelled;

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task
      { /* running when the taskgroup is cancelled: it sees that at its cancellation point */
        __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&cancelled, __ATOMIC_ACQUIRE)) {
        }
#pragma omp cancellation point taskgroup
        abort();
      }
      while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
      }
      /* the other thread is busy: these stay queued until the taskgroup's end */
      for (int i = 0; i < 3; i++) {
#pragma omp task
        abort();
      }
#pragma omp task if (0)
      {
#pragma omp cancel taskgroup
        abort();
      }
      __atomic_store_n(&cancelled, 1, __ATOMIC_RELEASE);
    }
  }
  printf("done\n");
  return 0;
}
