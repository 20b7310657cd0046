/* OpenMP locks: omp_lock_t, omp_nest_lock_t, their hinted initialisers, the Fortran entry
 * points, and the pre-3.0 (OMP_1.0) copies GCC's libgomp still exports.
 *
 * Layouts are ABI (GCC's omp.h):
 *   omp_lock_t       4 bytes: a lock word (lock.h).
 *   omp_nest_lock_t 16 bytes: lock word, depth count, owning task.  OpenMP 3.0 made nest locks
 *                    owned by tasks, so the owner is thr->task, not the thread.
 * OMP_1.0 (programs built by GCC < 4.4, OpenMP 2.5) used a 4-byte simple lock with the same
 * meaning as ours, so those symbols alias the current ones; its nest lock was 8 bytes
 * ({int owner; int count;}, 4-aligned), too small for a pointer, and OpenMP 2.5 nest locks
 * belong to threads: the OMP_1.0 nest lock keeps the owning thread's kernel tid in its first
 * word (bit 31 = a waiter may sleep) and the depth in the second.
 *
 * Fortran: omp_lock_kind is 4, so a Fortran lock variable is the lock itself; omp_nest_lock_kind
 * is 8, so for OMP_3.0 the variable holds a pointer to a 16-byte lock tomp allocates at init and
 * frees at destroy, while the 8-byte OMP_1.0 nest lock fits in the variable directly.
 *
 * Misuse the specification leaves undefined (unsetting a lock that is not set or not owned,
 * destroying a held lock, an inconsistent hint) gets one warning per kind and is ignored. */
#include <stdlib.h>

#include "lock.h"
#include "internal.h"
#include "omp.h"

_Static_assert(sizeof(omp_lock_t) == 4, "omp_lock_t is 4 bytes in GCC's ABI");
_Static_assert(sizeof(omp_nest_lock_t) == 8 + sizeof(void *), "omp_nest_lock_t layout");

typedef struct {
  uint32_t word;
  int32_t count;
  void *owner; /* tomp_task_t * */
} nest_lock_t;
_Static_assert(sizeof(nest_lock_t) == sizeof(omp_nest_lock_t), "nest lock fits");
_Static_assert(_Alignof(nest_lock_t) <= _Alignof(omp_nest_lock_t), "nest lock alignment");

typedef struct {
  uint32_t owner; /* kernel tid of the owner, | NEST25_WAITERS; 0 when free */
  int32_t count;
} nest_lock25_t;
#define NEST25_WAITERS 0x80000000u

/* ---- OMPT hooks: one function per event; the tools layer fills them in ------------------ */

#define EV(call)                                                                                   \
  do {                                                                                             \
    if (tomp_unlikely(TOMP_LISTENING())) call;                                                     \
  } while (0)

/* ---- waiting ------------------------------------------------------------------------------ */

/* Spin budget by hint: an uncontended lock is expected to be free, so a waiter sleeps almost at
 * once; otherwise the wait policy decides (tomp_spins()). */
static unsigned long spin_budget(uint32_t hint) {
  unsigned long n = tomp_spins();
  if ((hint & omp_sync_hint_uncontended) && n > 64) n = 64;
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

__attribute__((noinline)) void tomp_lockword_release_slow(uint32_t *w, uint32_t old) {
  tomp_store_rel(w, old & TOMP_LOCK_HINT_MASK);
  tomp_futex_wake(w, 1);
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

/* set, unset and test are split (TOMP_TOOL_PATH): the *_tool twins run when a tool is
 * attached; without one the entry point is the lock word's own fast path. */
static TOMP_TOOL_TWIN void set_lock_tool(const void *ra, void *fp, omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ev_mutex_acquire(thr, TOMP_MUTEX_LOCK, tomp_lockword_hint(lw(lock)), lock);
  tomp_lockword_acquire(lw(lock), ompt_state_wait_lock);
  tomp_ev_mutex_acquired(thr, TOMP_MUTEX_LOCK, lock);
}

TOMP_EXPORT void omp_set_lock(omp_lock_t *lock) {
  TOMP_TOOL_PATH(set_lock_tool, lock);
  tomp_lockword_acquire(lw(lock), ompt_state_wait_lock);
}

static void unset_unheld(void) {
  static int warned;
  warn_once(&warned, "omp_unset_lock: the lock is not set (call ignored)");
}

static TOMP_TOOL_TWIN void unset_lock_tool(const void *ra, void *fp, omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  if (tomp_unlikely(!tomp_lockword_held(lw(lock)))) return unset_unheld();
  tomp_lockword_release(lw(lock));
  tomp_ev_mutex_released(thr, TOMP_MUTEX_LOCK, lock);
}

TOMP_EXPORT void omp_unset_lock(omp_lock_t *lock) {
  TOMP_TOOL_PATH(unset_lock_tool, lock);
  /* the plain release's CAS doubles as the held check: it fails on a free word */
  uint32_t seen;
  if (tomp_likely(tomp_lockword_release_plain(lw(lock), &seen))) return;
  if (tomp_unlikely(!(seen & TOMP_LOCK_STATE))) return unset_unheld();
  tomp_lockword_release_rest(lw(lock));
}

static TOMP_TOOL_TWIN int test_lock_tool(const void *ra, void *fp, omp_lock_t *lock) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ev_mutex_acquire(thr, TOMP_MUTEX_TEST_LOCK, tomp_lockword_hint(lw(lock)), lock);
  if (!tomp_lockword_try(lw(lock))) return 0;
  tomp_ev_mutex_acquired(thr, TOMP_MUTEX_TEST_LOCK, lock);
  return 1;
}

TOMP_EXPORT int omp_test_lock(omp_lock_t *lock) {
  TOMP_TOOL_PATH(test_lock_tool, lock);
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

/* ---- OMP_1.0 nest locks: 8 bytes, owned by threads ---------------------------------------- */

static __thread uint32_t my_tid __attribute__((tls_model("initial-exec")));

static inline uint32_t self_tid(void) {
  uint32_t t = my_tid;
  if (tomp_unlikely(!t)) my_tid = t = (uint32_t)syscall(SYS_gettid) & ~NEST25_WAITERS;
  return t;
}

static void nest25_acquire(nest_lock25_t *l, uint32_t me) {
  uint32_t z = 0;
  if (tomp_likely(tomp_cas(&l->owner, &z, me))) return;
  tomp_thread_t *thr = tomp_self;
  int saved = thr ? thr->state : 0;
  if (thr) tomp_set_state(thr, ompt_state_wait_lock, (uint64_t)(uintptr_t)l);
  unsigned long n = tomp_spins();
  for (unsigned long i = 0; i < n; i++) {
    tomp_wait_pause();
    z = 0;
    if (tomp_load_rlx(&l->owner) == 0 && tomp_cas(&l->owner, &z, me)) goto done;
  }
  for (;;) {
    uint32_t v = tomp_load_rlx(&l->owner);
    if (v == 0) {
      /* we may have consumed someone's wake-up: keep the waiters bit so the next one follows */
      if (tomp_cas(&l->owner, &v, me | NEST25_WAITERS)) break;
      continue;
    }
    if (!(v & NEST25_WAITERS) && !tomp_cas(&l->owner, &v, v | NEST25_WAITERS)) continue;
    tomp_futex_wait(&l->owner, v | NEST25_WAITERS);
  }
done:
  if (thr) tomp_set_state(thr, saved, 0);
}

static void init_nest_lock_25(omp_nest_lock_t *lock) {
  nest_lock25_t *l = (nest_lock25_t *)(void *)lock;
  tomp_store_rel(&l->owner, 0);
  l->count = 0;
}

static void destroy_nest_lock_25(omp_nest_lock_t *lock) {
  static int warned;
  nest_lock25_t *l = (nest_lock25_t *)(void *)lock;
  if (tomp_load_rlx(&l->owner))
    warn_once(&warned, "omp_destroy_nest_lock: the lock is still set (destroyed anyway)");
  init_nest_lock_25(lock);
}

static void set_nest_lock_25(omp_nest_lock_t *lock) {
  nest_lock25_t *l = (nest_lock25_t *)(void *)lock;
  uint32_t me = self_tid();
  if ((tomp_load_rlx(&l->owner) & ~NEST25_WAITERS) == me) {
    l->count++;
    return;
  }
  nest25_acquire(l, me);
  l->count = 1;
}

static void unset_nest_lock_25(omp_nest_lock_t *lock) {
  static int warned;
  nest_lock25_t *l = (nest_lock25_t *)(void *)lock;
  if ((tomp_load_rlx(&l->owner) & ~NEST25_WAITERS) != self_tid() || l->count <= 0) {
    warn_once(&warned, "omp_unset_nest_lock: the lock is not owned by the calling thread (call "
                       "ignored)");
    return;
  }
  if (--l->count > 0) return;
  if (tomp_xchg(&l->owner, 0) & NEST25_WAITERS) tomp_futex_wake(&l->owner, 1);
}

static int test_nest_lock_25(omp_nest_lock_t *lock) {
  nest_lock25_t *l = (nest_lock25_t *)(void *)lock;
  uint32_t me = self_tid();
  if ((tomp_load_rlx(&l->owner) & ~NEST25_WAITERS) == me) return ++l->count;
  uint32_t z = 0;
  if (!tomp_cas(&l->owner, &z, me)) return 0;
  l->count = 1;
  return 1;
}

/* ---- exported symbol sets ------------------------------------------------------------------- */

/* Every lock routine exists twice: name@@OMP_3.0 (default, the functions above) and
 * name@OMP_1.0 (the old ABI).  ld exports a non-default version only if the version script lists
 * the name in that node, so libgomp.map lists these 20 names under OMP_1.0 as well as OMP_3.0;
 * the default versions are therefore bound with .symver too ("remove" drops the unversioned
 * name, which would otherwise be claimed by both nodes; binutils >= 2.35). */
#define TOMP_ALIAS(type, name, target)                                                             \
  TOMP_EXPORT type name __attribute__((alias(#target), nothrow))
#define VER30(name) __asm__(".symver " #name ", " #name "@@OMP_3.0, remove")
#define VER10(impl, name) __asm__(".symver " #impl ", " #name "@OMP_1.0")

VER30(omp_init_lock);
VER30(omp_destroy_lock);
VER30(omp_set_lock);
VER30(omp_unset_lock);
VER30(omp_test_lock);
VER30(omp_init_nest_lock);
VER30(omp_destroy_nest_lock);
VER30(omp_set_nest_lock);
VER30(omp_unset_nest_lock);
VER30(omp_test_nest_lock);

/* Fortran, OMP_3.0: simple locks are the Fortran variable itself */
TOMP_ALIAS(void, omp_init_lock_(omp_lock_t *), omp_init_lock);
TOMP_ALIAS(void, omp_destroy_lock_(omp_lock_t *), omp_destroy_lock);
TOMP_ALIAS(void, omp_set_lock_(omp_lock_t *), omp_set_lock);
TOMP_ALIAS(void, omp_unset_lock_(omp_lock_t *), omp_unset_lock);
TOMP_ALIAS(int, omp_test_lock_(omp_lock_t *), omp_test_lock);
VER30(omp_init_lock_);
VER30(omp_destroy_lock_);
VER30(omp_set_lock_);
VER30(omp_unset_lock_);
VER30(omp_test_lock_);

/* Fortran, OMP_3.0: the integer(8) variable holds a pointer to the 16-byte lock */
void omp_init_nest_lock_(omp_nest_lock_t **);
void omp_destroy_nest_lock_(omp_nest_lock_t **);
void omp_set_nest_lock_(omp_nest_lock_t **);
void omp_unset_nest_lock_(omp_nest_lock_t **);
int omp_test_nest_lock_(omp_nest_lock_t **);

TOMP_EXPORT void omp_init_nest_lock_(omp_nest_lock_t **lock) {
  *lock = tomp_malloc(sizeof(omp_nest_lock_t));
  omp_init_nest_lock(*lock);
}
TOMP_EXPORT void omp_destroy_nest_lock_(omp_nest_lock_t **lock) {
  omp_destroy_nest_lock(*lock);
  free(*lock);
  *lock = NULL;
}
TOMP_EXPORT void omp_set_nest_lock_(omp_nest_lock_t **lock) { omp_set_nest_lock(*lock); }
TOMP_EXPORT void omp_unset_nest_lock_(omp_nest_lock_t **lock) { omp_unset_nest_lock(*lock); }
TOMP_EXPORT int omp_test_nest_lock_(omp_nest_lock_t **lock) { return omp_test_nest_lock(*lock); }
VER30(omp_init_nest_lock_);
VER30(omp_destroy_nest_lock_);
VER30(omp_set_nest_lock_);
VER30(omp_unset_nest_lock_);
VER30(omp_test_nest_lock_);

/* OMP_1.0, C: the simple lock is unchanged since OpenMP 2.5 */
TOMP_ALIAS(void, tomp_init_lock_10(omp_lock_t *), omp_init_lock);
TOMP_ALIAS(void, tomp_destroy_lock_10(omp_lock_t *), omp_destroy_lock);
TOMP_ALIAS(void, tomp_set_lock_10(omp_lock_t *), omp_set_lock);
TOMP_ALIAS(void, tomp_unset_lock_10(omp_lock_t *), omp_unset_lock);
TOMP_ALIAS(int, tomp_test_lock_10(omp_lock_t *), omp_test_lock);
VER10(tomp_init_lock_10, omp_init_lock);
VER10(tomp_destroy_lock_10, omp_destroy_lock);
VER10(tomp_set_lock_10, omp_set_lock);
VER10(tomp_unset_lock_10, omp_unset_lock);
VER10(tomp_test_lock_10, omp_test_lock);

/* OMP_1.0, C: the 8-byte thread-owned nest lock */
void tomp_init_nest_lock_10(omp_nest_lock_t *);
void tomp_destroy_nest_lock_10(omp_nest_lock_t *);
void tomp_set_nest_lock_10(omp_nest_lock_t *);
void tomp_unset_nest_lock_10(omp_nest_lock_t *);
int tomp_test_nest_lock_10(omp_nest_lock_t *);
TOMP_EXPORT void tomp_init_nest_lock_10(omp_nest_lock_t *l) { init_nest_lock_25(l); }
TOMP_EXPORT void tomp_destroy_nest_lock_10(omp_nest_lock_t *l) { destroy_nest_lock_25(l); }
TOMP_EXPORT void tomp_set_nest_lock_10(omp_nest_lock_t *l) { set_nest_lock_25(l); }
TOMP_EXPORT void tomp_unset_nest_lock_10(omp_nest_lock_t *l) { unset_nest_lock_25(l); }
TOMP_EXPORT int tomp_test_nest_lock_10(omp_nest_lock_t *l) { return test_nest_lock_25(l); }
VER10(tomp_init_nest_lock_10, omp_init_nest_lock);
VER10(tomp_destroy_nest_lock_10, omp_destroy_nest_lock);
VER10(tomp_set_nest_lock_10, omp_set_nest_lock);
VER10(tomp_unset_nest_lock_10, omp_unset_nest_lock);
VER10(tomp_test_nest_lock_10, omp_test_nest_lock);

/* OMP_1.0, Fortran: both old locks fit in their Fortran variables */
TOMP_ALIAS(void, tomp_init_lock_10_(omp_lock_t *), omp_init_lock);
TOMP_ALIAS(void, tomp_destroy_lock_10_(omp_lock_t *), omp_destroy_lock);
TOMP_ALIAS(void, tomp_set_lock_10_(omp_lock_t *), omp_set_lock);
TOMP_ALIAS(void, tomp_unset_lock_10_(omp_lock_t *), omp_unset_lock);
TOMP_ALIAS(int, tomp_test_lock_10_(omp_lock_t *), omp_test_lock);
TOMP_ALIAS(void, tomp_init_nest_lock_10_(omp_nest_lock_t *), tomp_init_nest_lock_10);
TOMP_ALIAS(void, tomp_destroy_nest_lock_10_(omp_nest_lock_t *), tomp_destroy_nest_lock_10);
TOMP_ALIAS(void, tomp_set_nest_lock_10_(omp_nest_lock_t *), tomp_set_nest_lock_10);
TOMP_ALIAS(void, tomp_unset_nest_lock_10_(omp_nest_lock_t *), tomp_unset_nest_lock_10);
TOMP_ALIAS(int, tomp_test_nest_lock_10_(omp_nest_lock_t *), tomp_test_nest_lock_10);
VER10(tomp_init_lock_10_, omp_init_lock_);
VER10(tomp_destroy_lock_10_, omp_destroy_lock_);
VER10(tomp_set_lock_10_, omp_set_lock_);
VER10(tomp_unset_lock_10_, omp_unset_lock_);
VER10(tomp_test_lock_10_, omp_test_lock_);
VER10(tomp_init_nest_lock_10_, omp_init_nest_lock_);
VER10(tomp_destroy_nest_lock_10_, omp_destroy_nest_lock_);
VER10(tomp_set_nest_lock_10_, omp_set_nest_lock_);
VER10(tomp_unset_nest_lock_10_, omp_unset_nest_lock_);
VER10(tomp_test_nest_lock_10_, omp_test_nest_lock_);
