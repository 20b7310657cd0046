/* Nested parallelism, three levels deep: team sizes, levels, active levels and the ancestor
 * queries at every level, then the same nest with max-active-levels 2 (the third level is
 * inactive: teams of one) and 1 (only the outermost is active).
 * test-env: OMP_MAX_ACTIVE_LEVELS=3 OMP_NUM_THREADS=2 OMP_DYNAMIC=false
 * test-timeout: 60
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static const int width[3] = {2, 3, 2};

/* Every thread of the innermost level records who its ancestors are. */
static void nest(int max_active, int *leaves) {
  omp_set_max_active_levels(max_active);
  CHECK(omp_get_max_active_levels() == max_active);
#pragma omp parallel num_threads(width[0])
  {
    int t1 = omp_get_thread_num();
    int n1 = omp_get_num_threads();
    CHECK(omp_get_level() == 1);
    CHECK(omp_get_active_level() == 1);
    CHECK(n1 == width[0]);
#pragma omp parallel num_threads(width[1])
    {
      int t2 = omp_get_thread_num();
      int n2 = omp_get_num_threads();
      int act2 = max_active >= 2;
      CHECK(omp_get_level() == 2);
      CHECK(omp_get_active_level() == 1 + act2);
      CHECK(n2 == (act2 ? width[1] : 1));
      CHECK(omp_get_ancestor_thread_num(1) == t1);
      CHECK(omp_get_team_size(1) == n1);
      CHECK(omp_get_ancestor_thread_num(2) == t2);
      CHECK(omp_get_team_size(2) == n2);
#pragma omp parallel num_threads(width[2])
      {
        int t3 = omp_get_thread_num();
        int n3 = omp_get_num_threads();
        int act3 = max_active >= 3;
        CHECK(omp_get_level() == 3);
        CHECK(omp_get_active_level() == 1 + act2 + act3);
        CHECK(n3 == (act3 ? width[2] : 1));
        CHECK(omp_in_parallel());
        CHECK(omp_get_ancestor_thread_num(0) == 0);
        CHECK(omp_get_team_size(0) == 1);
        CHECK(omp_get_ancestor_thread_num(1) == t1);
        CHECK(omp_get_team_size(1) == n1);
        CHECK(omp_get_ancestor_thread_num(2) == t2);
        CHECK(omp_get_team_size(2) == n2);
        CHECK(omp_get_ancestor_thread_num(3) == t3);
        CHECK(omp_get_team_size(3) == n3);
        CHECK(omp_get_ancestor_thread_num(3) == omp_get_thread_num());
        /* levels that do not exist */
        CHECK(omp_get_ancestor_thread_num(4) == -1);
        CHECK(omp_get_team_size(4) == -1);
        CHECK(omp_get_ancestor_thread_num(-1) == -1);
        CHECK(omp_get_team_size(-1) == -1);
        __atomic_add_fetch(&leaves[(t1 * width[1] + t2) * width[2] + t3], 1, __ATOMIC_RELAXED);
        /* a barrier in an inner team synchronises only that team */
#pragma omp barrier
      }
    }
  }
}

int main(void) {
  CHECK(omp_get_max_active_levels() == 3);
  CHECK(omp_get_level() == 0 && omp_get_active_level() == 0);
  CHECK(omp_get_ancestor_thread_num(0) == 0 && omp_get_team_size(0) == 1);
  CHECK(omp_get_ancestor_thread_num(1) == -1 && omp_get_team_size(1) == -1);

  int nleaves = width[0] * width[1] * width[2];
  int leaves[12];
  for (int max_active = 3; max_active >= 1; max_active--) {
    for (int i = 0; i < nleaves; i++) leaves[i] = 0;
    nest(max_active, leaves);
    /* every (t1,t2,t3) path of the active levels ran exactly once */
    for (int t1 = 0; t1 < width[0]; t1++)
      for (int t2 = 0; t2 < width[1]; t2++)
        for (int t3 = 0; t3 < width[2]; t3++) {
          int expect = (max_active >= 2 || t2 == 0) && (max_active >= 3 || t3 == 0);
          CHECK(leaves[(t1 * width[1] + t2) * width[2] + t3] == expect);
        }
  }

  /* Nested regions repeated: inner teams are reused and resized. */
  omp_set_max_active_levels(3);
  long total = 0;
  for (int r = 0; r < 300; r++) {
    int inner = 1 + r % 3;
#pragma omp parallel num_threads(2) reduction(+ : total)
#pragma omp parallel num_threads(inner) reduction(+ : total)
    {
      CHECK(omp_get_num_threads() == inner);
      total += 1;
    }
  }
  long expect = 0;
  for (int r = 0; r < 300; r++) expect += 2 * (1 + r % 3);
  CHECK(total == expect);
  puts("ok");
  return 0;
}
