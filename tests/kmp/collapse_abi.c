/* The collapsed-loop-nest entry points of newer LLVM runtimes (libomp 17 on), called as a
 * compiler lowering collapse(n) through the runtime would:
 *   - __kmpc_process_loop_nest_rectang: a rectangular nest in canonical form (<, > and !=
 *     rewritten as <= / >=), each level's trip count and their product
 *   - __kmpc_calc_original_ivs_rectang: the variables of collapsed iteration k, for every k,
 *     equal the k-th point of the nest in lexicographic order
 *   - __kmpc_for_collapsed_init: each thread of a team gets its share of a nest whose inner
 *     bounds depend on the outer variable (triangles, a parallelogram with a step, a nest
 *     whose inner loop is empty for some outer values; all counting up: libomp 19 asserts
 *     on a two-level nest that does not) as its first and last points (the first an
 *     iteration, the last at least the share's last iteration: libomp may give the bounds
 *     there); walking the nest from first to last, the shares cover every iteration exactly
 *     once, and one share (at most one, for libomp's triangle shortcut) says it holds the
 *     last iteration
 * tomp lacked all three before (the binary did not load).
 * test-no-libomp: libomp 14 has none of them (LLVM 17 on: validated by hand on a libomp 19
 * built by tools/llvm-ompt-tests.sh) */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "../check.h"

typedef struct {
  int32_t loop_type, iv_type, comparison, outer_iv;
  uint64_t lb0, lb1, ub0, ub1;
  int64_t step;
  uint64_t trip_count;
} bounds_t;
enum { LE = 0, GE = 1, NE = 2, LT = 3, GT = 4 };
enum { U32 = 4, I32 = 5, U64 = 6, I64 = 7 };

uint64_t __kmpc_process_loop_nest_rectang(void *, int32_t, bounds_t *, int32_t)
    __attribute__((weak));
void __kmpc_calc_original_ivs_rectang(void *, uint64_t, const bounds_t *, uint64_t *, int32_t)
    __attribute__((weak));
int32_t __kmpc_for_collapsed_init(void *, int32_t, bounds_t *, bounds_t *, int32_t, int32_t *)
    __attribute__((weak));
int32_t __kmpc_global_thread_num(void *);

/* a 32-bit value as the ABI keeps it: in the low half */
static uint64_t v32(int32_t v) {
  return (uint32_t)v;
}

/* ---- rectangular: i = 0; i < 5; i++  x  j = 10; j >= 1; j -= 3  x  k = 7; k != 1; k -= 2 */
static void rectangular(void) {
  bounds_t b[3] = {
      {I32, I32, LT, 0, v32(0), 0, v32(5), 0, 1, 0},
      {I64, I64, GE, 0, 10, 0, 1, 0, -3, 0},
      {U32, U32, NE, 0, v32(7), 0, v32(1), 0, (uint32_t)-2, 0},
  };
  uint64_t total = __kmpc_process_loop_nest_rectang(NULL, __kmpc_global_thread_num(NULL), b, 3);
  CHECKF(total == 5 * 4 * 3, "rectangular nest: %llu iterations", (unsigned long long)total);
  CHECK(b[0].trip_count == 5 && b[1].trip_count == 4 && b[2].trip_count == 3);
  CHECK(b[0].comparison == LE && (int32_t)b[0].ub0 == 4);
  CHECK(b[2].comparison == GE && (uint32_t)b[2].ub0 == 2);
  uint64_t k = 0;
  for (int i = 0; i < 5; i++)
    for (long j = 10; j >= 1; j -= 3)
      for (unsigned u = 7; u != 1; u -= 2, k++) {
        uint64_t iv[3] = {0};
        __kmpc_calc_original_ivs_rectang(NULL, k, b, iv, 3);
        CHECKF((int32_t)iv[0] == i && (int64_t)iv[1] == j && (uint32_t)iv[2] == u,
               "collapsed iteration %llu: (%d, %ld, %u), want (%d, %ld, %u)", (unsigned long long)k,
               (int32_t)iv[0], (long)(int64_t)iv[1], (uint32_t)iv[2], i, j, u);
      }
}

/* ---- two-level nests with inner bounds a0 + a1 * i, b0 + b1 * i (signed 64-bit values) ---- */
typedef struct {
  const char *name;
  int32_t type, cmp_o, cmp_i;
  int64_t lo, hi, so;         /* outer: lo to hi (comparison cmp_o), step so */
  int64_t a0, a1, b0, b1, si; /* inner */
} nest_t;

static const nest_t nests[] = {
    /* for (i = 0; i <= 40; i++) for (j = 0; j <= i; j++): libomp's lower-triangle form */
    {"lower triangle", I32, LE, LE, 0, 40, 1, 0, 0, 0, 1, 1},
    /* for (i = 0; i <= 30; i++) for (j = i; j <= 30; j++): upper triangle */
    {"upper triangle", I64, LE, LE, 0, 30, 1, 0, 1, 30, 0, 1},
    /* for (i = 0; i < 20; i++) for (j = i; j < i + 6; j += 2) */
    {"parallelogram", I64, LT, LT, 0, 20, 1, 0, 1, 6, 1, 2},
    /* for (i = -9; i < 10; i += 3) for (j = -i; j <= i; j++): empty for i < 0 */
    {"partly empty", I32, LT, LE, -9, 10, 3, 0, -1, 0, 1, 1},
};

enum { MAXP = 4096, T = 3 };
static int64_t pts[MAXP][2];
static int npts;

static int in_range(int cmp, int64_t v, int64_t bound) {
  switch (cmp) {
  case LE:
    return v <= bound;
  case GE:
    return v >= bound;
  case LT:
    return v < bound;
  default:
    return v > bound;
  }
}

static void enumerate(const nest_t *t) {
  npts = 0;
  for (int64_t i = t->lo; in_range(t->cmp_o, i, t->hi); i += t->so)
    for (int64_t j = t->a0 + t->a1 * i; in_range(t->cmp_i, j, t->b0 + t->b1 * i); j += t->si) {
      CHECK(npts < MAXP);
      pts[npts][0] = i;
      pts[npts][1] = j;
      npts++;
    }
}

static uint64_t enc(int32_t type, int64_t v) {
  return type == I32 ? v32((int32_t)v) : (uint64_t)v;
}

static void describe(const nest_t *t, bounds_t *b) {
  memset(b, 0, 2 * sizeof *b);
  b[0] = (bounds_t){t->type,
                    t->type,
                    t->cmp_o,
                    0,
                    enc(t->type, t->lo),
                    0,
                    enc(t->type, t->hi),
                    0,
                    t->type == I32 ? (int64_t)(uint32_t)t->so : t->so,
                    0};
  b[1] = (bounds_t){t->type,
                    t->type,
                    t->cmp_i,
                    0,
                    enc(t->type, t->a0),
                    enc(t->type, t->a1),
                    enc(t->type, t->b0),
                    enc(t->type, t->b1),
                    t->type == I32 ? (int64_t)(uint32_t)t->si : t->si,
                    0};
}

static int64_t val(int32_t type, uint64_t v) {
  return type == I32 ? (int64_t)(int32_t)v : (int64_t)v;
}

/* lexicographic order of points, each level in its own direction: <0, 0, >0 */
static int order(const nest_t *t, int64_t i1, int64_t j1, int64_t i2, int64_t j2) {
  int up_o = t->cmp_o == LE || t->cmp_o == LT, up_i = t->cmp_i == LE || t->cmp_i == LT;
  if (i1 != i2) return (i1 < i2) == up_o ? -1 : 1;
  if (j1 != j2) return (j1 < j2) == up_i ? -1 : 1;
  return 0;
}

static void collapsed(const nest_t *t, int nthreads) {
  enumerate(t);
  static int seen[MAXP];
  memset(seen, 0, sizeof seen);
  int lasts = 0, bad = 0;
#pragma omp parallel num_threads(nthreads)
  {
    bounds_t b[2], c[2];
    describe(t, b);
    int32_t last = -1;
    if (__kmpc_for_collapsed_init(NULL, __kmpc_global_thread_num(NULL), b, c, 2, &last)) {
      /* the share: from its first point (an iteration) up to its last, which may be given as
       * the bounds' values rather than an iteration (libomp does so for a share that ends a
       * level) */
      int64_t i0 = val(t->type, c[0].lb0), j0 = val(t->type, c[1].lb0);
      int64_t i1 = val(t->type, c[0].ub0), j1 = val(t->type, c[1].ub0);
      int first = -1;
      for (int p = 0; p < npts; p++)
        if (order(t, pts[p][0], pts[p][1], i0, j0) == 0) first = p;
      if (first < 0 || order(t, i0, j0, i1, j1) > 0) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      for (int p = 0; p < npts; p++)
        if (order(t, pts[p][0], pts[p][1], i0, j0) >= 0 &&
            order(t, pts[p][0], pts[p][1], i1, j1) <= 0)
          __atomic_add_fetch(&seen[p], 1, __ATOMIC_RELAXED);
    }
    if (last == 1) __atomic_add_fetch(&lasts, 1, __ATOMIC_RELAXED);
  }
  CHECKF(bad == 0, "%s, %d threads: a share whose points are not iterations of the nest", t->name,
         nthreads);
  for (int p = 0; p < npts; p++)
    CHECKF(seen[p] == 1, "%s, %d threads: iteration (%lld, %lld) run %d times", t->name, nthreads,
           (long long)pts[p][0], (long long)pts[p][1], seen[p]);
  int triangle = t == &nests[0] || t == &nests[1];
  CHECKF(triangle ? lasts <= 1 : lasts == 1, "%s, %d threads: %d shares hold the last iteration",
         t->name, nthreads, lasts);
}

int main(void) {
  omp_set_dynamic(0);
  rectangular();
  for (unsigned t = 0; t < sizeof nests / sizeof nests[0]; t++) {
    collapsed(&nests[t], T);
    collapsed(&nests[t], 1);
  }
  return 0;
}
