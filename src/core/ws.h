/* Worksharing: the ABI-neutral core of loops, sections, single, ordered and doacross.
 *
 * Each team owns a ring of TOMP_WS_RING descriptors.  Every thread counts the constructs it
 * has entered (thr->ws_count); construct k lives in slot k % TOMP_WS_RING.  The first thread
 * to reach construct k claims the slot and initialises it, the others wait (briefly) until it
 * is published, and the last thread to leave recycles it for construct k + TOMP_WS_RING.
 * nowait constructs therefore let threads run up to TOMP_WS_RING constructs ahead of the
 * slowest one before they wait.
 *
 * A loop is normalised to logical iterations 0..n-1; iteration a has the value
 * base + a * step (computed modulo 2^64, so the same code serves signed long and unsigned
 * long long loops counting up or down).  A chunk's end is the value of its first iteration
 * past the chunk, also for the last chunk: gcc's loop code steps its variable and compares
 * it with the end, so the end must be what the variable becomes, wrapped or not. */
#ifndef TOMP_WS_H
#define TOMP_WS_H

#include "internal.h"

/* Schedule a descriptor dispatches with; kept for the OMPT work-loop kinds. */
enum { TOMP_WS_STATIC = 1, TOMP_WS_DYNAMIC = 2, TOMP_WS_GUIDED = 3 };

/* Dynamic and guided chunks without a tool (tomp_ws_t.quick): none (tomp_loop_next decides),
 * one shared cursor, every thread taking chunks from a range of its own and stealing the back
 * half of the largest other range once its own is empty (nonmonotonic loops only: a thread's
 * chunks are no longer increasing), or guided chunks from the shared cursor. */
enum { TOMP_QUICK_NONE = 0, TOMP_QUICK_SHARED = 1, TOMP_QUICK_OWN = 2, TOMP_QUICK_GUIDED = 3 };
#define TOMP_RNG_STRIDE (TOMP_CACHELINE / sizeof(uint64_t))
/* A range word of a thread that took the loop's last chunk: it gets no other (gcc's
 * lastprivate code copies out on the thread whose last chunk ends at the loop's end). */
#define TOMP_RNG_DONE ((uint64_t)1 << 31)

/* Construct kinds (OMPT work types). */
enum { TOMP_WS_LOOP = 1, TOMP_WS_SECTIONS = 2, TOMP_WS_SINGLE = 3 };

/* A thread's private position in its current construct.  Lives in the team (indexed by
 * thread number), not in the thread, so a nested parallel region inside a loop body cannot
 * disturb it. */
typedef struct tomp_ws_thr {
  uint64_t trip;   /* static schedule: chunks already taken */
  uint64_t ord_lo; /* ordered: logical range of the chunk held */
  uint64_t ord_hi;
  int ord_held;
} __attribute__((aligned(TOMP_CACHELINE))) tomp_ws_thr_t;

typedef struct tomp_ws {
  /* Slot life: (k << 2) free for construct k, | 1 being initialised, | 2 ready. */
  uint32_t state;
  uint32_t sleepers;  /* threads asleep on state_seq */
  uint32_t state_seq; /* futex word for state waits: bumped by state changes and cancellation */
  uint32_t k;        /* construct number the slot holds */
  uint32_t nthreads;
  int kind;  /* TOMP_WS_LOOP / SECTIONS / SINGLE */
  int sched; /* TOMP_WS_STATIC / DYNAMIC / GUIDED */
  int ompt_work; /* the OMPT work type reported, 0: the schedule's (tomp_loop_args_t) */
  bool ordered;
  bool simd; /* guided: chunks are multiples of the chunk (TOMP_LOOP_GUIDED_SIMD) */
  bool fast; /* dynamic: fetch-add cannot overflow, no CAS loop needed */
  bool heap; /* a private descriptor outside the ring (orphaned, or a cancelled region) */
  bool compiled; /* tomp_ws_static_begin: the compiled code computes its own static share */
  /* How tomp_loop_next_quick may take the chunks (TOMP_QUICK_*): a fast dynamic loop or a
   * guided one, not ordered, not doacross, cancellation off (nothing else to do per chunk
   * without a tool) */
  uint8_t quick;
  /* `cancel for/sections` of this construct.  Per construct, so a thread that nowait let
   * run ahead neither sees an older construct's cancellation nor loses its own. */
  uint32_t cancelled;
  /* iteration space */
  uint64_t n, chunk, base, step, endv;
  /* data the first thread publishes */
  struct tomp_redset *reductions; /* the first thread's task reductions (task.h) */
  void *mem;            /* scan / inscan scratch block (the `mem` argument) */
  void *copy;           /* copyprivate pointer */
  struct tomp_ws *prev; /* heap descriptors: the thread's enclosing construct */
  tomp_ws_thr_t self;   /* heap descriptors: the lone thread's state */
  /* doacross */
  unsigned dx_ndim;
  uint64_t dx_chunk; /* outer iterations per progress entry */
  uint64_t dx_inner; /* iterations of the inner dimensions per outer iteration */
  uint64_t *dx_dims; /* dx_ndim extents */
  uint64_t *dx_done; /* per chunk: inner iterations posted (flattened, +1) */
  uint32_t dx_seq, dx_sleepers;
  /* TOMP_QUICK_OWN: one word per thread, each on its own line (rng_cap threads' worth kept
   * with the slot): chunk numbers [low 32 bits, high 32 bits) the thread still owns */
  uint64_t *rng;
  unsigned rng_cap;

  uint32_t left __attribute__((aligned(TOMP_CACHELINE)));    /* threads that left */
  uint64_t next __attribute__((aligned(TOMP_CACHELINE)));    /* dynamic / guided cursor */
  uint64_t ord_cur __attribute__((aligned(TOMP_CACHELINE))); /* ordered: iterations done */
  uint32_t ord_seq, ord_sleepers;
} __attribute__((aligned(TOMP_CACHELINE))) tomp_ws_t;

typedef struct tomp_ws_team {
  tomp_ws_t ring[TOMP_WS_RING];
  tomp_ws_thr_t *thr; /* per thread number */
  unsigned cap;
} tomp_ws_team_t;

/* ---- ring (ws.c) ---------------------------------------------------------------------- */

/* Enter the calling thread's next construct.  *first is true for the thread that must
 * initialise the descriptor and then call tomp_ws_publish; for the others the descriptor is
 * already published.  If the parallel region is cancelled while the thread waits for a ring
 * slot an abandoned construct still holds, it gets a private descriptor that is already
 * cancelled (and *first). */
tomp_ws_t *tomp_ws_enter(tomp_thread_t *thr, bool *first) TOMP_HIDDEN;
void tomp_ws_publish(tomp_ws_t *d) TOMP_HIDDEN;
/* Reset what a construct's first thread must not inherit from the slot's last user. */
void tomp_ws_init_common(tomp_ws_t *d, uint32_t k, unsigned nthreads) TOMP_HIDDEN;
/* Leave the current construct; the last thread out recycles the slot. */
void tomp_ws_leave(tomp_thread_t *thr) TOMP_HIDDEN;
/* The current construct (constructs pre-entered at fork included), NULL if none. */
tomp_ws_t *tomp_ws_cur(tomp_thread_t *thr) TOMP_HIDDEN;
/* Share the `reductions` and `mem` arguments of a construct (see ws.c). */
void tomp_ws_share_args(tomp_thread_t *thr, tomp_ws_t *d, bool first,
                        struct tomp_redset *reductions, void **mem) TOMP_HIDDEN;

static inline tomp_ws_thr_t *tomp_ws_thr(tomp_thread_t *thr, tomp_ws_t *d) {
  return d->heap ? &d->self : &((tomp_ws_team_t *)thr->team->ws)->thr[thr->tid];
}

/* Is the thread's parallel region cancelled? */
static inline bool tomp_ws_region_cancelled(tomp_thread_t *thr) {
  tomp_team_t *team = thr->team;
  return team && tomp_unlikely(tomp_load_acq(&team->cancelled) & TOMP_CANCEL_PARALLEL);
}

/* Is construct d (or the region) cancelled? */
static inline bool tomp_ws_cancelled(tomp_thread_t *thr, tomp_ws_t *d) {
  return tomp_unlikely(tomp_load_acq(&d->cancelled)) || tomp_ws_region_cancelled(thr);
}

/* `cancel for/sections`: cancel the calling thread's current construct (false if none). */
bool tomp_ws_cancel(tomp_thread_t *thr) TOMP_HIDDEN;
/* `cancellation point for/sections`: is the current construct or the region cancelled? */
bool tomp_ws_cancel_point(tomp_thread_t *thr) TOMP_HIDDEN;
/* The region was cancelled: wake every thread waiting in the team's worksharing code (ring
 * slots, ordered, doacross); they give up their waits. */
void tomp_team_ws_cancel(tomp_team_t *team) TOMP_HIDDEN;

/* A static loop or sections construct whose iterations the compiled code computes itself
 * from its thread number (LLVM's __kmpc_for_static_init: nothing is handed out, so core
 * would not otherwise know the construct).  The front-end names it, kind TOMP_WS_LOOP or
 * TOMP_WS_SECTIONS, when every thread of the team starts it, and ends it where each thread
 * leaves it.  While cancellation is on this enters a worksharing descriptor (cancel.c), so
 * `cancel for/sections` and cancellation points act on the construct as on any other and
 * OMPT's cancel flags name it; with cancellation off it costs one predictable branch.  end
 * leaves only a construct begin entered (a front-end may call it after any static loop). */
void tomp_ws_static_enter(tomp_thread_t *thr, int kind, uint64_t n) TOMP_HIDDEN;
void tomp_ws_static_leave(tomp_thread_t *thr) TOMP_HIDDEN;
static inline void tomp_ws_static_begin(tomp_thread_t *thr, int kind, uint64_t n) {
  if (tomp_unlikely(tomp_g.cancellation)) tomp_ws_static_enter(thr, kind, n);
}
static inline void tomp_ws_static_end(tomp_thread_t *thr) {
  if (tomp_unlikely(tomp_g.cancellation)) tomp_ws_static_leave(thr);
}

/* ---- loops (loop.c) ------------------------------------------------------------------- */

/* A tomp_loop_args_t.sched bit: the construct said schedule(nonmonotonic:dynamic) (explicitly
 * or by default: the GOMP_*_nonmonotonic_dynamic entry points), or schedule(runtime) where
 * run-sched-var decides (GOMP_*_nonmonotonic_runtime and _maybe_nonmonotonic_runtime). */
#define TOMP_LOOP_NONMONOTONIC 0x40000000
/* A tomp_loop_args_t.sched bit for guided: every chunk but the last is a multiple of the
 * chunk, and the chunks are half the remaining iterations per thread, then the chunk itself
 * once fewer than 2 * threads * (chunk + 1) remain (libomp's guided simd, which clang code
 * gets for schedule(simd:guided) and simd:runtime: the chunk is then the simd width times the
 * chunk given). */
#define TOMP_LOOP_GUIDED_SIMD 0x20000000

typedef struct tomp_loop_args {
  uint64_t n;                /* trip count */
  uint64_t base, step, endv; /* value bit patterns: first, increment, end */
  int sched;                 /* TOMP_SCHED_STATIC/DYNAMIC/GUIDED/AUTO; 0 = run-sched-var;
                                | TOMP_LOOP_NONMONOTONIC */
  uint64_t chunk;            /* 0 = none given */
  bool ordered;
  unsigned ndim;        /* doacross: number of dimensions, 0 if not doacross */
  const uint64_t *dims; /* doacross: iterations per dimension (dims[0] == n) */
  struct tomp_redset *reductions; /* task reductions of the construct (task.h), or NULL */
  void **mem;
  int kind; /* TOMP_WS_LOOP or TOMP_WS_SECTIONS */
  int ompt_work; /* OMPT work type to report (ompt_work_loop_*), 0: the schedule's.  LLVM's
                    doacross loops: the compiler's schedule, not the bookkeeping one */
} tomp_loop_args_t;

/* Trip counts (0 for empty loops).  A zero increment gets one message and no iterations. */
uint64_t tomp_trip_long(long start, long end, long incr) TOMP_HIDDEN;
uint64_t tomp_trip_ull(bool up, unsigned long long start, unsigned long long end,
                       unsigned long long incr) TOMP_HIDDEN;

/* Enter a loop (or sections) construct.  If lo is non-NULL, hands out the first chunk as
 * values [*lo, *hi) and returns whether there was one; with lo NULL returns true. */
bool tomp_loop_start(tomp_thread_t *thr, const tomp_loop_args_t *a, uint64_t *lo,
                     uint64_t *hi) TOMP_HIDDEN;
bool tomp_loop_next(tomp_thread_t *thr, uint64_t *lo, uint64_t *hi) TOMP_HIDDEN;
/* A front-end's loop-next entry point with a tool attached (its TOMP_OBSERVED_PATH twin; GCC's:
 * TOMP_LOOP_NEXT_ENTRY, src/gomp/loop.h). */
bool tomp_loop_next_observed(const void *ra, void *fp, uint64_t *lo, uint64_t *hi) TOMP_HIDDEN;
/* tomp_loop_next for the calling thread (a foreign thread included). */
bool tomp_loop_next_slow(uint64_t *lo, uint64_t *hi) TOMP_HIDDEN;

/* tomp_loop_next without a tool.  A dynamic chunk is what the per-chunk cost of
 * schedule(dynamic) is made of, and two threads taking chunks wait for each other's
 * fetch-add on the cursor's line: whatever runs between two fetch-adds adds to every chunk.
 * So a quick descriptor's chunk is taken inline, in the entry point: one fetch-add, no calls
 * and no other shared line (see docs/benchmarks.md, dynamic_1).
 *
 * tomp_loop_take_quick is the part for quick descriptor d (thr->ws_cur, d->quick set):
 * TOMP_TAKE_CHUNK with the chunk's values [*lo, *hi), TOMP_TAKE_END when the shared cursor
 * is past the end (the thread is done: a second failing fetch-add would break d->fast's
 * bound), TOMP_TAKE_SLOW when the own range is empty (tomp_loop_next steals or ends). */
enum { TOMP_TAKE_SLOW = 0, TOMP_TAKE_CHUNK = 1, TOMP_TAKE_END = 2 };
static inline int tomp_loop_take_quick(tomp_thread_t *thr, tomp_ws_t *d, uint64_t *lo,
                                       uint64_t *hi) {
  uint64_t n = d->n, c = d->chunk, a, b;
  if (d->quick == TOMP_QUICK_OWN) {
    /* only this thread adds to its word; a failed add leaves low > high: still empty */
    uint64_t *r = &d->rng[thr->tid * TOMP_RNG_STRIDE];
    uint64_t w = __atomic_fetch_add(r, 1, __ATOMIC_RELAXED);
    if ((uint32_t)w >= (uint32_t)(w >> 32)) return TOMP_TAKE_SLOW; /* steal */
    a = (uint32_t)w * c;
    if (n - a <= c) __atomic_store_n(r, TOMP_RNG_DONE, __ATOMIC_RELAXED); /* empty now */
    b = n - a > c ? a + c : n;
  } else if (d->quick == TOMP_QUICK_GUIDED) {
    /* the remaining iterations over the threads, at least the chunk (loop.c, grab) */
    uint64_t p = d->nthreads;
    a = __atomic_load_n(&d->next, __ATOMIC_RELAXED);
    do {
      if (a >= n) return TOMP_TAKE_END;
      uint64_t rem = n - a, q = rem / p + (rem % p != 0);
      if (q < c) q = c;
      b = q > rem ? n : a + q;
    } while (
        !__atomic_compare_exchange_n(&d->next, &a, b, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  } else {
    a = __atomic_fetch_add(&d->next, c, __ATOMIC_RELAXED);
    if (a >= n) return TOMP_TAKE_END;
    b = n - a > c ? a + c : n;
  }
  *lo = d->base + a * d->step;
  *hi = d->base + b * d->step;
  return TOMP_TAKE_CHUNK;
}

static inline bool tomp_loop_next_quick(uint64_t *lo, uint64_t *hi) {
  tomp_thread_t *thr = tomp_self;
  tomp_ws_t *d;
  if (tomp_likely(thr != NULL) && tomp_likely((d = thr->ws_cur) != NULL) && d->quick) {
    int r = tomp_loop_take_quick(thr, d, lo, hi);
    if (tomp_likely(r != TOMP_TAKE_SLOW)) return r == TOMP_TAKE_CHUNK;
  }
  /* a tail call: the quick path then saves no registers */
  return tomp_loop_next_slow(lo, hi);
}
/* Enter a doacross loop (ordered(n)): counts[0..ndim) iterations per dimension; the
 * collapsed loop hands out iterations of the outermost one. */
bool tomp_loop_doacross_start(tomp_thread_t *thr, unsigned ndim, const uint64_t *counts, int sched,
                              uint64_t chunk, uint64_t *lo, uint64_t *hi,
                              struct tomp_redset *reductions, void **mem) TOMP_HIDDEN;
enum { TOMP_END_BARRIER = 0, TOMP_END_NOWAIT = 1, TOMP_END_CANCEL = 2 };
/* Leave; returns true (TOMP_END_CANCEL only) if the parallel region was cancelled. */
bool tomp_loop_end(tomp_thread_t *thr, int how) TOMP_HIDDEN;
/* Combined parallel loop/sections: the fork's prep callback pre-enters construct 0. */
void tomp_loop_prep(tomp_team_t *team, const tomp_loop_args_t *a) TOMP_HIDDEN;

/* ---- ordered and doacross (ordered.c) ------------------------------------------------- */

void tomp_ordered_init(tomp_ws_t *d) TOMP_HIDDEN;
/* A thread done with its ordered chunk passes the turn on (waits for its own turn first). */
void tomp_ordered_release(tomp_thread_t *thr, tomp_ws_t *d, tomp_ws_thr_t *t) TOMP_HIDDEN;
void tomp_ordered_start(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ordered_end(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_doacross_init(tomp_ws_t *d, unsigned ndim, const uint64_t *dims) TOMP_HIDDEN;
void tomp_doacross_free(tomp_ws_t *d) TOMP_HIDDEN;
void tomp_doacross_post(tomp_thread_t *thr, const uint64_t *v) TOMP_HIDDEN;
void tomp_doacross_wait(tomp_thread_t *thr, const uint64_t *v) TOMP_HIDDEN;
/* Dimensions of the current doacross loop (0 when there is none). */
unsigned tomp_doacross_ndim(tomp_thread_t *thr) TOMP_HIDDEN;

/* ---- single (ws.c) -------------------------------------------------------------------- */

bool tomp_single_start(tomp_thread_t *thr) TOMP_HIDDEN;
bool tomp_single_start_quiet(tomp_thread_t *thr) TOMP_HIDDEN; /* no tool attached */
/* copyprivate: NULL for the executor; the others get the executor's pointer. */
void *tomp_single_copy_start(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_single_copy_end(tomp_thread_t *thr, void *data) TOMP_HIDDEN;

/* Wait until *word (64-bit) reaches want: == want if exact, else >= want.  Spin, then sleep
 * on seq, which the updater bumps (and wakes) when it sees sleepers.  Returns false, without
 * the word reached, if the parallel region is cancelled (tomp_team_ws_cancel bumps seq). */
bool tomp_ws_wait64(tomp_thread_t *thr, uint64_t *word, uint64_t want, bool exact, uint32_t *seq,
                    uint32_t *sleepers, int state, uint64_t wait_id) TOMP_HIDDEN;
/* The update side: call after storing the word (seq_cst). */
static inline void tomp_ws_wake(uint32_t *seq, uint32_t *sleepers) {
  if (__atomic_load_n(sleepers, __ATOMIC_SEQ_CST)) {
    __atomic_add_fetch(seq, 1, __ATOMIC_SEQ_CST);
    tomp_futex_wake(seq, 0x7fffffff);
  }
}

#endif
