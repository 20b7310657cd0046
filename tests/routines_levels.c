/* Nesting queries: omp_get_level / active_level / ancestor_thread_num / team_size in nested
 * regions, with max-active-levels deciding which levels are active, inactive (if(0) or
 * beyond the limit) regions counted as levels but not active ones. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  CHECK(omp_get_level() == 0 && omp_get_active_level() == 0);
  CHECK(omp_get_ancestor_thread_num(0) == 0 && omp_get_team_size(0) == 1);
  CHECK(omp_get_ancestor_thread_num(1) == -1 && omp_get_team_size(1) == -1);
  CHECK(omp_get_ancestor_thread_num(-1) == -1 && omp_get_team_size(-1) == -1);

  /* two active levels: 2 x 3 threads, every inner thread sees its whole ancestry */
  omp_set_max_active_levels(2);
  int seen[2][3] = {{0}};
#pragma omp parallel num_threads(2)
  {
    int outer = omp_get_thread_num();
    CHECK(omp_get_level() == 1 && omp_get_active_level() == 1);
    CHECK(omp_get_ancestor_thread_num(1) == outer);
#pragma omp parallel num_threads(3)
    {
      CHECK(omp_get_level() == 2 && omp_get_active_level() == 2);
      CHECK(omp_get_num_threads() == 3);
      CHECK(omp_get_team_size(0) == 1 && omp_get_team_size(1) == 2 && omp_get_team_size(2) == 3);
      CHECK(omp_get_ancestor_thread_num(0) == 0);
      CHECK(omp_get_ancestor_thread_num(1) == outer);
      CHECK(omp_get_ancestor_thread_num(2) == omp_get_thread_num());
      CHECK(omp_get_ancestor_thread_num(3) == -1 && omp_get_team_size(3) == -1);
      __atomic_add_fetch(&seen[outer][omp_get_thread_num()], 1, __ATOMIC_RELAXED);
      /* a third level exceeds max-active-levels: one thread, a level but not active */
#pragma omp parallel num_threads(2)
      {
        CHECK(omp_get_num_threads() == 1);
        CHECK(omp_get_level() == 3 && omp_get_active_level() == 2);
        CHECK(omp_get_team_size(3) == 1 && omp_get_ancestor_thread_num(3) == 0);
        CHECK(omp_get_ancestor_thread_num(1) == outer);
      }
    }
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) CHECK(seen[i][j] == 1);

  /* an inactive outer region (if(0)) does not use up an active level */
  omp_set_max_active_levels(1);
  int inner_n = 0;
#pragma omp parallel if (0)
  {
    CHECK(omp_get_level() == 1 && omp_get_active_level() == 0 && !omp_in_parallel());
    CHECK(omp_get_team_size(1) == 1);
#pragma omp parallel num_threads(2)
    {
      CHECK(omp_get_level() == 2 && omp_get_active_level() == 1 && omp_in_parallel());
      if (omp_get_thread_num() == 0) inner_n = omp_get_num_threads();
    }
  }
  CHECK(inner_n == 2);

  /* max-active-levels 0: no region is active */
  omp_set_max_active_levels(0);
#pragma omp parallel num_threads(2)
  {
    CHECK(omp_get_num_threads() == 1 && omp_get_level() == 1 && omp_get_active_level() == 0);
  }
  omp_set_max_active_levels(1);

  /* deep nesting past the per-master team cache: levels keep counting */
  omp_set_max_active_levels(omp_get_supported_active_levels());
  int depth_ok = 0;
  {
    /* 10 nested levels of 1 thread each, then check from the innermost */
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 1) {
        CHECK(omp_get_level() == 10 && omp_get_active_level() == 1);
        CHECK(omp_get_team_size(10) == 2 && omp_get_team_size(9) == 1);
        CHECK(omp_get_ancestor_thread_num(10) == 1 && omp_get_ancestor_thread_num(5) == 0);
        depth_ok = 1;
      }
    }
  }
  CHECK(depth_ok);
  CHECK(omp_get_level() == 0);
  printf("routines_levels ok\n");
  return 0;
}
