/* omp_* routines: team and thread queries, ICV setters and getters. */
#include <limits.h>

#include "affinity.h"
#include "api.h"
#include "omp.h"

TOMP_EXPORT int omp_get_thread_num(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->tid : 0;
}

TOMP_EXPORT int omp_get_num_threads(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->team->nthreads : 1;
}

TOMP_EXPORT int omp_get_max_threads(void) { return (int)tomp_icv()->nthreads; }

TOMP_EXPORT void omp_set_num_threads(int n) {
  if (n <= 0) {
    WARN_ONCE("omp_set_num_threads(%d): the count must be positive; using 1", n);
    n = 1;
  }
  tomp_icv()->nthreads = (unsigned)n;
}

TOMP_EXPORT int omp_get_level(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->team->level : 0;
}

TOMP_EXPORT int omp_get_active_level(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->team->active_level : 0;
}

TOMP_EXPORT int omp_in_parallel(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team && t->team->active_level > 0;
}

TOMP_EXPORT int omp_get_ancestor_thread_num(int level) {
  return tomp_ancestor_thread_num(tomp_thread(), level);
}

TOMP_EXPORT int omp_get_team_size(int level) {
  tomp_thread_t *t = tomp_thread();
  if (level == 0) return 1;
  unsigned tid;
  tomp_team_t *team = tomp_team_at(t, level, &tid);
  return team ? (int)team->nthreads : -1;
}

TOMP_EXPORT int omp_get_num_procs(void) { return (int)tomp_num_procs; }

TOMP_EXPORT void omp_set_dynamic(int v) { tomp_icv()->dyn = v != 0; }
TOMP_EXPORT int omp_get_dynamic(void) { return tomp_icv()->dyn; }

TOMP_EXPORT void omp_set_nested(int v) {
  tomp_icv_t *icv = tomp_icv();
  if (v) {
    if (icv->max_active_levels <= 1) icv->max_active_levels = TOMP_SUPPORTED_ACTIVE_LEVELS;
  } else {
    icv->max_active_levels = 1;
  }
}

TOMP_EXPORT int omp_get_nested(void) { return tomp_icv()->max_active_levels > 1; }

TOMP_EXPORT void omp_set_schedule(omp_sched_t kind, int chunk) {
  unsigned k = (unsigned)kind & ~(unsigned)omp_sched_monotonic;
  if (k < omp_sched_static || k > omp_sched_auto) {
    WARN_ONCE("omp_set_schedule: unknown schedule kind %#x; schedule unchanged", (unsigned)kind);
    return;
  }
  /* chunk < 1 means the kind's default; auto takes no chunk */
  if (k == omp_sched_static) chunk = chunk < 1 ? 0 : chunk;
  else if (k == omp_sched_auto || chunk < 1) chunk = 1;
  tomp_icv_t *icv = tomp_icv();
  icv->run_sched = (int)kind;
  icv->run_sched_chunk = chunk;
  icv->run_sched_initial = 0; /* code of either ABI now reads this value */
}

TOMP_EXPORT void omp_get_schedule(omp_sched_t *kind, int *chunk) {
  tomp_icv_t *icv = tomp_icv();
  if (kind) *kind = (omp_sched_t)icv->run_sched;
  if (chunk) *chunk = icv->run_sched_chunk;
}

TOMP_EXPORT int omp_get_thread_limit(void) {
  unsigned l = tomp_icv()->thread_limit;
  return l > INT_MAX ? INT_MAX : (int)l;
}

TOMP_EXPORT int omp_get_supported_active_levels(void) { return TOMP_SUPPORTED_ACTIVE_LEVELS; }

TOMP_EXPORT void omp_set_max_active_levels(int n) {
  if (n < 0) {
    WARN_ONCE("omp_set_max_active_levels(%d): negative; value unchanged", n);
    return;
  }
  tomp_icv()->max_active_levels =
      (unsigned)n > TOMP_SUPPORTED_ACTIVE_LEVELS ? TOMP_SUPPORTED_ACTIVE_LEVELS : (unsigned)n;
}

TOMP_EXPORT int omp_get_max_active_levels(void) { return (int)tomp_icv()->max_active_levels; }

TOMP_EXPORT int omp_get_cancellation(void) { return tomp_g.cancellation; }
