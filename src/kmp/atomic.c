/* The few __kmpc_atomic_* routines LLVM's runtime tests call directly.  clang emits atomics
 * inline (or as libatomic calls), so a clang program never needs the family's ~540 routines;
 * Intel's compilers call them, and these are the ones provided so far (docs/kmp-abi.md):
 * compare-and-swap for 1, 2, 4 and 8 bytes (OpenMP 5.1 `atomic compare`, with and without
 * capture), the integer add, and max/min on the x87 80-bit long double, which has no lock-free
 * form: a lock word of its own serialises those (every update of such a variable must use
 * them, as with libomp). */
#include "kmp.h"
#include "lock.h"

/* bool_N_cas: swap in d if *x is e; true if it did.  val_N_cas: the same, answering the old
 * value.  _cpt: also capture into *pv: bool, the old value when the swap fails; val, the new
 * value of *x (d, or the old value when the swap fails). */
#define KMP_CAS(N, T)                                                                              \
  TOMP_EXPORT bool __kmpc_atomic_bool_##N##_cas(ident_t *loc, int gtid, T *x, T e, T d) {          \
    (void)loc, (void)gtid;                                                                         \
    return __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
  }                                                                                                \
  TOMP_EXPORT T __kmpc_atomic_val_##N##_cas(ident_t *loc, int gtid, T *x, T e, T d) {              \
    (void)loc, (void)gtid;                                                                         \
    __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    return e; /* the old value either way */                                                       \
  }                                                                                                \
  TOMP_EXPORT bool __kmpc_atomic_bool_##N##_cas_cpt(ident_t *loc, int gtid, T *x, T e, T d,        \
                                                    T *pv) {                                       \
    (void)loc, (void)gtid;                                                                         \
    if (__atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))          \
      return true;                                                                                 \
    *pv = e;                                                                                       \
    return false;                                                                                  \
  }                                                                                                \
  TOMP_EXPORT T __kmpc_atomic_val_##N##_cas_cpt(ident_t *loc, int gtid, T *x, T e, T d, T *pv) {   \
    (void)loc, (void)gtid;                                                                         \
    bool swapped =                                                                                 \
        __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    *pv = swapped ? d : e;                                                                         \
    return e;                                                                                      \
  }                                                                                                \
  TOMP_EXPORT void __kmpc_atomic_fixed##N##_add(ident_t *loc, int gtid, T *x, T v) {               \
    (void)loc, (void)gtid;                                                                         \
    __atomic_fetch_add(x, v, __ATOMIC_SEQ_CST);                                                    \
  }
KMP_CAS(1, int8_t)
KMP_CAS(2, int16_t)
KMP_CAS(4, int32_t)
KMP_CAS(8, int64_t)

/* ---- long double (float10) max and min ------------------------------------------------ */

static uint32_t float10_word __attribute__((aligned(TOMP_CACHELINE)));

/* *x becomes v if more(v, *x); answers the new value (cpt_new) or the old one. */
static long double float10_update(long double *x, long double v, bool max, bool cpt_new) {
  tomp_lockword_acquire(&float10_word, ompt_state_wait_atomic);
  long double old = *x;
  if (max ? v > old : v < old) *x = v;
  long double now = *x;
  tomp_lockword_release(&float10_word);
  return cpt_new ? now : old;
}

TOMP_EXPORT void __kmpc_atomic_float10_max(ident_t *loc, int gtid, long double *x, long double v) {
  (void)loc, (void)gtid;
  float10_update(x, v, true, false);
}
TOMP_EXPORT void __kmpc_atomic_float10_min(ident_t *loc, int gtid, long double *x, long double v) {
  (void)loc, (void)gtid;
  float10_update(x, v, false, false);
}
TOMP_EXPORT long double __kmpc_atomic_float10_max_cpt(ident_t *loc, int gtid, long double *x,
                                                      long double v, int flag) {
  (void)loc, (void)gtid;
  return float10_update(x, v, true, flag != 0);
}
TOMP_EXPORT long double __kmpc_atomic_float10_min_cpt(ident_t *loc, int gtid, long double *x,
                                                      long double v, int flag) {
  (void)loc, (void)gtid;
  return float10_update(x, v, false, flag != 0);
}
