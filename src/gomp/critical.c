/* critical and atomic constructs.
 *
 * Unnamed critical sections share one lock word, core's, which LLVM's ABI's unnamed critical
 * takes too (src/kmp/critname.c); GOMP_atomic_start/end (atomics on types the
 * hardware cannot update in place) share another.  A named critical section passes the
 * address of a pointer-sized, zero-initialised common symbol (.gomp_critical_user_<name>) that
 * the program holds once per name: the 4-byte lock word lives in that storage itself, so a name
 * costs no allocation and no lookup, and zero is already its unlocked state. */
#include "gomp.h"
#include "lock.h"

static uint32_t atomic_word __attribute__((aligned(TOMP_CACHELINE)));

_Static_assert(sizeof(void *) >= sizeof(uint32_t), "a lock word fits in the name's slot");

/* With a tool: the entry point's twin (TOMP_OBSERVED_PATH) with the guard and the events. */
static TOMP_OBSERVED_TWIN void enter_observed(const void *ra, void *fp, uint32_t *w, int kind, int state) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ev_mutex_acquire(thr, kind, 0, w);
  tomp_lockword_acquire(w, state);
  tomp_ev_mutex_acquired(thr, kind, w);
}

static TOMP_OBSERVED_TWIN void leave_observed(const void *ra, void *fp, uint32_t *w, int kind) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_lockword_release(w);
  tomp_ev_mutex_released(thr, kind, w);
}

/* Without one, a critical section is the lock word alone (a waiter's state is set in the
 * lock's slow path). */
#define ENTER(w, kind, state)                                                                      \
  do {                                                                                             \
    TOMP_OBSERVED_PATH(enter_observed, w, kind, state);                                                    \
    tomp_lockword_acquire(w, state);                                                               \
  } while (0)
#define LEAVE(w, kind)                                                                             \
  do {                                                                                             \
    TOMP_OBSERVED_PATH(leave_observed, w, kind);                                                           \
    tomp_lockword_release(w);                                                                      \
  } while (0)

TOMP_EXPORT void GOMP_critical_start(void) {
  ENTER(&tomp_unnamed_critical, TOMP_MUTEX_CRITICAL, ompt_state_wait_critical);
}

TOMP_EXPORT void GOMP_critical_end(void) { LEAVE(&tomp_unnamed_critical, TOMP_MUTEX_CRITICAL); }

TOMP_EXPORT void GOMP_critical_name_start(void **pptr) {
  ENTER((uint32_t *)(void *)pptr, TOMP_MUTEX_CRITICAL, ompt_state_wait_critical);
}

TOMP_EXPORT void GOMP_critical_name_end(void **pptr) {
  LEAVE((uint32_t *)(void *)pptr, TOMP_MUTEX_CRITICAL);
}

TOMP_EXPORT void GOMP_atomic_start(void) {
  ENTER(&atomic_word, TOMP_MUTEX_ATOMIC, ompt_state_wait_atomic);
}

TOMP_EXPORT void GOMP_atomic_end(void) { LEAVE(&atomic_word, TOMP_MUTEX_ATOMIC); }
