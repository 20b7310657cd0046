/* reduction(task, ...) on worksharing constructs (for, sections, scope) with in_reduction
 * tasks created inside them.
 * NOTE: needs the worksharing module (GOMP_loop_start / GOMP_sections2_start /
 * GOMP_scope_start calling tomp_ws_task_reduction_begin); it cannot pass on the tasks branch
 * alone, only after the merge. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  for (int nt = 1; nt <= 4; nt++) {
    long s = 0, m = 1;
#pragma omp parallel num_threads(nt)
    {
#pragma omp for reduction(task, + : s) reduction(task, * : m) schedule(dynamic, 3)
      for (int i = 0; i < 200; i++) {
#pragma omp task in_reduction(+ : s) in_reduction(* : m) firstprivate(i)
        {
          s += i;
          if (i < 20) m *= 2;
        }
        s += 1;
      }
      CHECK(s == 199L * 200 / 2 + 200);
      CHECK(m == 1L << 20);
    }
  }

  long t = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp sections reduction(task, + : t)
    {
#pragma omp section
      for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : t) firstprivate(i)
        t += i;
      }
#pragma omp section
      for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : t) firstprivate(i)
        t += 100;
      }
    }
  }
  CHECK(t == 45 + 1000);
  puts("ok");
  return 0;
}
