/* Schedules of LLVM's ABI where the OpenMP text leaves the choice to the implementation and
 * clang code gets libomp's (docs/kmp-abi.md, "Schedules"), driven through
 * __kmpc_dispatch_init_4 / next_4 as compiled code and LLVM's runtime tests call them:
 *   - schedule(simd:runtime) (47, the simd width as chunk): run-sched-var static or auto is
 *     one block per thread rounded up to the width; static,c / dynamic,c are chunks of
 *     c * width; guided,c chunks that are multiples of c * width (all but the last)
 *   - simd:guided (46): chunks multiple of the width (all but the last)
 *   - schedule(auto) (38): guided, so more chunks than threads (static would give one each)
 *   - guided in a team of one: the whole loop in one chunk (libomp's static)
 * Each loop's chunks must also cover its iterations exactly once.  Failed before: tomp ignored
 * the simd width and ran auto as static.  Validated on libomp 14. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "../check.h"

typedef struct {
  int32_t r1, flags, r2, r3;
  const char *psource;
} ident_t;
static ident_t loc = {0, 2, 0, 0, ";sched_libomp.c;run;0;0;;"};
int32_t __kmpc_global_thread_num(ident_t *);
void __kmpc_barrier(ident_t *, int32_t);
void __kmpc_dispatch_init_4(ident_t *, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
int __kmpc_dispatch_next_4(ident_t *, int32_t, int32_t *, int32_t *, int32_t *, int32_t *);

enum { N = 203, T = 4, W = 4, MAXC = 4096 };
enum { SCH_GUIDED_SIMD = 46, SCH_RUNTIME_SIMD = 47, SCH_AUTO = 38, SCH_GUIDED = 36 };

static struct { int lo, len, tid; } chunks[MAXC];
static int nchunks, nthreads;

/* Every thread of the current team takes the chunks of one loop over 0..N-1. */
static void take(int sched, int chunk) {
  int32_t gtid = __kmpc_global_thread_num(&loc), last, lb, ub, st;
  __kmpc_dispatch_init_4(&loc, gtid, sched, 0, N - 1, 1, chunk);
  while (__kmpc_dispatch_next_4(&loc, gtid, &last, &lb, &ub, &st)) {
    int i = __atomic_fetch_add(&nchunks, 1, __ATOMIC_RELAXED);
    if (i < MAXC) {
      chunks[i].lo = lb;
      chunks[i].len = ub - lb + 1;
      chunks[i].tid = omp_get_thread_num();
    }
  }
  nthreads = omp_get_num_threads();
  __kmpc_barrier(&loc, gtid);
}

/* One loop in a team of t; checks coverage and returns the number of chunks. */
static int run(const char *what, int t, int sched, int chunk) {
  nchunks = 0;
#pragma omp parallel num_threads(t)
  take(sched, chunk);
  CHECKF(nchunks <= MAXC, "%s: %d chunks", what, nchunks);
  static int seen[N];
  for (int i = 0; i < N; i++)
    seen[i] = 0;
  for (int c = 0; c < nchunks; c++)
    for (int i = chunks[c].lo; i < chunks[c].lo + chunks[c].len; i++) {
      CHECKF(i >= 0 && i < N, "%s: iteration %d out of the loop", what, i);
      seen[i]++;
    }
  for (int i = 0; i < N; i++)
    CHECKF(seen[i] == 1, "%s: iteration %d ran %d times", what, i, seen[i]);
  return nchunks;
}

/* every chunk but the one holding the last iteration is a multiple of m */
static void multiples(const char *what, int m) {
  for (int c = 0; c < nchunks; c++)
    if (chunks[c].lo + chunks[c].len != N)
      CHECKF(chunks[c].len % m == 0, "%s: a chunk of %d, not a multiple of %d", what, chunks[c].len,
             m);
}

/* at most one chunk per thread, of the balanced size (the last one may be shorter) */
static void balanced(const char *what) {
  int per = (N + nthreads - 1) / nthreads, want = (per + W - 1) / W * W;
  CHECKF(nchunks <= nthreads, "%s: %d chunks for %d threads", what, nchunks, nthreads);
  for (int c = 0; c < nchunks; c++)
    if (chunks[c].lo + chunks[c].len != N)
      CHECKF(chunks[c].len == want, "%s: a chunk of %d, want %d", what, chunks[c].len, want);
}

int main(void) {
  omp_set_dynamic(0);

  omp_set_schedule(omp_sched_static, 0);
  run("simd:runtime, static", T, SCH_RUNTIME_SIMD, W);
  balanced("simd:runtime, static");
  omp_set_schedule(omp_sched_auto, 0);
  run("simd:runtime, auto", T, SCH_RUNTIME_SIMD, W);
  balanced("simd:runtime, auto");
  omp_set_schedule(omp_sched_static, 1);
  run("simd:runtime, static,1", T, SCH_RUNTIME_SIMD, W);
  for (int c = 0; c < nchunks; c++)
    if (chunks[c].lo + chunks[c].len != N)
      CHECKF(chunks[c].len == W, "simd:runtime, static,1: a chunk of %d", chunks[c].len);
  omp_set_schedule(omp_sched_dynamic, 3);
  run("simd:runtime, dynamic,3", T, SCH_RUNTIME_SIMD, W);
  for (int c = 0; c < nchunks; c++)
    if (chunks[c].lo + chunks[c].len != N)
      CHECKF(chunks[c].len == 3 * W, "simd:runtime, dynamic,3: a chunk of %d", chunks[c].len);
  omp_set_schedule(omp_sched_guided, 2);
  run("simd:runtime, guided,2", T, SCH_RUNTIME_SIMD, W);
  multiples("simd:runtime, guided,2", 2 * W);

  run("simd:guided", T, SCH_GUIDED_SIMD, W);
  multiples("simd:guided", W);

  int n = run("auto", T, SCH_AUTO, 0);
  CHECKF(n > nthreads, "schedule(auto): %d chunks for %d threads (static, not guided)", n,
         nthreads);

  n = run("guided, one thread", 1, SCH_GUIDED, 1);
  CHECKF(n == 1 && chunks[0].len == N, "guided in a team of one: %d chunks", n);
  return 0;
}
