/* Nested fork/join with many threads on a small machine: 8 outer threads each fork a team of
 * 16 (128 threads), and 2 x 64; every inner thread checks its ancestry and the inner
 * barriers, and the sums of both levels come out whole, round after round (cached inner
 * teams, workers moving between teams of different sizes).
 * test-env: OMP_MAX_ACTIVE_LEVELS=2
 * test-timeout: 240 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int run(int outer, int inner) {
  long total = 0;
  int errors = 0;
#pragma omp parallel num_threads(outer) reduction(+ : total, errors)
  {
    int o = omp_get_thread_num();
    int seen[64] = {0};
    if (omp_get_num_threads() != outer) errors++;
#pragma omp parallel num_threads(inner) reduction(+ : total, errors) shared(seen)
    {
      int i = omp_get_thread_num();
      if (omp_get_num_threads() != inner || omp_get_level() != 2 ||
          omp_get_ancestor_thread_num(1) != o || omp_get_team_size(1) != outer)
        errors++;
      seen[i] = 1;
#pragma omp barrier
      for (int j = 0; j < inner; j++)
        if (!seen[j]) errors++;
#pragma omp barrier
      total += (long)o * 1000 + i;
    }
  }
  long want = 0;
  for (int o = 0; o < outer; o++)
    for (int i = 0; i < inner; i++)
      want += (long)o * 1000 + i;
  CHECKF(errors == 0, "%d x %d: %d errors", outer, inner, errors);
  CHECKF(total == want, "%d x %d: total %ld, want %ld", outer, inner, total, want);
  return 0;
}

int main(void) {
  omp_set_max_active_levels(2);
  for (int rep = 0; rep < 6; rep++) {
    run(8, 16);
    run(2, 64);
    run(4, 32);
  }
  printf("ok\n");
  return 0;
}
