/* OMPT for `taskwait depend(...)` (GOMP_taskwait_depend): the as-if included task of OpenMP
 * 5.1/5.2 (task_create with the taskwait flag, undeferred, mergeable; its dependences, an edge
 * from the unfinished predecessor, the taskwait region, task_schedule(taskwait_complete)), in
 * a team of one thread so the order is fixed, and outside any region (no predecessor can be
 * pending).  On two threads the predecessor may run on the other thread; both taskwait tasks
 * still complete.
 *
 * ompt-run:
 * ompt-grep: done a=1
 * ompt-filecheck: CHECK
 * ompt-run: x3 OMP_NUM_THREADS=2
 * ompt-count: status=taskwait_complete == 2
 */
#include <omp.h>
#include <stdio.h>

static int a, b;

int main(void) {
#pragma omp parallel num_threads(1)
  {
#pragma omp task depend(out : a) if (1)
    a = 1;
#pragma omp taskwait depend(in : a) depend(inout : b)
    if (a != 1) printf("ERROR: the predecessor did not complete\n");
  }
#pragma omp taskwait depend(in : a)
  printf("done a=%d\n", a);
  return 0;
}
