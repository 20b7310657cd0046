/* GCC's spellings of the lock routines that are not the API's own (src/api/lock.c): the
 * pre-3.0 (OMP_1.0) copies libgomp still exports, and the Fortran nest locks.
 *
 * OMP_1.0 (programs built by GCC < 4.4, OpenMP 2.5) used a 4-byte simple lock with the same
 * meaning as ours, so those symbols are other names of the API routines; its nest lock was 8
 * bytes ({int owner; int count;}, 4-aligned), too small for a pointer, and OpenMP 2.5 nest locks
 * belong to threads: the OMP_1.0 nest lock keeps the owning thread's kernel tid in its first
 * word (bit 31 = a waiter may sleep) and the depth in the second.
 *
 * Fortran: omp_lock_kind is 4, so a Fortran lock variable is the lock itself (the Fortran
 * names are other names of the C routines); omp_nest_lock_kind is 8, so for OMP_3.0 the
 * variable holds a pointer to a 16-byte lock tomp allocates at init and frees at destroy,
 * while the 8-byte OMP_1.0 nest lock fits in the variable directly.
 *
 * Symbol versions.  Every lock routine exists twice: name@@OMP_3.0 (the default) and
 * name@OMP_1.0 (the old ABI).  libgomp.map gives the OMP_3.0 names their version; the OMP_1.0
 * copies defined here are bound with .symver, and the other names of the API routines (their
 * Fortran names, their OMP_1.0 copies) are made by aliases.ld: an alias must be made where its
 * target is defined, and a linker-script symbol costs no call. */
#include <stdlib.h>

#include "lock.h"
#include "gomp.h"
#include "omp.h"

typedef struct {
  uint32_t owner; /* kernel tid of the owner, | NEST25_WAITERS; 0 when free */
  int32_t count;
} nest_lock25_t;
#define NEST25_WAITERS 0x80000000u

static void warn_once(int *flag, const char *msg) {
  if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED)) tomp_warn("%s", msg);
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

#define TOMP_ALIAS(type, name, target)                                                             \
  TOMP_EXPORT type name __attribute__((alias(#target), nothrow))
#define VER10(impl, name) __asm__(".symver " #impl ", " #name "@OMP_1.0")

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

/* OMP_1.0, C: the 8-byte thread-owned nest lock */
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

/* OMP_1.0, Fortran: the old nest lock fits in its Fortran variable */
TOMP_ALIAS(void, tomp_init_nest_lock_10_(omp_nest_lock_t *), tomp_init_nest_lock_10);
TOMP_ALIAS(void, tomp_destroy_nest_lock_10_(omp_nest_lock_t *), tomp_destroy_nest_lock_10);
TOMP_ALIAS(void, tomp_set_nest_lock_10_(omp_nest_lock_t *), tomp_set_nest_lock_10);
TOMP_ALIAS(void, tomp_unset_nest_lock_10_(omp_nest_lock_t *), tomp_unset_nest_lock_10);
TOMP_ALIAS(int, tomp_test_nest_lock_10_(omp_nest_lock_t *), tomp_test_nest_lock_10);
VER10(tomp_init_nest_lock_10_, omp_init_nest_lock_);
VER10(tomp_destroy_nest_lock_10_, omp_destroy_nest_lock_);
VER10(tomp_set_nest_lock_10_, omp_set_nest_lock_);
VER10(tomp_unset_nest_lock_10_, omp_unset_nest_lock_);
VER10(tomp_test_nest_lock_10_, omp_test_nest_lock_);
