/* Worksharing loops of LLVM's ABI.
 *
 * Static schedules (__kmpc_for_static_init_*, and the distribute forms) need no shared state:
 * each thread computes its own bounds from its number, as the compiled code expects (inclusive
 * bounds, and a stride to its next chunk).  Sections arrive here too, as a static loop over
 * the section numbers.  Dynamic, guided, runtime and ordered schedules (__kmpc_dispatch_*) run
 * on core's loop descriptors (src/core/loop.c), the ones gcc's loops use.
 *
 * Every variant (4: int32, 4u: uint32, 8: int64, 8u: uint64) is normalised to core's form: a
 * trip count n and value bit patterns base + i * step computed modulo 2^64, which truncated to
 * the variant's width are the loop's values. */
#include "kmp.h"
#include "ws.h"

/* ---- iteration space -------------------------------------------------------------------- */

/* The signed/unsigned comparison follows the variant (kmp.h). */
uint64_t tomp_kmp_trip(bool is_signed, uint64_t lb, uint64_t ub, int64_t st) {
  bool up_ok = is_signed ? (int64_t)lb <= (int64_t)ub : lb <= ub;
  bool down_ok = is_signed ? (int64_t)lb >= (int64_t)ub : lb >= ub;
  if (st > 0) return up_ok ? (ub - lb) / (uint64_t)st + 1 : 0;
  if (st < 0) return down_ok ? (lb - ub) / -(uint64_t)st + 1 : 0;
  tomp_warn("loop with a zero increment: no iterations run");
  return 0;
}

/* ---- static schedules ------------------------------------------------------------------- */

/* OMPT: a static loop's work region begins in its init call and ends in __kmpc_for_static_fini,
 * which says nothing about the loop: the kind and count are kept per thread meanwhile (a
 * small stack: a loop body may hold a nested region whose loops this thread runs too). */
#define STATIC_EV_DEPTH 16
typedef struct static_ev {
  int depth;
  struct {
    int wstype;
    uint64_t n;
  } s[STATIC_EV_DEPTH];
} static_ev_t;
static __thread static_ev_t static_ev __attribute__((tls_model("initial-exec")));

static int static_wstype(const ident_t *loc, int sched) {
  if (sched == KMP_DISTRIBUTE_STATIC || sched == KMP_DISTRIBUTE_STATIC_CHUNKED)
    return ompt_work_distribute;
  if (loc && (loc->flags & KMP_IDENT_WORK_SECTIONS)) return ompt_work_sections;
  if (loc && (loc->flags & KMP_IDENT_WORK_DISTRIBUTE)) return ompt_work_distribute;
  return ompt_work_loop_static;
}

static void static_ev_begin(tomp_thread_t *thr, int wstype, uint64_t n) {
  static_ev_t *e = &static_ev;
  if (e->depth < STATIC_EV_DEPTH) {
    e->s[e->depth].wstype = wstype;
    e->s[e->depth].n = n;
  }
  e->depth++;
  if (wstype < 0) return; /* a doacross loop: its construct reports the work (doacross.c) */
  if (TOMP_EV_WANTED(TOMP_EV_WORK) || thr->ev_single)
    tomp_ev_work_(thr, wstype, ompt_scope_begin, n);
}

static void static_ev_end(tomp_thread_t *thr) {
  static_ev_t *e = &static_ev;
  if (e->depth == 0) return; /* a tool attached inside the loop: its begin went unseen */
  e->depth--;
  if (e->depth < STATIC_EV_DEPTH && e->s[e->depth].wstype >= 0 && TOMP_EV_WANTED(TOMP_EV_WORK))
    tomp_ev_work_(thr, e->s[e->depth].wstype, ompt_scope_end, e->s[e->depth].n);
}

/* The calling thread's share of a static schedule over n iterations among p participants
 * (threads of a team, or teams of a league) of which it is number id.  chunk 0: one block
 * each, the first n % p one iteration longer.  Else chunks of `chunk` round robin (balanced:
 * blocks of a multiple of `chunk`, the simd width).  Results in logical iterations: the first
 * chunk [*a, *a + *len), the distance to the next one (*next), whether it runs the last. */
static void static_share(uint64_t n, uint64_t p, uint64_t id, uint64_t chunk, bool balanced,
                         uint64_t *a, uint64_t *len, uint64_t *next, bool *last) {
  if (balanced && chunk) {
    uint64_t per = n / p + (n % p != 0);
    chunk = (per / chunk + (per % chunk != 0)) * chunk;
  }
  if (chunk == 0) {
    uint64_t q = n / p, r = n % p;
    *a = q * id + (id < r ? id : r);
    *len = q + (id < r);
    *next = n;
    *last = *len && *a + *len == n;
    return;
  }
  uint64_t nchunks = n / chunk + (n % chunk != 0);
  *a = id * chunk;
  *len = chunk;
  *next = p * chunk;
  *last = nchunks && (nchunks - 1) % p == id;
}

/* The bounds one static schedule gives the calling thread, written back as the variant's
 * values (the callers truncate).  lb/ub/st in and out; lastiter out. */
typedef struct static_out {
  uint64_t lb, ub, st;
  bool last;
} static_out_t;

static void static_bounds(uint64_t lb, uint64_t ub, int64_t incr, uint64_t n, uint64_t p,
                          uint64_t id, int sched, uint64_t chunk, static_out_t *o) {
  uint64_t step = (uint64_t)incr;
  o->lb = lb;
  o->ub = ub;
  o->st = step;
  o->last = false;
  if (n == 0) return; /* the compiled code sees lb past ub as given */
  /* A lone participant runs every chunk in order anyway: one block (its stride past the
   * loop's end) spares the compiled code its outer loop per chunk, as libomp answers too */
  bool chunked =
      p > 1 && (sched == KMP_SCH_STATIC_CHUNKED || sched == KMP_DISTRIBUTE_STATIC_CHUNKED ||
                sched == KMP_SCH_STATIC_BALANCED_CHUNKED);
  if (chunked && chunk == 0) chunk = 1;
  uint64_t a, len, next;
  static_share(n, p, id, chunked ? chunk : 0, sched == KMP_SCH_STATIC_BALANCED_CHUNKED, &a, &len,
               &next, &o->last);
  if (!chunked && len == 0) {
    /* no iteration: a lower bound just past the loop's last value, the upper at it */
    o->lb = lb + n * step;
    o->ub = lb + (n - 1) * step;
    return;
  }
  o->lb = lb + a * step;
  o->ub = o->lb + (len - 1) * step; /* a chunk past the end: the compiled code clips it */
  o->st = next * step;
}

/* The league's teams (one outside any teams region) and the calling thread's team number. */
static void league(tomp_thread_t *thr, uint64_t *nteams, uint64_t *num) {
  const tomp_icv_t *icv = &thr->task->icv;
  *nteams = icv->league_size ? icv->league_size : 1;
  *num = icv->league_size ? icv->league_num : 0;
}

/* Participants of a schedule: the team's threads, or for distribute the league's teams. */
static void participants(tomp_thread_t *thr, int sched, uint64_t *p, uint64_t *id) {
  if (sched == KMP_DISTRIBUTE_STATIC || sched == KMP_DISTRIBUTE_STATIC_CHUNKED) {
    league(thr, p, id);
    return;
  }
  tomp_team_t *team = thr->team;
  *p = team ? team->nthreads : 1;
  *id = team ? thr->tid : 0;
}

static int static_sched(kmp_int32 schedtype) {
  int s = KMP_SCH_WITHOUT_MODIFIERS(schedtype);
  if (s >= KMP_NM_OFFSET + KMP_SCH_STATIC_CHUNKED) s -= KMP_NM_OFFSET; /* the nomerge forms */
  switch (s) {
  case KMP_SCH_STATIC_CHUNKED:
  case KMP_ORD_STATIC_CHUNKED:
    return KMP_SCH_STATIC_CHUNKED;
  case KMP_SCH_STATIC_BALANCED_CHUNKED:
  case KMP_DISTRIBUTE_STATIC_CHUNKED:
  case KMP_DISTRIBUTE_STATIC:
    return s;
  default: /* static, greedy, balanced, and anything else: one block per thread */
    return KMP_SCH_STATIC;
  }
}

/* OMPT dispatch for the calling thread's share of a static loop: its first chunk (ws_loop_chunk,
 * or distribute_chunk for a team's share of a distribute loop: the value of its first
 * iteration and its length) or, for sections, each section of its
 * block (instance = the construct's address, as libomp gives it: clang names no section).
 * The compiled code runs a chunked schedule's later chunks without calling tomp: those go
 * unreported (dispatch answers `sometimes`). */
static void static_dispatch(tomp_thread_t *thr, int wstype, uint64_t lb0, int64_t incr,
                            uint64_t n, const static_out_t *o) {
  if (!n || incr == 0) return;
  uint64_t step = incr > 0 ? (uint64_t)incr : -(uint64_t)incr;
  uint64_t a = (incr > 0 ? o->lb - lb0 : lb0 - o->lb) / step;
  if (a >= n) return; /* no iteration for this thread */
  uint64_t last = (incr > 0 ? o->ub - lb0 : lb0 - o->ub) / step;
  if (last >= n) last = n - 1; /* a chunk past the end: the compiled code clips it */
  uint64_t len = last - a + 1;
  if (wstype == ompt_work_sections) {
    uint64_t ra = (uint64_t)(uintptr_t)tomp_ev_codeptr(thr);
    for (uint64_t i = 0; i < len; i++)
      tomp_ev_dispatch_(thr, ompt_dispatch_section, ra, 0);
  } else if (wstype == ompt_work_loop_static) {
    tomp_ev_dispatch_(thr, ompt_dispatch_ws_loop_chunk, o->lb, len);
  } else if (wstype == ompt_work_distribute) {
    tomp_ev_dispatch_(thr, ompt_dispatch_distribute_chunk, o->lb, len);
  }
}

/* Cancellation is on: core's cancellation needs to know the construct (a doacross loop has
 * its own; distribute is the league's, which `cancel` does not name).  Out of line: the
 * common path pays one test. */
static __attribute__((noinline, cold)) void static_cancellable(tomp_thread_t *thr,
                                                               const ident_t *loc, int sched,
                                                               uint64_t n) {
  if (!tomp_kmp_dx.ndim && sched != KMP_DISTRIBUTE_STATIC && sched != KMP_DISTRIBUTE_STATIC_CHUNKED)
    tomp_ws_static_enter(
        thr, loc && (loc->flags & KMP_IDENT_WORK_SECTIONS) ? TOMP_WS_SECTIONS : TOMP_WS_LOOP, n);
}

static void static_init(ident_t *loc, int schedtype, bool is_signed, kmp_int32 *plast, uint64_t *lb,
                        uint64_t *ub, uint64_t *st, int64_t incr, int64_t chunk) {
  tomp_thread_t *thr = tomp_thread();
  int sched = static_sched(schedtype);
  uint64_t n = tomp_kmp_trip(is_signed, *lb, *ub, incr), p, id;
  participants(thr, sched, &p, &id);
  static_out_t o;
  uint64_t lb0 = *lb;
  static_bounds(*lb, *ub, incr, n, p, id, sched, chunk > 0 ? (uint64_t)chunk : 0, &o);
  *lb = o.lb;
  *ub = o.ub;
  *st = o.st;
  if (plast) *plast = o.last;
  if (tomp_unlikely(tomp_kmp_dx.ndim)) tomp_kmp_dx_enter(thr, ompt_work_loop_static);
  if (tomp_listening()) {
    int wstype = tomp_kmp_dx.ndim ? -1 : static_wstype(loc, sched);
    static_ev_begin(thr, wstype, n);
    if (TOMP_EV_WANTED(TOMP_EV_DISPATCH)) static_dispatch(thr, wstype, lb0, incr, n, &o);
  }
  if (tomp_unlikely(tomp_g.cancellation)) static_cancellable(thr, loc, sched, n);
}

/* One entry point per variant: widen, compute, truncate. */
#define KMP_STATIC_INIT(suffix, T, ST, is_signed)                                                  \
  TOMP_EXPORT void __kmpc_for_static_init_##suffix(ident_t *loc, kmp_int32 gtid,                   \
                                                   kmp_int32 schedtype, kmp_int32 *plast, T *plb,  \
                                                   T *pub, ST *pst, ST incr, ST chunk) {           \
    (void)gtid;                                                                                    \
    TOMP_ENTRY(tomp_thread());                                                                     \
    uint64_t lb = (uint64_t)(is_signed ? (int64_t)*plb : (int64_t)(uint64_t)*plb), st;             \
    uint64_t ub = (uint64_t)(is_signed ? (int64_t)*pub : (int64_t)(uint64_t)*pub);                 \
    static_init(loc, schedtype, is_signed, plast, &lb, &ub, &st, incr, chunk);                     \
    *plb = (T)lb;                                                                                  \
    *pub = (T)ub;                                                                                  \
    *pst = (ST)st;                                                                                 \
  }
KMP_STATIC_INIT(4, kmp_int32, kmp_int32, true)
KMP_STATIC_INIT(4u, kmp_uint32, kmp_int32, false)
KMP_STATIC_INIT(8, kmp_int64, kmp_int64, true)
KMP_STATIC_INIT(8u, kmp_uint64, kmp_int64, false)

TOMP_EXPORT void __kmpc_for_static_fini(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_listening()) static_ev_end(thr);
  tomp_ws_static_end(thr);
}

/* `distribute` with dist_schedule(static, chunk): the calling team's share (the teams of the
 * league are the participants). */
#define KMP_TEAM_STATIC_INIT(suffix, T, ST, is_signed)                                             \
  TOMP_EXPORT void __kmpc_team_static_init_##suffix(ident_t *loc, kmp_int32 gtid,                  \
                                                    kmp_int32 *plast, T *plb, T *pub, ST *pst,     \
                                                    ST incr, ST chunk) {                           \
    (void)loc, (void)gtid;                                                                         \
    uint64_t lb = (uint64_t)(is_signed ? (int64_t)*plb : (int64_t)(uint64_t)*plb), st;             \
    uint64_t ub = (uint64_t)(is_signed ? (int64_t)*pub : (int64_t)(uint64_t)*pub);                 \
    uint64_t n = tomp_kmp_trip(is_signed, lb, ub, incr);                                           \
    static_out_t o;                                                                                \
    uint64_t nteams, num;                                                                          \
    league(tomp_thread(), &nteams, &num);                                                          \
    static_bounds(lb, ub, incr, n, nteams, num, KMP_DISTRIBUTE_STATIC_CHUNKED,                     \
                  chunk > 0 ? (uint64_t)chunk : 0, &o);                                            \
    st = o.st;                                                                                     \
    *plb = (T)o.lb;                                                                                \
    *pub = (T)o.ub;                                                                                \
    *pst = (ST)st;                                                                                 \
    if (plast) *plast = o.last;                                                                    \
  }
KMP_TEAM_STATIC_INIT(4, kmp_int32, kmp_int32, true)
KMP_TEAM_STATIC_INIT(4u, kmp_uint32, kmp_int32, false)
KMP_TEAM_STATIC_INIT(8, kmp_int64, kmp_int64, true)
KMP_TEAM_STATIC_INIT(8u, kmp_uint64, kmp_int64, false)

/* `distribute parallel for` in one call: the team's block of the loop (its upper bound in
 * *pupperD), then the calling thread's share of that block under schedule. */
#define KMP_DIST_STATIC_INIT(suffix, T, ST, is_signed)                                             \
  TOMP_EXPORT void __kmpc_dist_for_static_init_##suffix(                                           \
      ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, kmp_int32 *plast, T *plb, T *pub,          \
      T *pupperD, ST *pst, ST incr, ST chunk) {                                                    \
    (void)gtid;                                                                                    \
    TOMP_ENTRY(tomp_thread());                                                                     \
    uint64_t lb = (uint64_t)(is_signed ? (int64_t)*plb : (int64_t)(uint64_t)*plb), st;             \
    uint64_t ub = (uint64_t)(is_signed ? (int64_t)*pub : (int64_t)(uint64_t)*pub);                 \
    uint64_t n = tomp_kmp_trip(is_signed, lb, ub, incr);                                           \
    static_out_t o;                                                                                \
    uint64_t nteams, num;                                                                          \
    league(tomp_thread(), &nteams, &num);                                                          \
    static_bounds(lb, ub, incr, n, nteams, num, KMP_DISTRIBUTE_STATIC, 0, &o);                     \
    *pupperD = (T)o.ub;                                                                            \
    kmp_int32 team_last = o.last;                                                                  \
    lb = o.lb;                                                                                     \
    ub = o.ub;                                                                                     \
    static_init(loc, schedule, is_signed, plast, &lb, &ub, &st, incr, chunk);                      \
    if (plast) *plast = *plast && team_last;                                                       \
    *plb = (T)lb;                                                                                  \
    *pub = (T)ub;                                                                                  \
    *pst = (ST)st;                                                                                 \
  }
KMP_DIST_STATIC_INIT(4, kmp_int32, kmp_int32, true)
KMP_DIST_STATIC_INIT(4u, kmp_uint32, kmp_int32, false)
KMP_DIST_STATIC_INIT(8, kmp_int64, kmp_int64, true)
KMP_DIST_STATIC_INIT(8u, kmp_uint64, kmp_int64, false)

/* ---- dispatch: dynamic, guided, runtime, auto and ordered schedules -------------------- */

/* A kmp schedule code as core's loop arguments (a->n set).  OpenMP 5.2 11.5.3: nonmonotonic
 * is the default for dynamic and guided without ordered; clang passes the modifier bits it
 * decided.  Where the text leaves the choice to the implementation, clang code gets libomp's
 * (docs/kmp-abi.md, "Schedules"): auto is guided; runtime reads run-sched-var as libomp does
 * (schedule.c); simd:guided keeps chunks multiple of the simd width; and a team of one runs a
 * guided loop as one static block (libomp's static greedy; OMPT sees loop_static). */
static void dispatch_sched(tomp_thread_t *thr, kmp_int32 code, int64_t chunk, tomp_loop_args_t *a) {
  int s = KMP_SCH_WITHOUT_MODIFIERS(code);
  bool nonmono = (code & KMP_SCH_MODIFIER_NONMONOTONIC) != 0;
  if (s >= KMP_NM_OFFSET + KMP_SCH_STATIC_CHUNKED) s -= KMP_NM_OFFSET;
  if (s >= KMP_ORD_STATIC_CHUNKED && s <= KMP_ORD_TRAPEZOIDAL) {
    a->ordered = true;
    s -= KMP_ORD_STATIC_CHUNKED - KMP_SCH_STATIC_CHUNKED;
    nonmono = false;
  }
  int sched;
  uint64_t c = chunk > 0 ? (uint64_t)chunk : 0;
  switch (s) {
  case KMP_SCH_STATIC_CHUNKED:
    sched = TOMP_SCHED_STATIC;
    if (!c) c = 1;
    break;
  case KMP_SCH_DYNAMIC_CHUNKED:
    sched = TOMP_SCHED_DYNAMIC;
    break;
  case KMP_SCH_STATIC_STEAL: /* chunks a thread may lose to others: nonmonotonic dynamic */
    sched = TOMP_SCHED_DYNAMIC;
    nonmono = true;
    break;
  case KMP_SCH_GUIDED_SIMD: /* the chunk is the simd width (times the chunk given) */
    sched = TOMP_SCHED_GUIDED | TOMP_LOOP_GUIDED_SIMD;
    if (!c) c = 1;
    break;
  case KMP_SCH_GUIDED_CHUNKED:
  case KMP_SCH_TRAPEZOIDAL:
  case KMP_SCH_GUIDED_ITERATIVE:
  case KMP_SCH_GUIDED_ANALYTICAL:
  case KMP_SCH_AUTO: /* libomp's choice for auto */
    sched = TOMP_SCHED_GUIDED;
    if (!c) c = 1;
    break;
  case KMP_SCH_RUNTIME:
  case KMP_SCH_RUNTIME_SIMD:
    tomp_kmp_runtime_sched(thr, a->n, s == KMP_SCH_RUNTIME_SIMD && c ? c : 0, &sched, &c,
                           &nonmono);
    break;
  case KMP_SCH_STATIC_BALANCED_CHUNKED: /* one block per thread rounded up to the width */
    if (c) {
      uint64_t p = thr->team ? thr->team->nthreads : 1, per = a->n / p + (a->n % p != 0);
      sched = TOMP_SCHED_STATIC;
      c = p > 1 ? (per / c + (per % c != 0)) * c : 0;
      break;
    }
    /* fallthrough */
  default: /* static, greedy, balanced: one block per thread */
    sched = TOMP_SCHED_STATIC;
    c = 0;
    break;
  }
  if ((sched & ~TOMP_LOOP_GUIDED_SIMD) == TOMP_SCHED_GUIDED && (!thr->team || thr->team->nthreads == 1)) {
    sched = TOMP_SCHED_STATIC;
    c = 0;
  }
  a->sched = sched | (nonmono ? TOMP_LOOP_NONMONOTONIC : 0);
  a->chunk = c;
}

/* The OMPT work type of a loop with core schedule sched (a doacross loop's report). */
static int sched_wstype(int sched) {
  switch (sched & ~(TOMP_LOOP_GUIDED_SIMD | TOMP_LOOP_NONMONOTONIC)) {
  case TOMP_SCHED_DYNAMIC: return ompt_work_loop_dynamic;
  case TOMP_SCHED_GUIDED: return ompt_work_loop_guided;
  default: return ompt_work_loop_static;
  }
}

static void dispatch_init(kmp_int32 schedule, bool is_signed, uint64_t lb, uint64_t ub, int64_t st,
                          int64_t chunk) {
  tomp_thread_t *thr = tomp_thread();
  tomp_kmp_dx_t *x = &tomp_kmp_dx;
  tomp_loop_args_t a = {0};
  a.n = tomp_kmp_trip(is_signed, lb, ub, st);
  dispatch_sched(thr, schedule, chunk, &a);
  if (x->ndim && !x->dispatch) { /* the loop of a doacross construct (doacross.c) */
    x->dispatch = true;
    x->dlb = (int64_t)lb;
    x->dst = st;
    tomp_kmp_dx_enter(thr, sched_wstype(a.sched));
    return;
  }
  a.base = lb;
  a.step = (uint64_t)st;
  a.endv = lb + a.n * (uint64_t)st;
  tomp_loop_start(thr, &a, NULL, NULL);
}

/* The next chunk as inclusive bounds, or false once the loop is done for this thread (it
 * then leaves the construct: the compiler calls __kmpc_barrier itself unless nowait). */
/* A doacross loop's chunk: logical outer iterations from the doacross construct; the thread
 * stays in it until __kmpc_doacross_fini. */
static bool dispatch_next_dx(kmp_int32 *plast, uint64_t *lb, uint64_t *ub) {
  tomp_kmp_dx_t *x = &tomp_kmp_dx;
  uint64_t lo, hi;
  if (!tomp_loop_next(tomp_thread(), &lo, &hi)) return false;
  *lb = (uint64_t)x->dlb + lo * (uint64_t)x->dst;
  *ub = (uint64_t)x->dlb + (hi - 1) * (uint64_t)x->dst;
  if (plast) *plast = hi == x->n[0];
  return true;
}

/* observed: a tool listens; core's full path then reports every chunk (the quick one, which
 * takes a chunk inline, reports nothing). */
static inline __attribute__((always_inline)) bool dispatch_next(kmp_int32 *plast, uint64_t *lb,
                                                                uint64_t *ub, const bool observed) {
  uint64_t lo, hi;
  if (tomp_unlikely(tomp_kmp_dx.dispatch)) return dispatch_next_dx(plast, lb, ub);
  if (!(observed ? tomp_loop_next(tomp_thread(), &lo, &hi) : tomp_loop_next_quick(&lo, &hi))) {
    tomp_thread_t *thr = tomp_thread();
    tomp_loop_end(thr, TOMP_END_NOWAIT);
    return false;
  }
  const tomp_ws_t *d = tomp_self->ws_cur;
  *lb = lo;
  *ub = hi - d->step;
  if (plast) *plast = hi == d->endv;
  return true;
}

static TOMP_OBSERVED_TWIN bool dispatch_next_observed(const void *ra, void *fp, kmp_int32 *plast,
                                                      uint64_t *lb, uint64_t *ub) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  return dispatch_next(plast, lb, ub, true);
}

/* The chunk of a quick descriptor (core's tomp_loop_take_quick), without a tool: dispatch_next
 * is the rest.  This is the per-chunk cost of clang's dynamic loops, so it is inlined into the
 * entry point, which then makes no call: 1 with a chunk, 0 when the thread is done, -1 for
 * the general path. */
static inline __attribute__((always_inline)) int dispatch_quick(uint64_t *lo, uint64_t *hi,
                                                                const tomp_ws_t **pd) {
  tomp_thread_t *thr = tomp_self;
  tomp_ws_t *d;
  if (tomp_unlikely(thr == NULL) || tomp_unlikely(tomp_kmp_dx.dispatch) ||
      (d = thr->ws_cur) == NULL || !d->quick)
    return -1;
  *pd = d;
  int r = tomp_loop_take_quick(thr, d, lo, hi);
  return r == TOMP_TAKE_CHUNK ? 1 : r == TOMP_TAKE_END ? 0 : -1;
}

/* the thread is done with the loop (the shared cursor past its end) */
static __attribute__((noinline)) int dispatch_done(void) {
  tomp_loop_end(tomp_self, TOMP_END_NOWAIT);
  return 0;
}

#define KMP_DISPATCH(suffix, T, ST, is_signed)                                                     \
  TOMP_EXPORT void __kmpc_dispatch_init_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, \
                                                 T lb, T ub, ST st, ST chunk) {                    \
    (void)loc, (void)gtid;                                                                         \
    TOMP_ENTRY(tomp_thread());                                                                     \
    dispatch_init(schedule, is_signed,                                                             \
                  (uint64_t)(is_signed ? (int64_t)lb : (int64_t)(uint64_t)lb),                     \
                  (uint64_t)(is_signed ? (int64_t)ub : (int64_t)(uint64_t)ub), st, chunk);         \
  }                                                                                                \
  /* ra: the entry point's return address when a tool listens, else NULL */                        \
  static __attribute__((noinline)) int dispatch_next_rest_##suffix(                                \
      const void *ra, void *fp, kmp_int32 *plast, T *plb, T *pub, ST *pst) {                       \
    uint64_t lb, ub;                                                                               \
    bool more;                                                                                     \
    if (ra)                                                                                        \
      more = dispatch_next_observed(ra, fp, plast, &lb, &ub);                                      \
    else                                                                                           \
      more = dispatch_next(plast, &lb, &ub, false);                                                \
    if (!more) return 0;                                                                           \
    *plb = (T)lb;                                                                                  \
    *pub = (T)ub;                                                                                  \
    if (pst)                                                                                       \
      *pst = tomp_kmp_dx.dispatch ? (ST)tomp_kmp_dx.dst                                            \
                                  : (ST)((const tomp_ws_t *)tomp_self->ws_cur)->step;              \
    return 1;                                                                                      \
  }                                                                                                \
  TOMP_EXPORT int __kmpc_dispatch_next_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 *plast,    \
                                                T *plb, T *pub, ST *pst) {                         \
    (void)loc, (void)gtid;                                                                         \
    if (tomp_listening())                                                                          \
      return dispatch_next_rest_##suffix(TOMP_CODEPTR(), TOMP_ENTRY_FRAME(), plast, plb, pub,      \
                                         pst);                                                     \
    uint64_t lo, hi;                                                                               \
    const tomp_ws_t *d;                                                                            \
    int r = dispatch_quick(&lo, &hi, &d);                                                          \
    if (tomp_likely(r > 0)) {                                                                      \
      *plb = (T)lo;                                                                                \
      *pub = (T)(hi - d->step);                                                                    \
      if (plast) *plast = hi == d->endv;                                                           \
      if (pst) *pst = (ST)d->step;                                                                 \
      return 1;                                                                                    \
    }                                                                                              \
    if (r == 0) return dispatch_done();                                                            \
    return dispatch_next_rest_##suffix(NULL, NULL, plast, plb, pub, pst);                          \
  }
KMP_DISPATCH(4, kmp_int32, kmp_int32, true)
KMP_DISPATCH(4u, kmp_uint32, kmp_int32, false)
KMP_DISPATCH(8, kmp_int64, kmp_int64, true)
KMP_DISPATCH(8u, kmp_uint64, kmp_int64, false)

/* The end of an ordered loop's iteration: the turn passes on when the thread takes its next
 * chunk or leaves the loop (src/core/ordered.c: a thread keeps it for its whole chunk). */
TOMP_EXPORT void __kmpc_dispatch_fini_4(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}
TOMP_EXPORT void __kmpc_dispatch_fini_4u(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}
TOMP_EXPORT void __kmpc_dispatch_fini_8(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}
TOMP_EXPORT void __kmpc_dispatch_fini_8u(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}
/* newer clangs, after a dispatch loop: the construct was left when next returned 0 */
TOMP_EXPORT void __kmpc_dispatch_deinit(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}

/* `distribute parallel for` with a dynamic schedule: the team's block of the loop (as in
 * __kmpc_dist_for_static_init), then dispatch over it among the team's threads. */
#define KMP_DIST_DISPATCH(suffix, T, ST, is_signed)                                                \
  TOMP_EXPORT void __kmpc_dist_dispatch_init_##suffix(ident_t *loc, kmp_int32 gtid,                \
                                                      kmp_int32 schedule, kmp_int32 *plast, T lb,  \
                                                      T ub, ST st, ST chunk) {                     \
    (void)loc, (void)gtid;                                                                         \
    TOMP_ENTRY(tomp_thread());                                                                     \
    uint64_t l = (uint64_t)(is_signed ? (int64_t)lb : (int64_t)(uint64_t)lb);                      \
    uint64_t u = (uint64_t)(is_signed ? (int64_t)ub : (int64_t)(uint64_t)ub);                      \
    static_out_t o;                                                                                \
    uint64_t nteams, num;                                                                          \
    league(tomp_thread(), &nteams, &num);                                                          \
    static_bounds(l, u, st, tomp_kmp_trip(is_signed, l, u, st), nteams, num,                       \
                  KMP_DISTRIBUTE_STATIC, 0, &o);                                                   \
    if (plast) *plast = o.last;                                                                    \
    dispatch_init(schedule, is_signed, o.lb, o.ub, st, chunk);                                     \
  }
KMP_DIST_DISPATCH(4, kmp_int32, kmp_int32, true)
KMP_DIST_DISPATCH(4u, kmp_uint32, kmp_int32, false)
KMP_DIST_DISPATCH(8, kmp_int64, kmp_int64, true)
KMP_DIST_DISPATCH(8u, kmp_uint64, kmp_int64, false)
