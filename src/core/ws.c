/* Worksharing descriptors: the per-team ring, construct entry and exit, single and
 * copyprivate.  See ws.h for the protocol. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ws.h"
#include "internal.h"

#define ST_INIT 1u
#define ST_READY 2u

/* ---- team hooks ----------------------------------------------------------------------- */

static void slot_release_data(tomp_ws_t *d) {
  free(d->mem);
  d->mem = NULL;
  tomp_doacross_free(d);
}

void tomp_team_ws_init(tomp_team_t *team) {
  tomp_ws_team_t *wt = aligned_alloc(TOMP_CACHELINE, sizeof *wt);
  if (!wt) tomp_fatal("out of memory for worksharing descriptors");
  memset(wt, 0, sizeof *wt);
  for (unsigned i = 0; i < TOMP_WS_RING; i++)
    wt->ring[i].state = i << 2;
  team->ws = wt;
}

void tomp_team_ws_fini(tomp_team_t *team) {
  tomp_ws_team_t *wt = team->ws;
  if (!wt) return;
  for (unsigned i = 0; i < TOMP_WS_RING; i++) {
    slot_release_data(&wt->ring[i]);
    free(wt->ring[i].rng);
  }
  free(wt->thr);
  free(wt);
  team->ws = NULL;
}

/* A region starts: construct numbering restarts at 0.  Constructs a cancelled region
 * abandoned may have left slots claimed, so every slot is reset. */
void tomp_team_ws_reset(tomp_team_t *team) {
  tomp_ws_team_t *wt = team->ws;
  unsigned n = team->nthreads;
  if (n > wt->cap) {
    free(wt->thr);
    unsigned cap = wt->cap ? wt->cap : 4;
    while (cap < n)
      cap *= 2;
    wt->thr = aligned_alloc(TOMP_CACHELINE, cap * sizeof *wt->thr);
    if (!wt->thr) tomp_fatal("out of memory for %u worksharing thread states", cap);
    wt->cap = cap;
  }
  memset(wt->thr, 0, n * sizeof *wt->thr);
  for (unsigned i = 0; i < TOMP_WS_RING; i++) {
    tomp_ws_t *d = &wt->ring[i];
    /* a slot the last region never used is still in its initial state: most regions use
     * none, and fork/join should not pay for eight of them */
    if (tomp_load_rlx(&d->state) == i << 2 && tomp_load_rlx(&d->left) == 0) continue;
    slot_release_data(d);
    tomp_store_rlx(&d->left, 0);
    tomp_store_rlx(&d->state, i << 2);
  }
}

/* ---- waiting -------------------------------------------------------------------------- */

/* The waits below give up when the region is cancelled: the thread that should have moved
 * the word on may have left for the region's end (a cancelled region abandons its ordered
 * turns, doacross posts and constructs).  tomp_team_ws_cancel sets nothing these waits
 * watch, so it bumps their sequence words after the cancel bit: a waiter reads the sequence
 * word before it checks the bit, and then either sees the bit or sleeps on a stale value. */
bool tomp_ws_wait64(tomp_thread_t *thr, uint64_t *word, uint64_t want, bool exact, uint32_t *seq,
                    uint32_t *sleepers, int state, uint64_t wait_id) {
#define REACHED(v) (exact ? (v) == want : (v) >= want)
  if (REACHED(__atomic_load_n(word, __ATOMIC_ACQUIRE))) return true;
  bool reached = true;
  int saved = thr->state;
  tomp_set_state(thr, state, wait_id);
  unsigned long budget = tomp_spins();
  for (unsigned long i = 0; i < budget; i++) {
    if (REACHED(__atomic_load_n(word, __ATOMIC_ACQUIRE))) goto out;
    if (tomp_ws_region_cancelled(thr)) {
      reached = false;
      goto out;
    }
    tomp_wait_pause();
  }
  for (;;) {
    __atomic_add_fetch(sleepers, 1, __ATOMIC_SEQ_CST);
    uint32_t s = __atomic_load_n(seq, __ATOMIC_SEQ_CST);
    bool done = REACHED(__atomic_load_n(word, __ATOMIC_SEQ_CST));
    bool cancelled = !done && tomp_ws_region_cancelled(thr);
    if (!done && !cancelled) tomp_futex_wait(seq, s);
    __atomic_sub_fetch(sleepers, 1, __ATOMIC_SEQ_CST);
    if (done || REACHED(__atomic_load_n(word, __ATOMIC_ACQUIRE))) break;
    if (cancelled || tomp_ws_region_cancelled(thr)) {
      reached = false;
      break;
    }
  }
out:
  tomp_set_state(thr, saved, 0);
  return reached;
#undef REACHED
}

/* Wait until the slot's state leaves `cur` (it is still held by construct k - RING, or
 * another thread is initialising it).  With lapping, returns false once the region is
 * cancelled: a thread that left for the region's end never leaves the old construct. */
static bool slot_wait(tomp_thread_t *thr, tomp_ws_t *d, uint32_t cur, bool lapping,
                      unsigned long *spin, unsigned long *budget) {
  if (lapping && tomp_ws_region_cancelled(thr)) return false;
  /* the wait's budget once, at its first poll, as tomp_wait_while_eq takes it: on a busy
   * machine tomp_spins() looks at the team (partner_here) and decides whether polls yield */
  if (*budget == ULONG_MAX) *budget = tomp_spins();
  if (*spin < *budget) {
    ++*spin;
    tomp_wait_pause();
    return true;
  }
  int saved = thr->state;
  /* Lapping the ring is waiting for the slowest thread to finish a worksharing construct:
   * closest to an implicit worksharing barrier. */
  tomp_set_state(thr, ompt_state_wait_barrier_implicit_workshare, (uint64_t)(uintptr_t)d);
  __atomic_add_fetch(&d->sleepers, 1, __ATOMIC_SEQ_CST);
  uint32_t s = __atomic_load_n(&d->state_seq, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&d->state, __ATOMIC_SEQ_CST) == cur &&
      !(lapping && tomp_ws_region_cancelled(thr)))
    tomp_futex_wait(&d->state_seq, s);
  __atomic_sub_fetch(&d->sleepers, 1, __ATOMIC_SEQ_CST);
  tomp_set_state(thr, saved, 0);
  return true;
}

static void slot_set_state(tomp_ws_t *d, uint32_t v) {
  __atomic_store_n(&d->state, v, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&d->sleepers, __ATOMIC_SEQ_CST)) {
    __atomic_add_fetch(&d->state_seq, 1, __ATOMIC_SEQ_CST);
    tomp_futex_wake(&d->state_seq, 0x7fffffff);
  }
}

void tomp_team_ws_cancel(tomp_team_t *team) {
  tomp_ws_team_t *wt = team->ws;
  if (!wt) return;
  for (unsigned i = 0; i < TOMP_WS_RING; i++) {
    tomp_ws_t *d = &wt->ring[i];
    uint32_t *words[3] = {&d->state_seq, &d->ord_seq, &d->dx_seq};
    for (unsigned j = 0; j < 3; j++) {
      __atomic_add_fetch(words[j], 1, __ATOMIC_SEQ_CST);
      tomp_futex_wake(words[j], 0x7fffffff);
    }
  }
}

/* ---- entry and exit ------------------------------------------------------------------- */

void tomp_ws_init_common(tomp_ws_t *d, uint32_t k, unsigned nthreads) {
  d->k = k;
  d->nthreads = nthreads;
  d->kind = 0;
  d->sched = 0;
  d->ordered = false;
  d->compiled = false;
  d->reductions = NULL;
  d->mem = NULL;
  d->copy = NULL;
  tomp_store_rlx(&d->cancelled, 0);
  d->dx_ndim = 0;
  d->dx_done = NULL;
  d->dx_dims = NULL;
}

/* A private descriptor for one thread, chained so a construct in a task inside it cannot
 * clobber it: orphaned constructs outside any parallel region, and constructs a thread of a
 * cancelled region could not get a ring slot for (born cancelled: no work is handed out). */
static tomp_ws_t *heap_enter(tomp_thread_t *thr, bool *first, bool cancelled) {
  tomp_ws_t *d = aligned_alloc(TOMP_CACHELINE, sizeof *d);
  if (!d) tomp_fatal("out of memory for a worksharing descriptor");
  memset(d, 0, sizeof *d);
  tomp_ws_init_common(d, 0, 1);
  d->heap = true;
  d->cancelled = cancelled;
  d->prev = thr->ws_cur;
  thr->ws_cur = d;
  *first = true;
  return d;
}

tomp_ws_t *tomp_ws_enter(tomp_thread_t *thr, bool *first) {
  tomp_team_t *team = thr->team;
  if (!team) return heap_enter(thr, first, false);
  tomp_ws_team_t *wt = team->ws;
  uint32_t k = thr->ws_count++;
  tomp_ws_t *d = &wt->ring[k % TOMP_WS_RING];
  uint32_t free_k = k << 2, ready_k = free_k | ST_READY;
  unsigned long spin = 0, budget = ULONG_MAX;
  for (;;) {
    uint32_t s = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
    if (s == ready_k) {
      *first = false;
      break;
    }
    if (s == free_k) {
      if (__atomic_compare_exchange_n(&d->state, &s, free_k | ST_INIT, false, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE)) {
        tomp_ws_init_common(d, k, team->nthreads);
        *first = true;
        break;
      }
      continue;
    }
    if (!slot_wait(thr, d, s, (s & ~3u) != free_k, &spin, &budget))
      return heap_enter(thr, first, true);
  }
  thr->ws_cur = d;
  tomp_ws_thr_t *t = &wt->thr[thr->tid];
  t->trip = 0;
  t->ord_held = 0;
  return d;
}

void tomp_ws_publish(tomp_ws_t *d) {
  if (!d->heap) slot_set_state(d, (d->k << 2) | ST_READY);
}

/* ---- cancellation --------------------------------------------------------------------- */

bool tomp_ws_cancel(tomp_thread_t *thr) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (!d) return false;
  __atomic_store_n(&d->cancelled, 1, __ATOMIC_SEQ_CST);
  return true;
}

bool tomp_ws_cancel_point(tomp_thread_t *thr) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (d) return tomp_ws_cancelled(thr, d);
  /* no construct: a loop gcc inlined, cancelled through the team (cancel.c) */
  tomp_team_t *team = thr->team;
  return team && (tomp_load_acq(&team->cancelled) & (TOMP_CANCEL_PARALLEL | TOMP_CANCEL_WS)) != 0;
}

tomp_ws_t *tomp_ws_cur(tomp_thread_t *thr) {
  tomp_ws_t *d = thr->ws_cur;
  if (tomp_likely(d != NULL)) return d;
  tomp_team_t *team = thr->team;
  if (!team || thr->ws_count == 0) return NULL;
  /* a combined parallel construct pre-entered construct 0 for us */
  d = &((tomp_ws_team_t *)team->ws)->ring[(thr->ws_count - 1) % TOMP_WS_RING];
  thr->ws_cur = d;
  return d;
}

void tomp_ws_leave(tomp_thread_t *thr) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (!d) return;
  if (d->heap) {
    thr->ws_cur = d->prev;
    slot_release_data(d);
    free(d);
    return;
  }
  thr->ws_cur = NULL;
  /* read before arriving: once we are counted the slot may be recycled under us */
  uint32_t n = d->nthreads;
  if (__atomic_add_fetch(&d->left, 1, __ATOMIC_ACQ_REL) != n) return;
  /* Last one out: nobody reads this construct any more (its cancelled flag included). */
  slot_release_data(d);
  tomp_store_rlx(&d->left, 0);
  slot_set_state(d, (d->k + TOMP_WS_RING) << 2);
}

/* `reductions`: task reductions on the construct; `mem`: on entry *mem is a byte size, on
 * return a zeroed block of that size shared by the team (scan reductions keep per-thread
 * partial results there).  Called by the first thread before publishing, by the others
 * after. */
void tomp_ws_share_args(tomp_thread_t *thr, tomp_ws_t *d, bool first,
                        struct tomp_redset *reductions, void **mem) {
  if (first) {
    if (reductions) {
      tomp_ws_task_reduction_begin(thr, reductions, NULL);
      d->reductions = reductions;
    }
    if (mem) {
      size_t size = (size_t)(uintptr_t)*mem;
      size_t alloc = (size + TOMP_CACHELINE - 1) & ~(size_t)(TOMP_CACHELINE - 1);
      if (!alloc) alloc = TOMP_CACHELINE;
      d->mem = aligned_alloc(TOMP_CACHELINE, alloc);
      if (!d->mem) tomp_fatal("out of memory for %zu bytes of scan reduction storage", size);
      memset(d->mem, 0, alloc);
      *mem = d->mem;
    }
  } else {
    if (reductions) tomp_ws_task_reduction_begin(thr, reductions, d->reductions);
    if (mem) *mem = d->mem;
  }
}

/* ---- single --------------------------------------------------------------------------- */

/* OMPT: work single begin (executor or other); a plain single's executor end is deferred
 * (no call marks it: see src/core/event.c), a copyprivate one's comes at copy_end. */
static inline void ompt_single_begin(tomp_thread_t *thr, bool executor, bool deferred_end) {
  /* no `work` callback and no Collector session: nothing to report, no end to defer */
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_WORK))
    tomp_ev_single_begin_(thr, executor, deferred_end);
}

static inline __attribute__((always_inline)) bool single_start(tomp_thread_t *thr,
                                                               const bool observed) {
  tomp_team_t *team = thr->team;
  if (!team || team->nthreads == 1) {
    if (observed) ompt_single_begin(thr, true, true);
    return true;
  }
  if (tomp_unlikely(tomp_g.cancellation)) {
    /* `cancel for` in a loop gcc inlined finds its construct by the thread's position in
     * the ring (tomp_ws_cur), which counts singles too: keep them there */
    bool first;
    tomp_ws_t *d = tomp_ws_enter(thr, &first);
    if (first) {
      d->kind = TOMP_WS_SINGLE;
      tomp_ws_publish(d);
      if (d->heap) first = false; /* cancelled region: nobody needs the body */
    }
    tomp_ws_leave(thr);
    if (observed) ompt_single_begin(thr, first, true);
    return first;
  }
  /* No descriptor: the k-th plain single of the team (each thread counts its own) is won
   * by the thread that moves the team's count from k to k + 1.  The first thread to reach
   * single k has passed singles 0..k-1, each of which had its winner by then, so the count
   * is k and it wins; later arrivals find k + 1 or more.  Threads that nowait let run ahead
   * need nothing else.  A load first: losers only share the line. */
  unsigned long k = thr->single_count++;
  bool first = __atomic_load_n(&team->single_count, __ATOMIC_RELAXED) == k &&
               __atomic_compare_exchange_n(&team->single_count, &k, k + 1, false,
                                           __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
  if (observed) ompt_single_begin(thr, first, true);
  return first;
}

bool tomp_single_start(tomp_thread_t *thr) {
  if (tomp_listening()) return single_start(thr, true);
  return single_start(thr, false);
}

bool tomp_single_start_quiet(tomp_thread_t *thr) { return single_start(thr, false); }

void *tomp_single_copy_start(tomp_thread_t *thr) {
  tomp_team_t *team = thr->team;
  if (!team || team->nthreads == 1) {
    ompt_single_begin(thr, true, false);
    return NULL;
  }
  bool first;
  tomp_ws_t *d = tomp_ws_enter(thr, &first);
  if (first) {
    d->kind = TOMP_WS_SINGLE;
    tomp_ws_publish(d);
    ompt_single_begin(thr, true, false);
    return NULL; /* stays in the construct until copy_end */
  }
  ompt_single_begin(thr, false, false);
  tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
  void *data = d->copy;
  tomp_ws_leave(thr);
  return data;
}

void tomp_single_copy_end(tomp_thread_t *thr, void *data) {
  tomp_team_t *team = thr->team;
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_WORK)) tomp_ev_single_end_(thr);
  if (!team || team->nthreads == 1) return;
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (!d) return;
  d->copy = data; /* the others read it after the barrier */
  tomp_ws_leave(thr);
  tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
}
