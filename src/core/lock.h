/* The futex lock behind omp_lock_t, omp_nest_lock_t, critical and atomic.
 *
 * One 32-bit word: bits 0-1 hold the state (0 free, 1 held, 2 held and someone may sleep),
 * bits 4-7 the omp_sync_hint_t the lock was initialised with.  The hint never changes after
 * init, so every transition preserves it; a lock without hint takes the one-CAS fast path.
 * A waiter spins for a budget chosen by the hint and the wait policy, then sleeps on the word.
 * While it waits, the thread's OMPT state is the caller's wait state (wait_lock,
 * wait_critical, wait_atomic) with wait_id = the word's address. */
#ifndef TOMP_LOCK_H
#define TOMP_LOCK_H

#include "internal.h"

#define TOMP_LOCK_STATE 3u
#define TOMP_LOCK_HINT_SHIFT 4
#define TOMP_LOCK_HINT_MASK (0xfu << TOMP_LOCK_HINT_SHIFT)
/* omp_sync_hint_t bits, with OpenMP's values (every front-end's omp.h uses them) */
enum {
  TOMP_HINT_UNCONTENDED = 1,
  TOMP_HINT_CONTENDED = 2,
  TOMP_HINT_NONSPECULATIVE = 4,
  TOMP_HINT_SPECULATIVE = 8
};

/* ompt_mutex_t values (OpenMP 5.1, 4.4.4.16), for the OMPT hooks */
enum {
  TOMP_MUTEX_LOCK = 1,
  TOMP_MUTEX_TEST_LOCK = 2,
  TOMP_MUTEX_NEST_LOCK = 3,
  TOMP_MUTEX_TEST_NEST_LOCK = 4,
  TOMP_MUTEX_CRITICAL = 5,
  TOMP_MUTEX_ATOMIC = 6,
  TOMP_MUTEX_ORDERED = 7
};

/* The lock of the unnamed critical construct, one for the whole process: gcc's
 * GOMP_critical_start and the unnamed critical of LLVM's ABI (src/kmp/critname.c) both take
 * it, so code built by either compiler excludes the other's (OpenMP 5.2 15.2: all critical
 * constructs without a name are considered to have the same unspecified name). */
extern uint32_t tomp_unnamed_critical TOMP_HIDDEN;

/* Acquire with waiting; state is the ompt_state_t reported while blocked. */
void tomp_lockword_acquire_slow(uint32_t *w, int state) TOMP_HIDDEN;

static inline void tomp_lockword_init(uint32_t *w, unsigned hint) {
  tomp_store_rel(w, (hint << TOMP_LOCK_HINT_SHIFT) & TOMP_LOCK_HINT_MASK);
}

static inline bool tomp_lockword_try(uint32_t *w) {
  uint32_t h = tomp_load_rlx(w) & TOMP_LOCK_HINT_MASK;
  return tomp_cas(w, &h, h | 1u);
}

static inline void tomp_lockword_acquire(uint32_t *w, int state) {
  uint32_t z = 0;
  if (tomp_likely(tomp_cas(w, &z, 1u))) return;
  tomp_lockword_acquire_slow(w, state);
}

/* Release with a possible sleeper (old: the word before the release): out of line, so the
 * fast path of an unlock is a leaf that needs no stack frame. */
void tomp_lockword_release_slow(uint32_t *w, uint32_t old) TOMP_HIDDEN;

/* The common release: held, nobody asleep, no hint bits: one CAS 1 -> 0, which also tells
 * the caller what the word was when it fails (see omp_unset_lock's held check). */
static inline bool tomp_lockword_release_plain(uint32_t *w, uint32_t *seen) {
  *seen = 1u;
  return __atomic_compare_exchange_n(w, seen, 0u, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/* Any other release (hint bits to keep, a sleeper to wake). */
static inline void tomp_lockword_release_rest(uint32_t *w) {
  uint32_t old = __atomic_fetch_sub(w, 1u, __ATOMIC_RELEASE);
  if (tomp_unlikely((old & TOMP_LOCK_STATE) == 2u)) tomp_lockword_release_slow(w, old);
}

static inline void tomp_lockword_release(uint32_t *w) {
  uint32_t seen;
  if (tomp_likely(tomp_lockword_release_plain(w, &seen))) return;
  tomp_lockword_release_rest(w);
}

static inline bool tomp_lockword_held(uint32_t *w) {
  return (tomp_load_rlx(w) & TOMP_LOCK_STATE) != 0;
}

static inline unsigned tomp_lockword_hint(uint32_t *w) {
  return (tomp_load_rlx(w) & TOMP_LOCK_HINT_MASK) >> TOMP_LOCK_HINT_SHIFT;
}

#endif
