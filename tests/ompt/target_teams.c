/* OMPT events of host teams (a league parallel region, one initial task per team) and of
 * target constructs run on the host (target / target data / update / enter / exit data,
 * device 0).  One run, checked against target_teams.check.
 *
 * test-cflags: -foffload=disable
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(void) {
  int seen[3] = {0}, x = 0;
#pragma omp teams num_teams(3)
  seen[omp_get_team_num()] = 1;
  CHECK(seen[0] && seen[1] && seen[2]);
#pragma omp target data map(tofrom : x)
  {
#pragma omp target map(tofrom : x)
    x = 1;
#pragma omp target update from(x)
  }
#pragma omp target enter data map(to : x)
#pragma omp target exit data map(from : x)
  CHECK(x == 1);
  /* target teams: gcc loops over GOMP_teams4 inside the target function */
  int teams[2] = {0}, nteams = 0;
#pragma omp target teams num_teams(2) map(tofrom : teams, nteams)
  {
    teams[omp_get_team_num()] = 1;
    if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
  }
  CHECK(teams[0] && teams[1] && nteams == 2);
  return 0;
}
