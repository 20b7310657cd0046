/* The nest-lock routines of clang's ABI.  clang's omp.h makes omp_nest_lock_t 8 bytes (gcc's
 * 16, the layout src/api/lock.c implements), so under the VERSION node the routines of the
 * same names take a variable that holds a pointer to an API nest lock, made by init and freed
 * by destroy.  Simple locks need no second version: clang's 8-byte omp_lock_t holds the 4-byte
 * lock word (src/kmp/aliases.ld).
 *
 * The API version stays the default for these names (gcc programs linked against tomp bind
 * it); a clang program binds the VERSION ones when it is linked against LLVM's libomp, as
 * clang does by default (README: how to run clang programs on tomp). */
#include <stdlib.h>

#include "kmp.h"
#include "omp.h"

/* the API's nest lock (tomp's omp.h, gcc's layout) */
typedef omp_nest_lock_t api_nest_lock_t;

#define VER(impl, name) __asm__(".symver " #impl ", " #name "@VERSION")

/* A variable that was never initialised (or was destroyed) gets one message; the call is
 * ignored rather than followed into a wild pointer. */
static api_nest_lock_t *inner(kmp_nest_lock_t *l, const char *who) {
  api_nest_lock_t *p = l ? l->lk : NULL;
  if (tomp_unlikely(!p)) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      tomp_warn("%s: the nest lock is not initialised (call ignored)", who);
  }
  return p;
}

TOMP_EXPORT void tomp_kmp_init_nest_lock(kmp_nest_lock_t *l) {
  TOMP_ENTRY(tomp_thread());
  l->lk = tomp_malloc(sizeof(api_nest_lock_t));
  omp_init_nest_lock(l->lk);
}
TOMP_EXPORT void tomp_kmp_init_nest_lock_with_hint(kmp_nest_lock_t *l, int hint) {
  TOMP_ENTRY(tomp_thread());
  l->lk = tomp_malloc(sizeof(api_nest_lock_t));
  omp_init_nest_lock_with_hint(l->lk, (omp_sync_hint_t)hint);
}
TOMP_EXPORT void tomp_kmp_destroy_nest_lock(kmp_nest_lock_t *l) {
  TOMP_ENTRY(tomp_thread());
  api_nest_lock_t *p = inner(l, "omp_destroy_nest_lock");
  if (!p) return;
  omp_destroy_nest_lock(p);
  free(p);
  l->lk = NULL;
}
TOMP_EXPORT void tomp_kmp_set_nest_lock(kmp_nest_lock_t *l) {
  TOMP_ENTRY(tomp_thread());
  api_nest_lock_t *p = inner(l, "omp_set_nest_lock");
  if (p) omp_set_nest_lock(p);
}
TOMP_EXPORT void tomp_kmp_unset_nest_lock(kmp_nest_lock_t *l) {
  TOMP_ENTRY(tomp_thread());
  api_nest_lock_t *p = inner(l, "omp_unset_nest_lock");
  if (p) omp_unset_nest_lock(p);
}
TOMP_EXPORT int tomp_kmp_test_nest_lock(kmp_nest_lock_t *l) {
  TOMP_ENTRY(tomp_thread());
  api_nest_lock_t *p = inner(l, "omp_test_nest_lock");
  return p ? omp_test_nest_lock(p) : 0;
}
VER(tomp_kmp_init_nest_lock, omp_init_nest_lock);
VER(tomp_kmp_init_nest_lock_with_hint, omp_init_nest_lock_with_hint);
VER(tomp_kmp_destroy_nest_lock, omp_destroy_nest_lock);
VER(tomp_kmp_set_nest_lock, omp_set_nest_lock);
VER(tomp_kmp_unset_nest_lock, omp_unset_nest_lock);
VER(tomp_kmp_test_nest_lock, omp_test_nest_lock);

/* ---- the __kmpc_*_lock interface (compilers that call the runtime for omp_* locks): a user
 * lock is the program's omp_lock_t / omp_nest_lock_t (clang's layout: 8 bytes) ---------- */

TOMP_EXPORT void __kmpc_init_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  omp_init_lock((omp_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_init_lock_with_hint(ident_t *loc, kmp_int32 gtid, void **user_lock,
                                            uintptr_t hint) {
  (void)loc, (void)gtid;
  omp_init_lock_with_hint((omp_lock_t *)user_lock, (omp_sync_hint_t)hint);
}
TOMP_EXPORT void __kmpc_destroy_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  omp_destroy_lock((omp_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_set_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  omp_set_lock((omp_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_unset_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  omp_unset_lock((omp_lock_t *)user_lock);
}
TOMP_EXPORT int __kmpc_test_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  return omp_test_lock((omp_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_init_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  tomp_kmp_init_nest_lock((kmp_nest_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_init_nest_lock_with_hint(ident_t *loc, kmp_int32 gtid, void **user_lock,
                                                 uintptr_t hint) {
  (void)loc, (void)gtid;
  tomp_kmp_init_nest_lock_with_hint((kmp_nest_lock_t *)user_lock, (int)hint);
}
TOMP_EXPORT void __kmpc_destroy_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  tomp_kmp_destroy_nest_lock((kmp_nest_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_set_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  tomp_kmp_set_nest_lock((kmp_nest_lock_t *)user_lock);
}
TOMP_EXPORT void __kmpc_unset_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  tomp_kmp_unset_nest_lock((kmp_nest_lock_t *)user_lock);
}
TOMP_EXPORT int __kmpc_test_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) {
  (void)loc, (void)gtid;
  return tomp_kmp_test_nest_lock((kmp_nest_lock_t *)user_lock);
}
