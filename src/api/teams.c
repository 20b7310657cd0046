/* omp_* routines of the teams construct: the league queries and the teams ICVs.
 *
 * The league a task belongs to is in its ICVs (league_num / league_size, set by whoever runs
 * the teams region), so parallel regions inside a team answer right on every thread. */
#include "api.h"
#include "omp.h"

TOMP_EXPORT int omp_get_num_teams(void) {
  unsigned n = tomp_icv()->league_size;
  return n ? (int)n : 1;
}

TOMP_EXPORT int omp_get_team_num(void) { return (int)tomp_icv()->league_num; }

TOMP_EXPORT void omp_set_num_teams(int n) {
  if (n < 1) {
    WARN_ONCE("omp_set_num_teams(%d): the count must be positive; value unchanged", n);
    return;
  }
  __atomic_store_n(&tomp_g.num_teams, n, __ATOMIC_RELAXED);
}

TOMP_EXPORT int omp_get_max_teams(void) { return __atomic_load_n(&tomp_g.num_teams, __ATOMIC_RELAXED); }

TOMP_EXPORT void omp_set_teams_thread_limit(int n) {
  if (n < 1) {
    WARN_ONCE("omp_set_teams_thread_limit(%d): the limit must be positive; value unchanged", n);
    return;
  }
  __atomic_store_n(&tomp_g.teams_thread_limit, n, __ATOMIC_RELAXED);
}

TOMP_EXPORT int omp_get_teams_thread_limit(void) {
  return __atomic_load_n(&tomp_g.teams_thread_limit, __ATOMIC_RELAXED);
}
