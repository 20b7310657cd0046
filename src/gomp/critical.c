/* critical and atomic constructs.
 *
 * Unnamed critical sections share one lock word; GOMP_atomic_start/end (atomics on types the
 * hardware cannot update in place) share another.  A named critical section passes the
 * address of a pointer-sized, zero-initialised common symbol (.gomp_critical_user_<name>) that
 * the program holds once per name: the 4-byte lock word lives in that storage itself, so a name
 * costs no allocation and no lookup, and zero is already its unlocked state. */
#include "gomp.h"
#include "lock.h"

static uint32_t critical_word __attribute__((aligned(TOMP_CACHELINE)));
static uint32_t atomic_word __attribute__((aligned(TOMP_CACHELINE)));

_Static_assert(sizeof(void *) >= sizeof(uint32_t), "a lock word fits in the name's slot");

static inline void enter(tomp_thread_t *thr, uint32_t *w, int kind, int state) {
  if (tomp_unlikely(TOMP_OMPT_ENABLED())) tomp_ev_mutex_acquire(thr, kind, 0, w);
  tomp_lockword_acquire(w, state);
  if (tomp_unlikely(TOMP_OMPT_ENABLED())) tomp_ev_mutex_acquired(thr, kind, w);
}

static inline void leave(tomp_thread_t *thr, uint32_t *w, int kind) {
  tomp_lockword_release(w);
  if (tomp_unlikely(TOMP_OMPT_ENABLED())) tomp_ev_mutex_released(thr, kind, w);
}

/* Entry points record the user's return address first (TOMP_ENTRY). */
#define ENTER(w, kind, state)                                                                      \
  do {                                                                                             \
    tomp_thread_t *thr = tomp_thread();                                                            \
    TOMP_ENTRY(thr);                                                                               \
    enter(thr, w, kind, state);                                                                    \
  } while (0)
#define LEAVE(w, kind)                                                                             \
  do {                                                                                             \
    tomp_thread_t *thr = tomp_thread();                                                            \
    TOMP_ENTRY(thr);                                                                               \
    leave(thr, w, kind);                                                                           \
  } while (0)

TOMP_EXPORT void GOMP_critical_start(void) {
  ENTER(&critical_word, TOMP_MUTEX_CRITICAL, ompt_state_wait_critical);
}

TOMP_EXPORT void GOMP_critical_end(void) { LEAVE(&critical_word, TOMP_MUTEX_CRITICAL); }

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
