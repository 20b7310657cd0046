/* `taskwait depend(...)` (GOMP_taskwait_depend): the as-if included task of OpenMP 5.1/5.2
 * (task_create with the taskwait flag, its dependences, an edge from the unfinished
 * predecessor, the taskwait region, taskwait_complete), in a team of one thread so the order
 * is fixed, and outside any region (no predecessor can be pending). */
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
