/* target nowait with depend clauses (a host target task): dependences are honoured in both
 * directions and taskwait completes the target task. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  int x = 0, y = 0, z = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task depend(out : x) shared(x)
    x = 1;
#pragma omp target nowait depend(in : x) depend(out : y) map(to : x) map(from : y)
    y = x + 1;
#pragma omp task depend(in : y) shared(y, z)
    z = y * 10;
#pragma omp target update to(x) nowait depend(inout : y)
#pragma omp taskwait
    CHECK(x == 1 && y == 2 && z == 20);
  }
  CHECK(z == 20);
  int v = 0;
#pragma omp target nowait map(tofrom : v)
  v = 7;
#pragma omp taskwait
  CHECK(v == 7);
  puts("ok");
  return 0;
}
