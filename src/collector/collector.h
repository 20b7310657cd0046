/* The Collector API module (src/collector): what the OMPT event layer calls.
 *
 * A Collector API session sets TOMP_TOOL_COLLECTOR in tomp_ompt_enabled, so every OMPT event
 * site's tool key (internal.h) also covers the collector and the no-tool path is unchanged.
 * The OMPT cold bodies (src/ompt/emit.c, events.c) forward each event here when
 * tomp_coll_on(); this module maps it onto the white paper's events and delivers it to the
 * registered callback unless the session is paused.  Thread states and region ids are read
 * from the same core fields OMPT reports (thr->state, thr->wait_id, the teams). */
#ifndef TOMP_COLLECTOR_H
#define TOMP_COLLECTOR_H

#include "internal.h"
#include "omp_collector_api.h"

static inline bool tomp_coll_on(void) {
  return (__atomic_load_n(&tomp_ompt_enabled, __ATOMIC_RELAXED) & TOMP_TOOL_COLLECTOR) != 0;
}

/* Deliver event (OMP_COLLECTORAPI_EVENT) on the calling thread. */
void tomp_coll_event_(tomp_thread_t *thr, int event) TOMP_HIDDEN;

/* The encountering thread forks team: give the region its id, deliver OMP_EVENT_FORK (during
 * which CURRENT_PRID is the new region's id and PARENT_PRID the enclosing one's). */
void tomp_coll_fork_(tomp_thread_t *thr, tomp_team_t *team) TOMP_HIDDEN;

/* A barrier's wait (state: ompt_state_wait_barrier_*; others are ignored) begins or ends. */
void tomp_coll_barrier_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep) TOMP_HIDDEN;

/* A mutual-exclusion event of the OMPT layer (which: TOMP_OMPT_ACQUIRE..., kind: ompt_mutex_t). */
void tomp_coll_mutex_(tomp_thread_t *thr, int which, int kind) TOMP_HIDDEN;

#endif
