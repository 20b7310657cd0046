/* The lock word's slow paths (lock.h): a waiter spins for a budget the hint and the wait
 * policy choose, then sleeps on the word; a release with a possible sleeper wakes one.  The
 * routines that use the lock word are src/api/lock.c (omp_lock_t, omp_nest_lock_t),
 * src/gomp/critical.c (critical, atomic) and the front-ends' old lock layouts (src/gomp/lock.c). */
#include "lock.h"

uint32_t tomp_unnamed_critical __attribute__((aligned(TOMP_CACHELINE)));

/* ---- waiting ------------------------------------------------------------------------------ */

/* Spin budget by hint: an uncontended lock is expected to be free, so a waiter sleeps almost at
 * once; otherwise the wait policy decides (tomp_spins()). */
static unsigned long spin_budget(uint32_t hint) {
  unsigned long n = tomp_spins();
  if ((hint & TOMP_HINT_UNCONTENDED) && n > 64) n = 64;
  return n;
}

void tomp_lockword_acquire_slow(uint32_t *w, int state) {
  uint32_t h = tomp_load_rlx(w) & TOMP_LOCK_HINT_MASK;
  uint32_t e = h;
  if (tomp_cas(w, &e, h | 1u)) return;
  tomp_thread_t *thr = tomp_self;
  int saved = 0;
  uint64_t saved_id = 0;
  if (thr) {
    saved = thr->state;
    saved_id = thr->wait_id;
    tomp_set_state(thr, state, (uint64_t)(uintptr_t)w);
  }
  unsigned long n = spin_budget(h >> TOMP_LOCK_HINT_SHIFT);
  for (unsigned long i = 0; i < n; i++) {
    tomp_wait_pause();
    uint32_t v = tomp_load_rlx(w);
    if ((v & TOMP_LOCK_STATE) == 0) {
      e = h;
      if (tomp_cas(w, &e, h | 1u)) goto done;
    }
  }
  while ((tomp_xchg(w, h | 2u) & TOMP_LOCK_STATE) != 0) tomp_futex_wait(w, h | 2u);
done:
  if (thr) tomp_set_state(thr, saved, saved_id);
}

__attribute__((noinline)) void tomp_lockword_release_slow(uint32_t *w, uint32_t old) {
  tomp_store_rel(w, old & TOMP_LOCK_HINT_MASK);
  tomp_futex_wake(w, 1);
}
