/* The scope construct: private and reduction clauses (gcc inlines them, with a closing
 * barrier unless nowait), and the runtime's GOMP_barrier ordering around it.
 * test-gcc-only: clang 14 has no scope directive */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  int sum = 0, bad = 0;
  int mark[4] = {0};
#pragma omp parallel num_threads(4) reduction(+ : bad)
  {
    int me = omp_get_thread_num();
    for (int r = 1; r <= 100; r++) {
      int priv = -1;
#pragma omp scope private(priv) reduction(+ : sum)
      {
        priv = me;
        sum += r;
        mark[me] = r;
      }
      /* the scope ended with a barrier: everyone's contribution is in */
      for (int t = 0; t < omp_get_num_threads(); t++) bad += mark[t] != r;
      if (priv != -1) bad++;
#pragma omp barrier
    }
  }
  CHECK(bad == 0);
  CHECK(sum == 4 * 5050 || sum == 5050 * omp_get_max_threads());
  puts("ok");
  return 0;
}
