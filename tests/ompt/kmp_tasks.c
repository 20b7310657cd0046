/* OMPT task events for clang's tasks (LLVM's ABI): an if(0) task (its body called by the
 * compiled code between __kmpc_omp_task_begin_if0 and _complete_if0), an untied task with
 * scheduling points (one task, one completion), a deferred task, dependences in, out, inout
 * and mutexinoutset with their edges, an if(0) task with a dependence and `taskwait depend`
 * (both __kmpc_omp_wait_deps: a taskwait with dependences), taskloop and detach.
 * FileCheck on a one-thread run; on two threads ompt-print checks that every explicit task
 * completes exactly once and that waits nest.
 *
 * ompt-compiler: clang
 * ompt-run: OMP_THREAD_LIMIT=1
 * ompt-filecheck: CHECK
 * ompt-run: x8
 * ompt-count: status=(early_fulfill|late_fulfill) == 1
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(void) {
  int a = 0, b = 0, c = 0, m = 0, u = 0, n = 0; /* c: 0 + m */
  long sum = 0;
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 0) {
#pragma omp task if (0) shared(b)
    b = 1;
#pragma omp task untied shared(u)
    {
      for (int i = 0; i < 3; i++) {
#pragma omp taskyield
        u++;
      }
    }
#pragma omp task shared(a)
    a = 1;
#pragma omp taskwait
#pragma omp task depend(out : a) shared(a)
    a = 2;
#pragma omp task depend(in : a) depend(inout : b) shared(a, b)
    b = a;
#pragma omp task depend(mutexinoutset : m) shared(m)
    m++;
#pragma omp task depend(mutexinoutset : m) shared(m)
    m++;
#pragma omp task if (0) depend(in : m) shared(m, c)
    c += m;
#pragma omp taskwait depend(in : b)
#pragma omp taskloop num_tasks(2) reduction(+ : sum)
    for (int i = 0; i < 100; i++)
      sum += i;
    omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp task detach(ev) shared(n)
    n++;
    omp_fulfill_event(ev);
#pragma omp taskwait
  }
  CHECK(a == 2 && b == 2 && c == 2 && m == 2 && u == 3 && sum == 4950 && n == 1);
  return 0;
}
