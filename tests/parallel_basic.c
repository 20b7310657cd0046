/* Parallel regions: team sizes, thread numbers, explicit barriers, many tiny regions, and
 * the if / num_threads clauses. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  int seen[8] = {0};
#pragma omp parallel num_threads(4)
  {
    CHECK(omp_get_num_threads() == 4);
    CHECK(omp_in_parallel());
    CHECK(omp_get_level() == 1);
    __atomic_add_fetch(&seen[omp_get_thread_num()], 1, __ATOMIC_RELAXED);
  }
  for (int i = 0; i < 4; i++) CHECK(seen[i] == 1);
  CHECK(!omp_in_parallel());

  /* a barrier really separates phases */
  int phase[4] = {0};
#pragma omp parallel num_threads(4)
  {
    int me = omp_get_thread_num();
    for (int round = 1; round <= 200; round++) {
      phase[me] = round;
#pragma omp barrier
      for (int j = 0; j < 4; j++) CHECK(phase[j] == round);
#pragma omp barrier
    }
  }

  /* 100k tiny regions */
  long count = 0;
  for (int r = 0; r < 100000; r++) {
#pragma omp parallel num_threads(2)
    __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  }
  CHECK(count == 200000);

  int n = -1;
  int flag = 0;
#pragma omp parallel if (flag) num_threads(4)
  n = omp_get_num_threads();
  CHECK(n == 1);
  puts("ok");
  return 0;
}
