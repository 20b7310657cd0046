/* The teams construct, GCC's calls: translated onto core's leagues (src/core/league.h, where
 * the behaviour is described).
 *
 * Inside a target region gcc does not outline the teams body: the target function loops
 * `for (first = true; GOMP_teams4(lo, hi, limit, first); first = false) body;`, which is
 * core's inline league; it runs the lower bound of the num_teams range, 1 without the
 * clause, as libgomp's host fallback does. */
#include "gomp.h"
#include "internal.h"
#include "league.h"
#include "omp.h"

TOMP_EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                                unsigned thread_limit, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)flags;
  tomp_league_run(thr, fn, data, num_teams, thread_limit);
}

TOMP_EXPORT bool GOMP_teams4(unsigned num_teams_lower, unsigned num_teams_upper,
                             unsigned thread_limit, bool first) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!first) return tomp_league_inline_next(thr);
  unsigned n = num_teams_lower ? num_teams_lower : num_teams_upper ? num_teams_upper : 1;
  tomp_league_inline_begin(thr, n, thread_limit);
  return true;
}

/* GCC 4.x: called once at the top of a target region's teams body; one team on the host. */
TOMP_EXPORT void GOMP_teams(unsigned num_teams, unsigned thread_limit) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)num_teams;
  tomp_league_inline_one(thr, thread_limit);
}
