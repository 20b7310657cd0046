/* A thread that runs a target region inside a parallel region gets its place in that region
 * back afterwards: each `single` before and after the region runs exactly once, a dynamic
 * loop after it hands out every iteration once, and the threads' worksharing counts still
 * agree.  The region's own constructs (a nested parallel region with singles and a loop,
 * target teams) run on the thread in between, as a new initial task would.
 * test-no-libomp: libomp 14 does not finish it (hangs, seen here)
 * test-gcc-only: clang runs a target body inline, unseen by tomp: its single binds to the team
 */
#include <omp.h>

#include "check.h"

#define ROUNDS 40
#define N 64

int main(void) {
  int before[ROUNDS] = {0}, after[ROUNDS] = {0}, inner[ROUNDS][4] = {{0}};
  int hits[ROUNDS][N] = {{0}};
  int bad = 0;
#pragma omp parallel num_threads(3) shared(before, after, inner, hits, bad)
  for (int r = 0; r < ROUNDS; r++) {
#pragma omp single
    before[r]++;
    if (omp_get_thread_num() == r % omp_get_num_threads()) {
      int level = -1, tn = -1;
#pragma omp target map(tofrom : level, tn, inner)
      {
        level = omp_get_level();
        tn = omp_get_thread_num();
#pragma omp single
        inner[r][0]++;
#pragma omp parallel num_threads(2)
        {
#pragma omp single
          __atomic_fetch_add(&inner[r][1], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 1)
          for (int i = 0; i < 8; i++)
            __atomic_fetch_add(&inner[r][2], 1, __ATOMIC_RELAXED);
#pragma omp single
          __atomic_fetch_add(&inner[r][1], 1, __ATOMIC_RELAXED);
        }
      }
      if (level != 0 || tn != 0) __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
      int nteams = 0;
#pragma omp target teams num_teams(2) map(tofrom : nteams, inner)
      {
#pragma omp parallel num_threads(2)
#pragma omp single
        __atomic_fetch_add(&inner[r][3], 1, __ATOMIC_RELAXED);
        if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
      }
      if (nteams != 2) __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
    }
#pragma omp single nowait
    __atomic_fetch_add(&after[r], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < N; i++)
      __atomic_fetch_add(&hits[r][i], 1, __ATOMIC_RELAXED);
#pragma omp single
    __atomic_fetch_add(&after[r], 1, __ATOMIC_RELAXED);
  }
  CHECK(bad == 0);
  for (int r = 0; r < ROUNDS; r++) {
    CHECK(before[r] == 1);
    CHECK(after[r] == 2);
    CHECK(inner[r][0] == 1 && inner[r][1] == 2 && inner[r][2] == 8 && inner[r][3] == 2);
    for (int i = 0; i < N; i++)
      CHECK(hits[r][i] == 1);
  }
  return 0;
}
