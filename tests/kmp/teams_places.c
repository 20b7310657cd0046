/* A host teams region on a place list: team k runs on the place and in the partition that
 * thread k of a team would get with proc_bind(spread) (libomp's KMP_TEAMS_PROC_BIND default),
 * and the encountering thread is back on its place afterwards.  tomp runs a host league's
 * teams one after another on the encountering thread, which binds itself to each team's place
 * in turn.  Failed before (every team saw the whole list and the thread's own place).
 * clang only: gcc refuses place routines strictly nested in a teams region (OpenMP allows
 * few routines there); the same league serves gcc's teams.  Validated on libomp 14, which
 * forms more teams than CPUs only with KMP_TEAMS_THREAD_LIMIT.
 * test-env: OMP_PLACES=threads KMP_TEAMS_THREAD_LIMIT=64 OMP_TEAMS_THREAD_LIMIT=1 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>

#include "../check.h"

enum { MAXT = 64 };
static int first[MAXT], count[MAXT], place[MAXT], ncpus[MAXT];

int main(void) {
  int P = omp_get_num_places();
  CHECK(P >= 1);
  int home = omp_get_place_num();
  CHECK(home == 0);
  int sizes[] = {1, 2, 3, P, 2 * P};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int T = sizes[s];
    if (T > MAXT) continue;
#pragma omp teams num_teams(T)
    {
      int k = omp_get_team_num();
      count[k] = omp_get_partition_num_places();
      int nums[MAXT * 4];
      if (count[k] <= (int)(sizeof nums / sizeof nums[0])) omp_get_partition_place_nums(nums);
      first[k] = nums[0];
      place[k] = omp_get_place_num();
      cpu_set_t m;
      ncpus[k] = sched_getaffinity(0, sizeof m, &m) == 0 ? CPU_COUNT(&m) : -1;
    }
    int next = 0;
    for (int k = 0; k < T; k++) {
      CHECKF(ncpus[k] == omp_get_place_num_procs(place[k]), "T=%d team %d: %d CPUs", T, k,
             ncpus[k]);
      if (T <= P) { /* consecutive sub-partitions of P/T or P/T+1 places, in order */
        CHECKF(count[k] == P / T || count[k] == P / T + 1, "T=%d team %d: %d places", T, k,
               count[k]);
        CHECKF(first[k] == next, "T=%d team %d: partition from %d, expected %d", T, k, first[k],
               next);
        next += count[k];
        CHECKF(place[k] == (k == 0 ? home : first[k]), "T=%d team %d on place %d", T, k, place[k]);
      } else { /* more teams than places: each team's partition is its place */
        CHECKF(count[k] == 1 && place[k] == first[k], "T=%d team %d: %d places, place %d", T, k,
               count[k], place[k]);
        CHECKF(k == 0 || place[k] >= place[k - 1], "T=%d team %d on place %d after %d", T, k,
               place[k], place[k - 1]);
      }
    }
    if (T <= P) CHECKF(next == P, "T=%d: partitions cover %d of %d places", T, next, P);
    CHECKF(omp_get_place_num() == home, "after the league the thread is on place %d",
           omp_get_place_num());
    CHECK(omp_get_partition_num_places() == P);
  }
  return 0;
}
