/* ordered regions and doacross dependences.
 *
 * ordered: chunks of an ordered loop are handed out in logical order, and ord_cur is the
 * first logical iteration whose ordered region may not run yet.  A thread holding chunk
 * [lo, hi) may run its ordered regions once ord_cur == lo; it keeps the turn for the whole
 * chunk (its iterations are sequential anyway) and passes it on (ord_cur = hi) when it asks
 * for its next chunk or leaves the loop, after waiting for its turn if it never took it.
 *
 * doacross: the outer dimension is dispatched in chunks of one size; within a chunk one
 * thread runs the iterations in lexicographic order, so a chunk's progress is one number:
 * how many of its (flattened) iterations have posted.  A wait for iteration v is a wait for
 * v's chunk to reach v's flattened position. */
#include <stdlib.h>
#include <string.h>

#include "ws.h"
#include "internal.h"

void tomp_ordered_init(tomp_ws_t *d) {
  tomp_store_rlx(&d->ord_cur, 0);
}

void tomp_ordered_release(tomp_thread_t *thr, tomp_ws_t *d, tomp_ws_thr_t *t) {
  t->ord_held = 0;
  if (!thr->team || d->nthreads == 1) return;
  if (!tomp_ws_wait64(thr, &d->ord_cur, t->ord_lo, true, &d->ord_seq, &d->ord_sleepers,
                      ompt_state_wait_ordered, (uint64_t)(uintptr_t)&d->ord_cur))
    return; /* cancelled region: the turn is abandoned */
  __atomic_store_n(&d->ord_cur, t->ord_hi, __ATOMIC_SEQ_CST);
  tomp_ws_wake(&d->ord_seq, &d->ord_sleepers);
}

/* OMPT: ordered regions are mutexes of kind ordered whose wait_id is the loop's ordered
 * cursor (the wait_id of the wait_ordered state). */
static inline bool ompt_ordered_wanted(int which) {
  if (!tomp_listening()) return false;
  return which == TOMP_MUTEX_EV_ACQUIRE    ? TOMP_EV_WANTED(TOMP_EV_MUTEX_ACQUIRE)
         : which == TOMP_MUTEX_EV_ACQUIRED ? TOMP_EV_WANTED(TOMP_EV_MUTEX_ACQUIRED)
                                           : TOMP_EV_WANTED(TOMP_EV_MUTEX_RELEASED);
}
static inline void ompt_ordered(int which, tomp_thread_t *thr, tomp_ws_t *d) {
  if (ompt_ordered_wanted(which)) tomp_ev_mutex_(which, thr, ompt_mutex_ordered, 0, &d->ord_cur);
}

/* An ordered region with no ordered loop to bind to (orphaned, met outside any such loop):
 * nothing to wait for, but a tool still sees the region, as from libomp (LLVM's
 * synchronization/ordered), as a mutex of kind ordered whose wait_id is this object. */
static const char orphaned_ordered;
static void ompt_orphaned(int which, tomp_thread_t *thr) {
  if (ompt_ordered_wanted(which))
    tomp_ev_mutex_(which, thr, ompt_mutex_ordered, 0, &orphaned_ordered);
}

void tomp_ordered_start(tomp_thread_t *thr) {
  tomp_team_t *team = thr->team;
  bool alone = !team || team->nthreads == 1;
  /* alone, it is always our turn: only the events need the construct */
  if (alone && !ompt_ordered_wanted(TOMP_MUTEX_EV_ACQUIRE) &&
      !ompt_ordered_wanted(TOMP_MUTEX_EV_ACQUIRED))
    return;
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (!d || !d->ordered) {
    ompt_orphaned(TOMP_MUTEX_EV_ACQUIRE, thr);
    ompt_orphaned(TOMP_MUTEX_EV_ACQUIRED, thr);
    return;
  }
  if (alone) {
    ompt_ordered(TOMP_MUTEX_EV_ACQUIRE, thr, d);
    ompt_ordered(TOMP_MUTEX_EV_ACQUIRED, thr, d);
    return;
  }
  tomp_ws_thr_t *t = tomp_ws_thr(thr, d);
  if (!t->ord_held) return;
  ompt_ordered(TOMP_MUTEX_EV_ACQUIRE, thr, d);
  /* In a cancelled region the wait gives up and the body runs out of order: the thread
   * whose turn it was may have left for the region's end. */
  tomp_ws_wait64(thr, &d->ord_cur, t->ord_lo, true, &d->ord_seq, &d->ord_sleepers,
                 ompt_state_wait_ordered, (uint64_t)(uintptr_t)&d->ord_cur);
  ompt_ordered(TOMP_MUTEX_EV_ACQUIRED, thr, d);
}

void tomp_ordered_end(tomp_thread_t *thr) {
  if (tomp_likely(!ompt_ordered_wanted(TOMP_MUTEX_EV_RELEASED))) return;
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (d && d->ordered)
    tomp_ev_mutex_(TOMP_MUTEX_EV_RELEASED, thr, ompt_mutex_ordered, 0, &d->ord_cur);
  else
    ompt_orphaned(TOMP_MUTEX_EV_RELEASED, thr);
}

/* ---- doacross ------------------------------------------------------------------------- */

void tomp_doacross_init(tomp_ws_t *d, unsigned ndim, const uint64_t *dims) {
  d->dx_ndim = ndim;
  d->dx_chunk = d->chunk;
  uint64_t inner = 1;
  for (unsigned i = 1; i < ndim; i++)
    inner *= dims[i];
  d->dx_inner = inner;
  if (d->nthreads == 1 || d->n == 0 || inner == 0) {
    d->dx_done = NULL; /* one thread runs the iterations in order: nothing to wait for */
    return;
  }
  d->dx_dims = tomp_malloc(ndim * sizeof *d->dx_dims);
  memcpy(d->dx_dims, dims, ndim * sizeof *dims);
  uint64_t nchunks = d->n / d->dx_chunk + (d->n % d->dx_chunk != 0);
  d->dx_done = tomp_calloc(nchunks, sizeof *d->dx_done);
  tomp_store_rlx(&d->dx_seq, 0);
}

void tomp_doacross_free(tomp_ws_t *d) {
  free(d->dx_done);
  free(d->dx_dims);
  d->dx_done = NULL;
  d->dx_dims = NULL;
  d->dx_ndim = 0;
}

unsigned tomp_doacross_ndim(tomp_thread_t *thr) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  return d ? d->dx_ndim : 0;
}

/* Position of iteration v inside its chunk, counted from 1. */
static uint64_t dx_position(const tomp_ws_t *d, const uint64_t *v, uint64_t *chunk) {
  uint64_t j = v[0] / d->dx_chunk, flat = 0;
  for (unsigned i = 1; i < d->dx_ndim; i++)
    flat = flat * d->dx_dims[i] + v[i];
  *chunk = j;
  return (v[0] - j * d->dx_chunk) * d->dx_inner + flat + 1;
}

/* OMPT (5.2 doacross): a `dependences` callback in the encountering task with the iteration
 * vector, each entry of type source (before the post is visible) or sink (once the waited-for
 * iteration has posted). */
static inline void ompt_doacross(tomp_thread_t *thr, const tomp_ws_t *d, int type,
                                 const uint64_t *v) {
  if (tomp_listening() && d->dx_ndim) tomp_ev_doacross_(thr, type, v, d->dx_ndim);
}

void tomp_doacross_post(tomp_thread_t *thr, const uint64_t *v) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (!d) return;
  ompt_doacross(thr, d, ompt_dependence_type_source, v);
  if (!d->dx_done) return;
  uint64_t j, pos = dx_position(d, v, &j);
  __atomic_store_n(&d->dx_done[j], pos, __ATOMIC_SEQ_CST);
  tomp_ws_wake(&d->dx_seq, &d->dx_sleepers);
}

void tomp_doacross_wait(tomp_thread_t *thr, const uint64_t *v) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (!d) return;
  /* outside the iteration space there is no such iteration to wait for */
  if (d->dx_done && v[0] < d->n) {
    uint64_t j, pos = dx_position(d, v, &j);
    tomp_ws_wait64(thr, &d->dx_done[j], pos, false, &d->dx_seq, &d->dx_sleepers,
                   ompt_state_wait_ordered, (uint64_t)(uintptr_t)&d->dx_done[j]);
  }
  ompt_doacross(thr, d, ompt_dependence_type_sink, v);
}
