/* Which lock word a critical construct of LLVM's ABI takes (critname.c).
 *
 * The compiler passes a kmp_critical_name, 32 zeroed bytes it holds once per name in the
 * module (clang: `.gomp_critical_user_NAME.var`, NAME empty for the unnamed critical).  Its
 * first 4 bytes are tomp's lock word in place; the next 4 say, once the runtime has looked at
 * the name, whether that word is the lock or the name stands for a lock shared with gcc's code
 * (the unnamed critical; a named one whose gcc-built counterpart is visible), whose address
 * follows. */
#ifndef TOMP_KMP_CRITNAME_H
#define TOMP_KMP_CRITNAME_H

#include "kmp.h"

typedef struct kmp_crit_slot {
  uint32_t word;   /* the lock word when the name is its own lock */
  uint32_t kind;   /* TOMP_CRIT_*: 0 until the first critical with this name */
  uint32_t *other; /* TOMP_CRIT_SHARED: the lock word gcc's code takes for it */
} kmp_crit_slot_t;
_Static_assert(sizeof(kmp_crit_slot_t) <= sizeof(kmp_critical_name), "the slot fits in a name");

enum { TOMP_CRIT_OWN = 1, TOMP_CRIT_SHARED = 2 };

/* The first critical with this name: find out which lock it is, remember it in the name. */
uint32_t *tomp_kmp_crit_classify(kmp_critical_name *crit) TOMP_HIDDEN;

/* The lock word of a critical construct's name: after the first use one load and a branch. */
static inline uint32_t *tomp_kmp_crit_word(kmp_critical_name *crit) {
  kmp_crit_slot_t *s = (kmp_crit_slot_t *)(void *)crit;
  uint32_t kind = __atomic_load_n(&s->kind, __ATOMIC_ACQUIRE);
  if (tomp_likely(kind == TOMP_CRIT_OWN)) return &s->word;
  if (kind == TOMP_CRIT_SHARED) return __atomic_load_n(&s->other, __ATOMIC_RELAXED);
  return tomp_kmp_crit_classify(crit);
}

#endif
