/* Collapsed loop nests of LLVM's ABI (libomp 17 on; for compilers that lower collapse(n)
 * through the runtime, rectangular or not):
 *
 *   __kmpc_process_loop_nest_rectang   canonicalise a rectangular nest, its trip counts and
 *                                      their product
 *   __kmpc_calc_original_ivs_rectang   the induction variables of a collapsed iteration
 *   __kmpc_for_collapsed_init          the calling thread's static share of a nest whose
 *                                      bounds may depend linearly on an outer variable
 *
 * Each level is a bounds_info_t (kmp.h: kmp_loop_bounds_t): bounds lb0 + lb1 * outer,
 * ub0 + ub1 * outer and step in the level's type (32- or 64-bit, signed or not; a 32-bit
 * value in the low half of its 64-bit field), the induction variable's own type, and the
 * comparison.  Canonical form, written back: <= or >= (`<` becomes `<=` on ub0 - 1, `!=`
 * follows the step's sign).
 *
 * tomp's share of a non-rectangular nest: the nest's iterations in lexicographic order,
 * split as a static schedule without chunk splits a loop (the first N % p threads one
 * iteration more), each thread's share given as its first and last points (libomp's
 * contract: only lb0 and ub0 of the chunk's levels are set).  Counting walks the values of
 * the outer n - 1 levels (the innermost is counted at once), so its cost grows with them;
 * libomp instead bounds the nest by a parallelepiped, whose shares are less even. */
#include <string.h>

#include "kmp.h"

enum { COMP_LE = 0, COMP_GE = 1, COMP_NE = 2, COMP_LT = 3, COMP_GT = 4 };
/* loop_type / loop_iv_type: u8 i8 u16 i16 u32 i32 u64 i64 */
enum { TYPE_INT32 = 5, TYPE_UINT64 = 6, TYPE_INT64 = 7 };

/* A level, its values widened to 64 bits (sign- or zero-extended from the level's type). */
typedef struct level {
  bool sgn;      /* the level's type is signed */
  unsigned bits; /* 32 or 64 */
  unsigned ivbits;
  bool ivsgn;
  bool up; /* <= (else >=) */
  unsigned outer;
  uint64_t lb0, lb1, ub0, ub1;
  int64_t step;
} level_t;

/* v truncated to bits and widened back as signed or unsigned */
static uint64_t fix(uint64_t v, unsigned bits, bool sgn) {
  if (bits >= 64) return v;
  uint64_t m = (1ull << bits) - 1;
  v &= m;
  if (sgn && (v >> (bits - 1))) v |= ~m;
  return v;
}

static bool type_ok(kmp_int32 t) {
  return t >= 4 && t <= 7; /* bounds are 32- or 64-bit after the usual promotions */
}

/* deeper nests are refused (the work arrays live on the stack) */
#define NEST_MAX 64

/* Canonical form, in place; false (with one message) for a level tomp cannot read. */
static bool canonicalize(kmp_loop_bounds_t *b, kmp_int32 n) {
  if (n > NEST_MAX) {
    tomp_warn("collapsed loop nest of %d levels: tomp takes at most %d; not run", (int)n, NEST_MAX);
    return false;
  }
  for (kmp_int32 k = 0; k < n; k++) {
    kmp_loop_bounds_t *l = &b[k];
    if (!type_ok(l->loop_type) || l->loop_iv_type < 0 || l->loop_iv_type > 7 ||
        l->comparison < COMP_LE || l->comparison > COMP_GT || l->outer_iv < 0 || l->outer_iv >= n) {
      tomp_warn("collapsed loop nest: level %d has an unknown type or comparison; not run", (int)k);
      return false;
    }
    bool is64 = l->loop_type >= TYPE_UINT64;
    int64_t step = is64 ? l->step_64 : (int64_t)(int32_t)(uint32_t)l->step_64;
    if (l->comparison == COMP_NE) l->comparison = step > 0 ? COMP_LT : COMP_GT;
    if (l->comparison == COMP_LT || l->comparison == COMP_GT) {
      uint64_t ub = l->ub0_u64 + (l->comparison == COMP_LT ? (uint64_t)-1 : 1);
      /* a 32-bit value lives in the low half: the high half stays as the compiler left it */
      l->ub0_u64 = is64 ? ub : (l->ub0_u64 & ~0xffffffffull) | (uint32_t)ub;
      l->comparison = l->comparison == COMP_LT ? COMP_LE : COMP_GE;
    }
  }
  return true;
}

static void read_level(const kmp_loop_bounds_t *b, level_t *l) {
  l->bits = b->loop_type >= TYPE_UINT64 ? 64 : 32;
  l->sgn = b->loop_type == TYPE_INT32 || b->loop_type == TYPE_INT64;
  l->ivbits = 8u << (b->loop_iv_type / 2);
  l->ivsgn = b->loop_iv_type & 1;
  l->up = b->comparison == COMP_LE;
  l->outer = (unsigned)b->outer_iv;
  l->lb0 = fix(b->lb0_u64, l->bits, l->sgn);
  l->lb1 = fix(b->lb1_u64, l->bits, l->sgn);
  l->ub0 = fix(b->ub0_u64, l->bits, l->sgn);
  l->ub1 = fix(b->ub1_u64, l->bits, l->sgn);
  l->step = l->bits == 64 ? b->step_64 : (int64_t)(int32_t)(uint32_t)b->step_64;
}

/* Iterations of level l from lb to ub (widened values of its type). */
static uint64_t trip(const level_t *l, uint64_t lb, uint64_t ub) {
  uint64_t mag = l->step < 0 ? -(uint64_t)l->step : (uint64_t)l->step;
  if (mag == 0) return 0;
  bool empty = l->up ? (l->sgn ? (int64_t)ub < (int64_t)lb : ub < lb)
                     : (l->sgn ? (int64_t)lb < (int64_t)ub : lb < ub);
  if (empty) return 0;
  return (l->up ? ub - lb : lb - ub) / mag + 1;
}

/* The bounds of level l when the outer variables have the values in iv (as the program's
 * code computes them: in the level's type). */
static void bounds_at(const level_t *l, const uint64_t *iv, uint64_t *lb, uint64_t *ub) {
  uint64_t o = iv[l->outer];
  *lb = fix(l->lb0 + l->lb1 * o, l->bits, l->sgn);
  *ub = fix(l->ub0 + l->ub1 * o, l->bits, l->sgn);
}

/* The induction variable's value at iteration i of level l from lb, in its own type. */
static uint64_t iv_at(const level_t *l, uint64_t lb, uint64_t i) {
  uint64_t v = fix(lb + i * (uint64_t)l->step, l->bits, l->sgn);
  return fix(v, l->ivbits, l->ivsgn);
}

/* Iterations of levels k.. with the outer variables in iv (iv[k..] is scratch). */
static uint64_t count_from(const level_t *lv, unsigned n, unsigned k, uint64_t *iv) {
  uint64_t lb, ub;
  bounds_at(&lv[k], iv, &lb, &ub);
  uint64_t t = trip(&lv[k], lb, ub);
  if (k + 1 == n) return t;
  uint64_t sum = 0;
  for (uint64_t i = 0; i < t; i++) {
    iv[k] = iv_at(&lv[k], lb, i);
    sum += count_from(lv, n, k + 1, iv);
  }
  return sum;
}

/* The point (iv[k..]) of iteration idx (lexicographic, counted from 0) of levels k.. */
static void locate(const level_t *lv, unsigned n, unsigned k, uint64_t *iv, uint64_t idx) {
  uint64_t lb, ub;
  bounds_at(&lv[k], iv, &lb, &ub);
  if (k + 1 == n) {
    iv[k] = iv_at(&lv[k], lb, idx);
    return;
  }
  uint64_t t = trip(&lv[k], lb, ub);
  for (uint64_t i = 0; i < t; i++) {
    iv[k] = iv_at(&lv[k], lb, i);
    uint64_t c = count_from(lv, n, k + 1, iv);
    if (idx < c) {
      locate(lv, n, k + 1, iv, idx);
      return;
    }
    idx -= c;
  }
}

TOMP_EXPORT kmp_uint64 __kmpc_process_loop_nest_rectang(ident_t *loc, kmp_int32 gtid,
                                                        kmp_loop_bounds_t *nest, kmp_int32 n) {
  (void)loc, (void)gtid;
  if (n <= 0 || !canonicalize(nest, n)) return 0;
  uint64_t total = 1;
  for (kmp_int32 k = 0; k < n; k++) {
    level_t l;
    read_level(&nest[k], &l);
    nest[k].trip_count = trip(&l, l.lb0, l.ub0);
    total *= nest[k].trip_count;
  }
  return total;
}

TOMP_EXPORT void __kmpc_calc_original_ivs_rectang(ident_t *loc, kmp_uint64 new_iv,
                                                  const kmp_loop_bounds_t *nest, kmp_uint64 *ivs,
                                                  kmp_int32 n) {
  (void)loc;
  if (n <= 0 || n > NEST_MAX) return;
  uint64_t it[n];
  for (kmp_int32 k = n - 1; k >= 0; k--) {
    uint64_t t = nest[k].trip_count;
    it[k] = t ? new_iv % t : 0;
    new_iv = t ? new_iv / t : 0;
  }
  for (kmp_int32 k = 0; k < n; k++) {
    level_t l;
    read_level(&nest[k], &l);
    uint64_t lb, ub;
    bounds_at(&l, ivs, &lb, &ub);
    ivs[k] = iv_at(&l, lb, it[k]);
  }
}

TOMP_EXPORT kmp_int32 __kmpc_for_collapsed_init(ident_t *loc, kmp_int32 gtid,
                                                kmp_loop_bounds_t *nest, kmp_loop_bounds_t *chunk,
                                                kmp_int32 n, kmp_int32 *plastiter) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (plastiter) *plastiter = 0;
  if (n <= 0 || !canonicalize(nest, n)) return 0;
  level_t lv[n];
  uint64_t first[n], last[n];
  for (kmp_int32 k = 0; k < n; k++)
    read_level(&nest[k], &lv[k]);
  memset(first, 0, sizeof first);
  uint64_t total = count_from(lv, (unsigned)n, 0, first);
  uint64_t p = thr->team ? thr->team->nthreads : 1, id = thr->team ? thr->tid : 0;
  uint64_t q = total / p, r = total % p;
  uint64_t start = q * id + (id < r ? id : r), len = q + (id < r);
  if (len == 0) return 0;
  memset(first, 0, sizeof first);
  memset(last, 0, sizeof last);
  locate(lv, (unsigned)n, 0, first, start);
  locate(lv, (unsigned)n, 0, last, start + len - 1);
  for (kmp_int32 k = 0; k < n; k++) {
    chunk[k] = nest[k];
    chunk[k].lb0_u64 = first[k];
    chunk[k].ub0_u64 = last[k];
    chunk[k].lb1_u64 = 0;
    chunk[k].ub1_u64 = 0;
  }
  if (plastiter) *plastiter = start + len == total;
  return 1;
}
