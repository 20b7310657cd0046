/* teams on the host: league size and team numbers, thread_limit honoured by parallel regions
 * inside a team (and seen by omp_get_thread_limit), team numbers visible on every thread of a
 * team's parallel region, distribute splitting iterations among teams.
 * test-libomp-fails: libomp 14 forms no more teams than processors (2 here), fewer than asked
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int seen[16], nteams[16], limit[16], psize[16], pbad;

__attribute__((noinline)) static void team_body(void) {
  int t = omp_get_team_num();
  __atomic_add_fetch(&seen[t], 1, __ATOMIC_RELAXED);
  nteams[t] = omp_get_num_teams();
  limit[t] = omp_get_thread_limit();
#pragma omp parallel num_threads(4)
  {
    if (omp_get_team_num() != t || omp_get_num_teams() != nteams[t])
      __atomic_add_fetch(&pbad, 1, __ATOMIC_RELAXED);
    if (omp_get_thread_num() == 0) psize[t] = omp_get_num_threads();
  }
}

int main(void) {
  CHECK(omp_get_num_teams() == 1 && omp_get_team_num() == 0);

#pragma omp teams num_teams(4) thread_limit(2)
  team_body();
  for (int t = 0; t < 4; t++) {
    CHECK(seen[t] == 1);
    CHECK(nteams[t] == 4);
    CHECK(limit[t] == 2);
    CHECK(psize[t] >= 1 && psize[t] <= 2);
  }
  CHECK(pbad == 0);
  CHECK(omp_get_num_teams() == 1 && omp_get_team_num() == 0);

  /* only num_teams: each team's parallel region is not limited below the request by it */
  for (int t = 0; t < 16; t++) seen[t] = 0;
#pragma omp teams num_teams(3)
  team_body();
  for (int t = 0; t < 3; t++) CHECK(seen[t] == 1 && nteams[t] == 3);
  CHECK(seen[3] == 0);
  CHECK(pbad == 0);

  /* distribute: every iteration exactly once, by the team that owns its block */
  int hits[1000] = {0}, owner[1000];
#pragma omp teams num_teams(5)
#pragma omp distribute
  for (int i = 0; i < 1000; i++) {
    hits[i]++;
    owner[i] = omp_get_team_num();
  }
  for (int i = 0; i < 1000; i++) {
    CHECK(hits[i] == 1);
    CHECK(owner[i] >= 0 && owner[i] < 5);
    if (i) CHECK(owner[i] >= owner[i - 1]);
  }

  /* teams distribute parallel for */
  long sum = 0;
#pragma omp teams distribute parallel for num_teams(2) thread_limit(2) reduction(+ : sum)
  for (int i = 1; i <= 10000; i++) sum += i;
  CHECK(sum == 10000L * 10001 / 2);
  puts("ok");
  return 0;
}
