/* Host teams as clang compiles them (__kmpc_push_num_teams, __kmpc_fork_teams): the teams
 * body runs once per team with the shared-variable pointers, each team's initial thread sees
 * its team number and the league size, thread_limit bounds the parallel regions inside a
 * team, which see the team's number too; without num_teams the league has nteams-var teams
 * (omp_set_num_teams). */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  int seen[8] = {0}, nteams[8] = {0}, inner[8] = {0}, bad = 0, many = 0;
  int shared_sum = 0;
#pragma omp teams num_teams(3) thread_limit(2)
  {
    int t = omp_get_team_num();
    if (t < 0 || t >= 8) {
      bad = 1;
    } else {
      seen[t]++;
      nteams[t] = omp_get_num_teams();
#pragma omp parallel
      {
        if (omp_get_team_num() != t || omp_get_num_threads() > 2) bad = 1;
        __atomic_fetch_add(&inner[t], 1, __ATOMIC_RELAXED);
      }
      __atomic_fetch_add(&shared_sum, t + 1, __ATOMIC_RELAXED);
    }
  }
  /* num_teams(3): 3 teams in OpenMP 5.1 (the lower bound is the upper one); libomp 14 follows
   * 5.0 (at most 3) and forms no more teams than processors */
  int n = nteams[0];
  CHECK(!bad && n >= 1 && n <= 3);
  for (int t = 0; t < 8; t++)
    CHECKF(seen[t] == (t < n) && (t >= n || nteams[t] == n), "team %d seen %d of %d", t, seen[t],
           nteams[t]);
  for (int t = 0; t < n; t++)
    CHECKF(inner[t] >= 1 && inner[t] <= 2, "team %d: %d threads", t, inner[t]);
  CHECK(shared_sum == n * (n + 1) / 2);

  omp_set_num_teams(2);
#pragma omp teams
  {
    if (omp_get_team_num() == 0) many = omp_get_num_teams();
  }
  CHECKF(many >= 1 && many <= 2, "nteams-var 2 gave %d teams", many);
  CHECK(omp_get_team_num() == 0 && omp_get_num_teams() == 1);
  printf("ok\n");
  return 0;
}
