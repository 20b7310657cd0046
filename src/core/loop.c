/* Loop dispatch: static, dynamic and guided schedules over a normalised iteration space.
 *
 * Dynamic chunks are one fetch-add on the descriptor's cursor (a CAS loop only when a huge
 * chunk could make the cursor wrap); guided chunks are a CAS loop; static chunks need no
 * shared state at all.  Chunks are handed out in increasing logical order, which ordered
 * loops rely on. */
#include <limits.h>
#include <stdlib.h>

#include "ws.h"
#include "internal.h"

/* OMPT: work loop begin / end; the 5.2 loop kinds come from the schedule the descriptor
 * dispatches with (runtime and auto resolved), sections are their own kind. */
static int ompt_work_type(tomp_ws_t *d) {
  if (d->kind == TOMP_WS_SECTIONS) return ompt_work_sections;
  if (d->ompt_work) return d->ompt_work;
  switch (d->sched) {
  case TOMP_WS_STATIC: return ompt_work_loop_static;
  case TOMP_WS_DYNAMIC: return ompt_work_loop_dynamic;
  case TOMP_WS_GUIDED: return ompt_work_loop_guided;
  default: return ompt_work_loop_other;
  }
}
static void ompt_work_begin(tomp_thread_t *thr, tomp_ws_t *d) {
  if (tomp_listening() && (TOMP_EV_WANTED(TOMP_EV_WORK) || thr->ev_single))
    tomp_ev_work_(thr, ompt_work_type(d), ompt_scope_begin, d->n);
}
static void ompt_work_end(tomp_thread_t *thr, tomp_ws_t *d) {
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_WORK))
    tomp_ev_work_(thr, ompt_work_type(d), ompt_scope_end, d->n);
}
/* OMPT: dispatch of a chunk [lo, hi) of logical iterations (start: the value of its first
 * iteration), or of a section (its number) */
static void ompt_dispatch(tomp_thread_t *thr, tomp_ws_t *d, uint64_t lo, uint64_t hi) {
  if (tomp_likely(!tomp_listening()) || !TOMP_EV_WANTED(TOMP_EV_DISPATCH)) return;
  if (d->kind == TOMP_WS_SECTIONS)
    tomp_ev_dispatch_(thr, ompt_dispatch_section, d->base + lo * d->step, 0);
  else
    tomp_ev_dispatch_(thr, ompt_dispatch_ws_loop_chunk, d->base + lo * d->step, hi - lo);
}

/* A combined parallel loop / sections: every thread starts inside construct 0; its work
 * begins with its implicit task (emit.c calls this right after implicit-task-begin). */
void tomp_ev_ws_initial(tomp_thread_t *thr) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (d) tomp_ev_work_(thr, ompt_work_type(d), ompt_scope_begin, d->n);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) {
  return a / b + (a % b != 0);
}

uint64_t tomp_trip_long(long start, long end, long incr) {
  if (incr > 0) return start < end ? ceil_div((uint64_t)end - (uint64_t)start, (uint64_t)incr) : 0;
  if (incr < 0) return start > end ? ceil_div((uint64_t)start - (uint64_t)end, -(uint64_t)incr) : 0;
  if (start != end)
    tomp_warn("loop with a zero increment (from %ld to %ld): no iterations run", start, end);
  return 0;
}

uint64_t tomp_trip_ull(bool up, unsigned long long start, unsigned long long end,
                       unsigned long long incr) {
  if (incr == 0) {
    if (start != end)
      tomp_warn("loop with a zero increment (from %llu to %llu): no iterations run", start, end);
    return 0;
  }
  if (up) return start < end ? ceil_div(end - start, incr) : 0;
  return start > end ? ceil_div(start - end, -incr) : 0;
}

/* Resolve runtime / auto and defaults into (d->sched, d->chunk).  Returns whether chunks
 * may come in any order: the construct said nonmonotonic (TOMP_LOOP_NONMONOTONIC) and, for
 * schedule(runtime), run-sched-var has no monotonic modifier. */
static bool set_schedule(tomp_thread_t *thr, tomp_ws_t *d, int sched, uint64_t chunk) {
  bool nonmonotonic = sched & TOMP_LOOP_NONMONOTONIC;
  sched &= ~(int)(TOMP_SCHED_MONOTONIC | TOMP_LOOP_NONMONOTONIC | TOMP_LOOP_GUIDED_SIMD);
  if (sched == 0) {
    tomp_icv_t *icv = &thr->task->icv;
    if (icv->run_sched & TOMP_SCHED_MONOTONIC) nonmonotonic = false;
    sched = icv->run_sched & ~(int)TOMP_SCHED_MONOTONIC;
    chunk = icv->run_sched_chunk > 0 ? (uint64_t)icv->run_sched_chunk : 0;
  }
  switch (sched) {
  case TOMP_SCHED_DYNAMIC:
    d->sched = TOMP_WS_DYNAMIC;
    break;
  case TOMP_SCHED_GUIDED:
    d->sched = TOMP_WS_GUIDED;
    break;
  case TOMP_SCHED_AUTO:
    chunk = 0;
    /* fallthrough */
  default:
    d->sched = TOMP_WS_STATIC;
    break;
  }
  if (d->sched != TOMP_WS_STATIC && chunk == 0) chunk = 1;
  d->chunk = chunk;
  return nonmonotonic;
}

/* ---- own ranges (TOMP_QUICK_OWN) ------------------------------------------------------ *
 * Two threads taking chunks from one cursor pay a transfer of its line per chunk; from
 * ranges of their own, an uncontended fetch-add, and lines move only when a thread steals.
 * A range word holds chunk numbers [low, high).  The owner takes the low chunk with a
 * fetch-add: on an empty word that leaves low past high, and low never carries into high
 * (the owner adds at most twice per chunk it steals, so low stays below 3 * 2^28 plus a few,
 * far from TOMP_RNG_DONE).  Thieves take the high half with a CAS.  A word changed since a
 * thief read it cannot hold the same value again: its low chunk was handed out before the
 * word could empty, and a word refilled from a steal starts at a chunk nobody has had.  So
 * a failed CAS means only "look again", and every chunk is in exactly one word until one
 * thread takes it.  The last chunk is the top of whatever range holds it, so its taker's
 * word is empty then and becomes TOMP_RNG_DONE. */
#define RNG_MAX_CHUNKS (1u << 28)

static uint64_t *rng_word(tomp_ws_t *d, unsigned tid) {
  return &d->rng[tid * TOMP_RNG_STRIDE];
}

/* Deal the chunks out in nthreads contiguous ranges; false if the loop does not fit. */
static bool own_ranges(tomp_ws_t *d) {
  uint64_t p = d->nthreads, nchunks = ceil_div(d->n, d->chunk);
  if (p < 2 || d->heap || nchunks > RNG_MAX_CHUNKS) return false;
  if (d->rng_cap < p) {
    free(d->rng);
    d->rng = aligned_alloc(TOMP_CACHELINE, p * TOMP_CACHELINE);
    if (!d->rng) tomp_fatal("out of memory for %u loop ranges", (unsigned)p);
    d->rng_cap = (unsigned)p;
  }
  for (uint64_t i = 0; i < p; i++)
    tomp_store_rlx(rng_word(d, (unsigned)i), (nchunks * i / p) | (nchunks * (i + 1) / p) << 32);
  return true;
}

/* The next chunk of the own range or, once it is empty, of the back half of the largest
 * range left (stolen; the rest of that half becomes the own range). */
static bool own_next(tomp_thread_t *thr, tomp_ws_t *d, uint64_t *chunk) {
  unsigned p = d->nthreads, me = thr->tid;
  uint64_t *mine = rng_word(d, me);
  uint64_t w = __atomic_fetch_add(mine, 1, __ATOMIC_RELAXED);
  if ((uint32_t)w < (uint32_t)(w >> 32)) {
    *chunk = (uint32_t)w;
    return true;
  }
  if ((uint32_t)w >= TOMP_RNG_DONE) return false;
  for (;;) {
    uint64_t *victim = NULL, vw = 0;
    uint32_t most = 0;
    for (unsigned i = 1; i < p; i++) {
      uint64_t *r = rng_word(d, (me + i) % p);
      uint64_t x = __atomic_load_n(r, __ATOMIC_RELAXED);
      uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
      if (lo < hi && hi - lo > most) {
        most = hi - lo;
        victim = r;
        vw = x;
      }
    }
    if (!victim) return false;
    uint32_t lo = (uint32_t)vw, hi = (uint32_t)(vw >> 32), s = hi - (most + 1) / 2;
    if (!__atomic_compare_exchange_n(victim, &vw, lo | (uint64_t)s << 32, false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED))
      continue;
    /* [s, hi) is ours; our word is empty and only we refill it */
    if (s + 1 < hi)
      __atomic_store_n(mine, (uint64_t)(s + 1) | (uint64_t)hi << 32, __ATOMIC_RELAXED);
    *chunk = s;
    return true;
  }
}

static void loop_init(tomp_thread_t *thr, tomp_ws_t *d, const tomp_loop_args_t *a) {
  d->kind = a->kind ? a->kind : TOMP_WS_LOOP;
  d->n = a->n;
  d->base = a->base;
  d->step = a->step;
  d->endv = a->endv;
  bool nonmonotonic = set_schedule(thr, d, a->sched, a->chunk);
  d->simd = (a->sched & TOMP_LOOP_GUIDED_SIMD) && d->sched == TOMP_WS_GUIDED;
  d->ompt_work = a->ompt_work;
  d->ordered = a->ordered;
  /* A team of one takes a dynamic or chunked static loop in one chunk: the order is the
   * same (ordered regions included: a lone thread always has the turn), and the loop costs
   * one dispatch instead of one per chunk.  Not for a tool that takes dispatch callbacks:
   * it is shown the chunks the schedule asks for. */
  if (d->nthreads == 1 && d->kind == TOMP_WS_LOOP && d->sched != TOMP_WS_GUIDED && d->chunk &&
      !a->ndim && d->n && !(tomp_listening() && TOMP_EV_WANTED(TOMP_EV_DISPATCH)))
    d->chunk = d->n;
  tomp_store_rlx(&d->next, 0);
  /* every thread does at most one failing fetch-add, so the cursor stays below
   * n + (nthreads + 1) * chunk */
  d->fast = d->chunk <= (UINT64_MAX - d->n) / ((uint64_t)d->nthreads + 1);
  if (d->ordered) tomp_ordered_init(d);
  d->quick = TOMP_QUICK_NONE;
  if (d->kind == TOMP_WS_LOOP && d->sched == TOMP_WS_DYNAMIC && d->fast && !d->ordered &&
      !a->ndim && !tomp_g.cancellation)
    d->quick = nonmonotonic && own_ranges(d) ? TOMP_QUICK_OWN : TOMP_QUICK_SHARED;
  else if (d->kind == TOMP_WS_LOOP && d->sched == TOMP_WS_GUIDED && !d->simd && !d->ordered &&
           !a->ndim && !tomp_g.cancellation)
    d->quick = TOMP_QUICK_GUIDED;
  if (a->ndim) {
    /* doacross progress is tracked per chunk, so chunks must have one size */
    if (d->sched == TOMP_WS_GUIDED) d->sched = TOMP_WS_DYNAMIC;
    if (d->chunk == 0) d->chunk = d->n ? ceil_div(d->n, d->nthreads) : 1;
    d->fast = d->chunk <= (UINT64_MAX - d->n) / ((uint64_t)d->nthreads + 1);
    tomp_doacross_init(d, a->ndim, a->dims);
  }
}

/* Next logical chunk [*lo, *hi) for the calling thread. */
static bool grab(tomp_thread_t *thr, tomp_ws_t *d, tomp_ws_thr_t *t, uint64_t *lo, uint64_t *hi) {
  uint64_t n = d->n, c = d->chunk, a;
  switch (d->sched) {
  case TOMP_WS_DYNAMIC:
    if (d->quick == TOMP_QUICK_OWN) {
      if (!own_next(thr, d, &a)) return false;
      a *= c;
      if (n - a <= c) __atomic_store_n(rng_word(d, thr->tid), TOMP_RNG_DONE, __ATOMIC_RELAXED);
    } else if (tomp_likely(d->fast)) {
      a = __atomic_fetch_add(&d->next, c, __ATOMIC_RELAXED);
      if (a >= n) return false;
    } else {
      a = __atomic_load_n(&d->next, __ATOMIC_RELAXED);
      do {
        if (a >= n) return false;
      } while (!__atomic_compare_exchange_n(&d->next, &a, n - a > c ? a + c : n, true,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    }
    *lo = a;
    *hi = n - a > c ? a + c : n;
    return true;
  case TOMP_WS_GUIDED: {
    uint64_t q, p = d->nthreads, tail;
    /* guided simd: below `tail` remaining iterations, chunks of c */
    if (__builtin_mul_overflow(2 * p, c + 1, &tail)) tail = UINT64_MAX;
    a = __atomic_load_n(&d->next, __ATOMIC_RELAXED);
    do {
      if (a >= n) return false;
      uint64_t rem = n - a;
      if (d->simd)
        q = rem < tail ? c : ceil_div(rem / (2 * p), c) * c;
      else
        q = ceil_div(rem, p);
      if (q < c) q = c;
      if (q > rem) q = rem;
    } while (!__atomic_compare_exchange_n(&d->next, &a, a + q, true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    *lo = a;
    *hi = a + q;
    return true;
  }
  default: {
    uint64_t p = d->nthreads, tid = thr->team ? thr->tid : 0;
    if (c == 0) {
      /* one contiguous block per thread, the first n % p threads one iteration longer */
      if (t->trip++) return false;
      uint64_t q = n / p, r = n % p;
      a = q * tid + (tid < r ? tid : r);
      uint64_t len = q + (tid < r);
      if (!len) return false;
      *lo = a;
      *hi = a + len;
      return true;
    }
    uint64_t nchunks = ceil_div(n, c);
    uint64_t j;
    if (__builtin_mul_overflow(t->trip, p, &j) || __builtin_add_overflow(j, tid, &j) ||
        j >= nchunks)
      return false;
    t->trip++;
    a = j * c;
    *lo = a;
    *hi = n - a > c ? a + c : n;
    return true;
  }
  }
}

static bool next_chunk(tomp_thread_t *thr, tomp_ws_t *d, uint64_t *lo, uint64_t *hi) {
  tomp_ws_thr_t *t = tomp_ws_thr(thr, d);
  if (d->ordered && t->ord_held) tomp_ordered_release(thr, d, t);
  /* After `cancel sections` the remaining sections are still handed out: a thread acts on a
   * cancellation only at a cancellation point (5.2 sec. 16.2: implicit barriers, barrier,
   * cancel and cancellation point regions), and a thread in a section may wait for another
   * section to run before it reaches one (libomp hands them out too; tests/
   * cancel_sections_late.c).  A cancelled loop or parallel region hands out nothing more. */
  if (d->kind == TOMP_WS_SECTIONS ? tomp_ws_region_cancelled(thr) : tomp_ws_cancelled(thr, d))
    return false;
  uint64_t a, b;
  if (!grab(thr, d, t, &a, &b)) return false;
  if (d->ordered) {
    t->ord_lo = a;
    t->ord_hi = b;
    t->ord_held = 1;
  }
  ompt_dispatch(thr, d, a, b);
  *lo = d->base + a * d->step;
  *hi = d->base + b * d->step;
  return true;
}

bool tomp_loop_start(tomp_thread_t *thr, const tomp_loop_args_t *a, uint64_t *lo, uint64_t *hi) {
  bool first;
  tomp_ws_t *d = tomp_ws_enter(thr, &first);
  if (first) {
    loop_init(thr, d, a);
    tomp_ws_share_args(thr, d, true, a->reductions, a->mem);
    tomp_ws_publish(d);
  } else {
    tomp_ws_share_args(thr, d, false, a->reductions, a->mem);
  }
  ompt_work_begin(thr, d);
  if (!lo) return true;
  return next_chunk(thr, d, lo, hi);
}

bool tomp_loop_next(tomp_thread_t *thr, uint64_t *lo, uint64_t *hi) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (tomp_unlikely(!d)) return false;
  return next_chunk(thr, d, lo, hi);
}

bool tomp_loop_next_slow(uint64_t *lo, uint64_t *hi) {
  return tomp_loop_next(tomp_thread(), lo, hi);
}

TOMP_OBSERVED_TWIN bool tomp_loop_next_observed(const void *ra, void *fp, uint64_t *lo, uint64_t *hi) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  return tomp_loop_next(thr, lo, hi);
}

bool tomp_loop_end(tomp_thread_t *thr, int how) {
  tomp_ws_t *d = tomp_ws_cur(thr);
  if (d) {
    tomp_ws_thr_t *t = tomp_ws_thr(thr, d);
    if (d->ordered && t->ord_held) tomp_ordered_release(thr, d, t);
    ompt_work_end(thr, d);
    tomp_ws_leave(thr);
  }
  if (!thr->team || how == TOMP_END_NOWAIT) return false;
  return tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, how == TOMP_END_CANCEL);
}

/* Runs inside tomp_fork before any worker starts: construct 0 is initialised and published
 * here, and every thread of the team starts already inside it. */
void tomp_loop_prep(tomp_team_t *team, const tomp_loop_args_t *a) {
  tomp_ws_t *d = &((tomp_ws_team_t *)team->ws)->ring[0];
  tomp_thread_t *master = tomp_self;
  tomp_ws_init_common(d, 0, team->nthreads);
  loop_init(master, d, a);
  tomp_store_rlx(&d->state, 2u);
  team->ws_initial = 1;
}

bool tomp_loop_doacross_start(tomp_thread_t *thr, unsigned ndim, const uint64_t *counts, int sched,
                              uint64_t chunk, uint64_t *lo, uint64_t *hi,
                              struct tomp_redset *reductions, void **mem) {
  tomp_loop_args_t a = {0};
  /* the collapsed outer loop runs counts[0] iterations even when an inner ordered
   * dimension is empty: its code (lastprivate, inner loop set-up) still executes */
  a.n = ndim ? counts[0] : 0;
  a.base = 0;
  a.step = 1;
  a.endv = a.n;
  a.sched = sched;
  a.chunk = chunk;
  a.ndim = ndim;
  a.dims = counts;
  a.reductions = reductions;
  a.mem = mem;
  return tomp_loop_start(thr, &a, lo, hi);
}
