/* OpenMP locks: omp_lock_t, omp_nest_lock_t and their hinted initialisers.
 *
 * Layouts (omp.h):
 *   omp_lock_t       4 bytes: a lock word (src/core/lock.h).
 *   omp_nest_lock_t 16 bytes: lock word, depth count, owning task.  OpenMP 3.0 made nest locks
 *                    owned by tasks, so the owner is thr->task, not the thread.
 * A front-end's other spellings of these routines (Fortran, older symbol versions, other lock
 * layouts) are its own: src/gomp/lock.c for GCC's.
 *
 * Misuse the specification leaves undefined (unsetting a lock that is not set or not owned,
 * destroying a held lock, an inconsistent hint) gets one warning per kind and is ignored. */
#include "lock.h"
#include "internal.h"
#include "omp.h"

_Static_assert(sizeof(omp_lock_t) == 4, "omp_lock_t is one lock word");
_Static_assert(sizeof(omp_nest_lock_t) == 8 + sizeof(void *), "omp_nest_lock_t layout");

typedef struct {
  uint32_t word;
  int32_t count;
  void *owner; /* tomp_task_t * */
} nest_lock_t;
_Static_assert(sizeof(nest_lock_t) == sizeof(omp_nest_lock_t), "nest lock fits");
_Static_assert(_Alignof(nest_lock_t) <= _Alignof(omp_nest_lock_t), "nest lock alignment");

/* ---- OMPT hooks: one function per event; the tools layer fills them in ------------------ */

#define EV(call)                                                                                   \
  do {                                                                                             \
    if (tomp_unlikely(TOMP_LISTENING())) call;                                                  \
  } while (0)

static void warn_once(int *flag, const char *msg) {
  if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED)) tomp_warn("%s", msg);
}

/* Hints that contradict each other or are not hints at all are ignored (with a warning). */
static unsigned check_hint(const char *who, omp_sync_hint_t hint) {
  static int warned;
  unsigned h = (unsigned)hint;
  bool bad = (h & ~0xfu) != 0 ||
             ((h & omp_sync_hint_uncontended) && (h & omp_sync_hint_contended)) ||
             ((h & omp_sync_hint_speculative) && (h & omp_sync_hint_nonspeculative));
  if (bad) {
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      tomp_warn("%s: invalid hint %#x; using omp_sync_hint_none", who, h);
    return 0;
  }
  /* speculation is not implemented: a speculative lock is an ordinary one */
  return h;
}

/* ---- simple locks -------------------------------------------------------------------------- */

static inline uint32_t *lw(omp_lock_t *l) { return (uint32_t *)(void *)l; }

TOMP_EXPORT void omp_init_lock(omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_lockword_init(lw(lock), 0);
  EV(tomp_ev_lock_init(thr, TOMP_MUTEX_LOCK, 0, lock));
}

TOMP_EXPORT void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  unsigned h = check_hint("omp_init_lock_with_hint", hint);
  tomp_lockword_init(lw(lock), h);
  EV(tomp_ev_lock_init(thr, TOMP_MUTEX_LOCK, h, lock));
}

TOMP_EXPORT void omp_destroy_lock(omp_lock_t *lock) {
  static int warned;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_lockword_held(lw(lock)))
    warn_once(&warned, "omp_destroy_lock: the lock is still set (destroyed anyway)");
  EV(tomp_ev_lock_destroy(thr, TOMP_MUTEX_LOCK, lock));
  tomp_store_rel(lw(lock), 0);
}

/* set, unset and test are split (TOMP_OBSERVED_PATH): the *_tool twins run when a tool is
 * attached; without one the entry point is the lock word's own fast path. */
static TOMP_OBSERVED_TWIN void set_lock_observed(const void *ra, void *fp, omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ev_mutex_acquire(thr, TOMP_MUTEX_LOCK, tomp_lockword_hint(lw(lock)), lock);
  tomp_lockword_acquire(lw(lock), ompt_state_wait_lock);
  tomp_ev_mutex_acquired(thr, TOMP_MUTEX_LOCK, lock);
}

TOMP_EXPORT void omp_set_lock(omp_lock_t *lock) {
  TOMP_OBSERVED_PATH(set_lock_observed, lock);
  tomp_lockword_acquire(lw(lock), ompt_state_wait_lock);
}

static void unset_unheld(void) {
  static int warned;
  warn_once(&warned, "omp_unset_lock: the lock is not set (call ignored)");
}

static TOMP_OBSERVED_TWIN void unset_lock_observed(const void *ra, void *fp, omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  if (tomp_unlikely(!tomp_lockword_held(lw(lock)))) return unset_unheld();
  tomp_lockword_release(lw(lock));
  tomp_ev_mutex_released(thr, TOMP_MUTEX_LOCK, lock);
}

TOMP_EXPORT void omp_unset_lock(omp_lock_t *lock) {
  TOMP_OBSERVED_PATH(unset_lock_observed, lock);
  /* the plain release's CAS doubles as the held check: it fails on a free word */
  uint32_t seen;
  if (tomp_likely(tomp_lockword_release_plain(lw(lock), &seen))) return;
  if (tomp_unlikely(!(seen & TOMP_LOCK_STATE))) return unset_unheld();
  tomp_lockword_release_rest(lw(lock));
}

static TOMP_OBSERVED_TWIN int test_lock_observed(const void *ra, void *fp, omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ev_mutex_acquire(thr, TOMP_MUTEX_TEST_LOCK, tomp_lockword_hint(lw(lock)), lock);
  if (!tomp_lockword_try(lw(lock))) return 0;
  tomp_ev_mutex_acquired(thr, TOMP_MUTEX_TEST_LOCK, lock);
  return 1;
}

TOMP_EXPORT int omp_test_lock(omp_lock_t *lock) {
  TOMP_OBSERVED_PATH(test_lock_observed, lock);
  return tomp_lockword_try(lw(lock));
}

/* ---- nestable locks (OpenMP 3.0: owned by tasks) ------------------------------------------- */

static void nest_init(nest_lock_t *l, unsigned hint) {
  l->count = 0;
  __atomic_store_n(&l->owner, NULL, __ATOMIC_RELAXED);
  tomp_lockword_init(&l->word, hint);
}

TOMP_EXPORT void omp_init_nest_lock(omp_nest_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  nest_init((nest_lock_t *)(void *)lock, 0);
  EV(tomp_ev_lock_init(thr, TOMP_MUTEX_NEST_LOCK, 0, lock));
}

TOMP_EXPORT void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  unsigned h = check_hint("omp_init_nest_lock_with_hint", hint);
  nest_init((nest_lock_t *)(void *)lock, h);
  EV(tomp_ev_lock_init(thr, TOMP_MUTEX_NEST_LOCK, h, lock));
}

TOMP_EXPORT void omp_destroy_nest_lock(omp_nest_lock_t *lock) {
  static int warned;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  nest_lock_t *l = (nest_lock_t *)(void *)lock;
  if (tomp_lockword_held(&l->word))
    warn_once(&warned, "omp_destroy_nest_lock: the lock is still set (destroyed anyway)");
  EV(tomp_ev_lock_destroy(thr, TOMP_MUTEX_NEST_LOCK, lock));
  nest_init(l, 0);
}

TOMP_EXPORT void omp_set_nest_lock(omp_nest_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  nest_lock_t *l = (nest_lock_t *)(void *)lock;
  /* OMPT: the lock-acquire event comes before the lock is requested, also when the task owns
   * it already (OpenMP 5.2 omp_set_nest_lock: then nest-lock-owned follows, not acquired) */
  EV(tomp_ev_mutex_acquire(thr, TOMP_MUTEX_NEST_LOCK, tomp_lockword_hint(&l->word), lock));
  /* Only the owner can have stored itself in owner, so a relaxed read suffices. */
  if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == thr->task) {
    l->count++;
    EV(tomp_ev_nest_lock(thr, true, lock));
    return;
  }
  tomp_lockword_acquire(&l->word, ompt_state_wait_lock);
  __atomic_store_n(&l->owner, thr->task, __ATOMIC_RELAXED);
  l->count = 1;
  EV(tomp_ev_mutex_acquired(thr, TOMP_MUTEX_NEST_LOCK, lock));
}

TOMP_EXPORT void omp_unset_nest_lock(omp_nest_lock_t *lock) {
  static int warned;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  nest_lock_t *l = (nest_lock_t *)(void *)lock;
  if (tomp_unlikely(__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != thr->task ||
                    l->count <= 0)) {
    warn_once(&warned, "omp_unset_nest_lock: the lock is not owned by the calling task (call "
                       "ignored)");
    return;
  }
  if (--l->count > 0) {
    EV(tomp_ev_nest_lock(thr, false, lock));
    return;
  }
  __atomic_store_n(&l->owner, NULL, __ATOMIC_RELAXED);
  tomp_lockword_release(&l->word);
  EV(tomp_ev_mutex_released(thr, TOMP_MUTEX_NEST_LOCK, lock));
}

TOMP_EXPORT int omp_test_nest_lock(omp_nest_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  nest_lock_t *l = (nest_lock_t *)(void *)lock;
  /* OMPT: the lock-test-acquire event comes before the lock is tested, owned or not */
  EV(tomp_ev_mutex_acquire(thr, TOMP_MUTEX_TEST_NEST_LOCK, tomp_lockword_hint(&l->word), lock));
  if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == thr->task) {
    int c = ++l->count;
    EV(tomp_ev_nest_lock(thr, true, lock));
    return c;
  }
  if (!tomp_lockword_try(&l->word)) return 0;
  __atomic_store_n(&l->owner, thr->task, __ATOMIC_RELAXED);
  l->count = 1;
  EV(tomp_ev_mutex_acquired(thr, TOMP_MUTEX_TEST_NEST_LOCK, lock));
  return 1;
}
