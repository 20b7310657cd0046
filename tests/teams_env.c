/* nteams-var and teams-thread-limit-var (OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT) apply to a
 * teams construct without num_teams / thread_limit clauses.
 * test-env: OMP_NUM_TEAMS=3 OMP_TEAMS_THREAD_LIMIT=2
 * test-libomp-fails: libomp 14 forms no more teams than processors (2 here), fewer than asked
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int seen[8], n[8], lim[8];

__attribute__((noinline)) static void body(void) {
  int t = omp_get_team_num();
  seen[t]++;
  n[t] = omp_get_num_teams();
  lim[t] = omp_get_thread_limit();
}

int main(void) {
#pragma omp teams
  body();
  for (int t = 0; t < 3; t++) CHECK(seen[t] == 1 && n[t] == 3 && lim[t] == 2);
  CHECK(seen[3] == 0);
  /* clauses override the variables */
#pragma omp teams num_teams(2) thread_limit(1)
  body();
  CHECK(seen[0] == 2 && seen[1] == 2 && seen[2] == 1 && n[0] == 2 && lim[1] == 1);
  puts("ok");
  return 0;
}
