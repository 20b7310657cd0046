/* OMPT task events: deferred, undeferred (if(0)), final, mergeable, dependences, taskwait,
 * taskgroup, taskloop (work, and each chunk's dispatch in its task as it starts; ompt-print
 * checks that a dispatch binds to the current task: before issue 17 B5 the encountering
 * task was current), detach (early and late fulfill), cancel
 * taskgroup, task reduction, the error directive.  FileCheck on a one-thread run; on two
 * threads ompt-print checks that every explicit task completes exactly once, waits nest,
 * etc., and each of the two detachable tasks is either fulfilled early (then completes) or
 * detached and fulfilled late.
 *
 * ompt-run: OMP_CANCELLATION=true OMP_THREAD_LIMIT=1
 * ompt-filecheck: CHECK
 * ompt-run: x8 OMP_CANCELLATION=true
 * ompt-count: status=(early_fulfill|late_fulfill) == 2
 * ompt-count: status=detach( |$) == status=late_fulfill
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(void) {
  int a = 0, b = 0, c = 0, d = 0, sum = 0, n = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task shared(a)
    a = 1;
#pragma omp task if (0) shared(b)
    b = 1;
#pragma omp taskwait
#pragma omp task final(1) shared(c)
    {
#pragma omp task shared(c)
      c++;
    }
#pragma omp taskwait
#pragma omp task depend(out : a) shared(a)
    a = 2;
#pragma omp task depend(in : a) shared(a, b)
    b = a;
#pragma omp taskgroup
    {
#pragma omp task shared(c)
      c++;
    }
#pragma omp taskloop grainsize(25) reduction(+ : sum)
    for (int i = 0; i < 100; i++) sum += i;
    omp_event_handle_t ev;
#pragma omp task detach(ev) shared(n)
    n++;
    omp_fulfill_event(ev);
    omp_event_handle_t ev2;
#pragma omp task detach(ev2) shared(n)
    n++;
#pragma omp task firstprivate(ev2)
    omp_fulfill_event(ev2);
#pragma omp taskwait
#pragma omp taskgroup
    {
#pragma omp task
      {
#pragma omp cancel taskgroup
      }
#pragma omp task shared(d)
      {
#pragma omp cancellation point taskgroup
        d = 1; /* may run before the cancel on two threads */
      }
    }
  }
  CHECK(a == 2 && b == 2 && c == 2 && sum == 4950 && n == 2);
#pragma omp error at(execution) severity(warning) message("tasks done")
  return 0;
}
