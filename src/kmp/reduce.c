/* Reductions of LLVM's ABI: the compiler asks the runtime how to combine each thread's
 * private copies (__kmpc_reduce / __kmpc_reduce_nowait) and gets back
 *   1: combine under mutual exclusion with reduce_func, then call __kmpc_end_reduce*;
 *   2: combine with atomic updates (the compiler emits them only when loc carries
 *      KMP_IDENT_ATOMIC_REDUCE), then __kmpc_end_reduce for the blocking form only;
 *   0: nothing to do (a thread whose copy another thread combined: tomp never answers it).
 * tomp's choice: a team of one takes 1 and no lock; a larger team takes 2 where the compiler
 * offers atomics (each thread pays one atomic update per variable, no lock word bounced
 * between threads, nobody sleeps), else 1 under the lock word the compiler passes in `lck`
 * (kmp_critical_name, shared with critical; sync.c).  The blocking form ends with the
 * construct's barrier in __kmpc_end_reduce. */
#include <limits.h>

#include "kmp.h"
#include "lock.h"

#define KMP_IDENT_ATOMIC_REDUCE 0x10

/* Per thread: whether the reduction in progress holds its lock word. */
static __thread bool red_locked __attribute__((tls_model("initial-exec")));
/* Per thread: whether the reduction in progress holds the team's turn (deterministic order). */
static __thread bool red_in_turn __attribute__((tls_model("initial-exec")));

static inline bool red_wanted(void) {
  return tomp_listening() && TOMP_EV_WANTED(TOMP_EV_REDUCTION);
}

/* KMP_DETERMINISTIC_REDUCTION: the threads combine one after the other in the order of
 * their numbers (team->red_turn, which goes round the team once per construct), so for a
 * given team size the result is the same at every run, whatever order they arrive in.  The
 * copies are combined in a chain, thread 0's first (libomp combines them in a tree: the
 * rounding differs from libomp's, the reproducibility is the same). */
#define TURN_SLEEPER 0x80000000u /* in red_turn: a thread sleeps (or is about to) on it */

/* core's wait policy: polls (tomp_spins, for each value of the turn seen), then the futex,
 * marked in red_turn first so that only a pass that finds the mark makes the wake call */
static void turn_wait(tomp_team_t *team, unsigned tid) {
  uint32_t *w = &team->red_turn, t;
  while (((t = tomp_load_acq(w)) & ~TURN_SLEEPER) != tid) {
    unsigned long n = tomp_spins();
    for (unsigned long i = 0; i < n && tomp_load_acq(w) == t; i++)
      tomp_wait_pause();
    if (tomp_load_acq(w) != t) continue;
    /* a failed exchange: the turn moved (or another sleeper marked it): look again */
    if ((t & TURN_SLEEPER) || tomp_cas(w, &t, t | TURN_SLEEPER))
      tomp_futex_wait(w, t | TURN_SLEEPER);
  }
}

static void turn_pass(tomp_team_t *team, unsigned tid) {
  uint32_t next = tid + 1 < team->nthreads ? tid + 1 : 0;
  if (tomp_xchg(&team->red_turn, next) & TURN_SLEEPER) tomp_futex_wake(&team->red_turn, INT_MAX);
}

static kmp_int32 reduce_begin(tomp_thread_t *thr, const ident_t *loc, kmp_critical_name *lck) {
  tomp_team_t *team = thr->team;
  if (red_wanted()) tomp_ev_reduction_(thr, ompt_scope_begin);
  red_locked = false;
  if (!team || team->nthreads == 1) return KMP_REDUCE_COMBINE;
  if (tomp_unlikely(tomp_g.kmp_deterministic_reduction)) {
    turn_wait(team, thr->tid);
    red_in_turn = true;
    return KMP_REDUCE_COMBINE;
  }
  if (loc && (loc->flags & KMP_IDENT_ATOMIC_REDUCE)) return KMP_REDUCE_ATOMIC;
  uint32_t *w = (uint32_t *)(void *)lck;
  if (tomp_listening()) tomp_ev_mutex_acquire(thr, TOMP_MUTEX_CRITICAL, 0, w);
  tomp_lockword_acquire(w, ompt_state_wait_critical);
  if (tomp_listening()) tomp_ev_mutex_acquired(thr, TOMP_MUTEX_CRITICAL, w);
  red_locked = true;
  return KMP_REDUCE_COMBINE;
}

static void reduce_end(tomp_thread_t *thr, kmp_critical_name *lck) {
  if (tomp_unlikely(red_in_turn)) {
    red_in_turn = false;
    turn_pass(thr->team, thr->tid);
  }
  if (red_locked) {
    uint32_t *w = (uint32_t *)(void *)lck;
    red_locked = false;
    tomp_lockword_release(w);
    if (tomp_listening()) tomp_ev_mutex_released(thr, TOMP_MUTEX_CRITICAL, w);
  }
  if (red_wanted()) tomp_ev_reduction_(thr, ompt_scope_end);
}

TOMP_EXPORT kmp_int32 __kmpc_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars,
                                           size_t reduce_size, void *reduce_data,
                                           void (*reduce_func)(void *lhs, void *rhs),
                                           kmp_critical_name *lck) {
  (void)gtid, (void)num_vars, (void)reduce_size, (void)reduce_data, (void)reduce_func;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  kmp_int32 how = reduce_begin(thr, loc, lck);
  /* the atomic form of the nowait reduction makes no closing call */
  if (how == KMP_REDUCE_ATOMIC && red_wanted()) tomp_ev_reduction_(thr, ompt_scope_end);
  return how;
}

TOMP_EXPORT void __kmpc_end_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  reduce_end(thr, lck);
}

TOMP_EXPORT kmp_int32 __kmpc_reduce(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars,
                                    size_t reduce_size, void *reduce_data,
                                    void (*reduce_func)(void *lhs, void *rhs),
                                    kmp_critical_name *lck) {
  (void)gtid, (void)num_vars, (void)reduce_size, (void)reduce_data, (void)reduce_func;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return reduce_begin(thr, loc, lck);
}

TOMP_EXPORT void __kmpc_end_reduce(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  reduce_end(thr, lck);
  if (thr->team) tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
}
