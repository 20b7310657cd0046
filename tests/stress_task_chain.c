/* A chain of 100k tasks, each depending on the one before (inout on one variable), created
 * by one thread while the rest of the team executes: they must run strictly in order.
 * A second chain links each task to its predecessor through its own array element.
 * test-timeout: 120
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define N 100000

static long step[N + 1];

int main(void) {
  long x = 0;
  int bad = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (long i = 0; i < N; i++) {
#pragma omp task depend(inout : x) firstprivate(i) shared(x, bad)
      {
        if (x != i) bad = 1;
        x = i + 1;
      }
    }
  }
  CHECK(!bad);
  CHECK(x == N);

  /* step[i+1] needs step[i]: in/out on distinct addresses */
  step[0] = 1;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (long i = 0; i < N; i++) {
#pragma omp task depend(in : step[i]) depend(out : step[i + 1]) firstprivate(i)
      step[i + 1] = step[i] + 1;
    }
#pragma omp taskwait
    CHECK(step[N] == N + 1);
  }
  for (long i = 0; i <= N; i++) CHECK(step[i] == i + 1);
  puts("ok");
  return 0;
}
