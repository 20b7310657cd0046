/* run-sched-var as clang code reads it.
 *
 * OpenMP 5.2 leaves run-sched-var's initial value to the implementation ("The initial value
 * of run-sched-var is implementation defined"), and so what schedule(runtime) and
 * omp_get_schedule give before any omp_set_schedule.  The ICV is one per data environment,
 * shared by both ABIs; while it holds its initial value, gcc code reads libgomp's (dynamic,1,
 * or OMP_SCHEDULE as libgomp reads it) and clang code libomp's (static, or OMP_SCHEDULE as
 * libomp reads it, its static_steal and trapezoidal included): tomp_run_sched_kmp
 * (src/core/icv.h).  Once a program sets it, code of either ABI reads the value set.  The
 * omp_get_schedule that clang programs bind (`@VERSION`) is this file's; gcc programs keep
 * the API's (docs/kmp-abi.md, "Schedules"). */
#include "kmp.h"
#include "ws.h"

#define VER(impl, name) __asm__(".symver " #impl ", " #name "@VERSION")

/* libomp's omp_sched_t extension for trapezoidal (its omp.h: omp_sched_t's kmp values) */
#define KMP_SCHED_TRAPEZOIDAL 101

/* The kind and chunk libomp's omp_get_schedule answers for run-sched-var's value: static_steal
 * answers dynamic (LLVM's runtime tests want 2), an unchunked static chunk 0. */
static void kmp_get_schedule(int *kind, int *chunk) {
  int k, c;
  /* any thread, in any state (a tool's callbacks call it too) */
  tomp_run_sched_kmp(tomp_icv(), &k, &c);
  int mono = k & (int)TOMP_SCHED_MONOTONIC, base = k & ~(int)TOMP_SCHED_MONOTONIC;
  if (base == TOMP_SCHED_STATIC_STEAL)
    base = TOMP_SCHED_DYNAMIC;
  else if (base == TOMP_SCHED_TRAPEZOIDAL)
    base = KMP_SCHED_TRAPEZOIDAL;
  *kind = base | mono;
  *chunk = c;
}

/* omp_sched_t is an int-sized enum in both compilers' omp.h */
TOMP_EXPORT void tomp_kmp_get_schedule(int *kind, int *chunk) {
  int k, c;
  kmp_get_schedule(&k, &c);
  if (kind) *kind = k;
  if (chunk) *chunk = c;
}
VER(tomp_kmp_get_schedule, omp_get_schedule);

/* flang's name (by reference) */
TOMP_EXPORT void tomp_kmp_get_schedule_(int32_t *kind, int32_t *chunk) {
  int k, c;
  kmp_get_schedule(&k, &c);
  *kind = k;
  *chunk = c;
}
VER(tomp_kmp_get_schedule_, omp_get_schedule_);

/* schedule(runtime) in clang code: run-sched-var as libomp reads it, as core's loop arguments
 * (sched, chunk, nonmonotonic).  simd: the simd width of schedule(simd:runtime) (0 for plain
 * runtime): static without a chunk and auto become one block per thread rounded up to the
 * width, any other chunk is multiplied by it and guided keeps chunks multiple of it, as in
 * libomp.  auto is guided (libomp's choice), static_steal nonmonotonic dynamic, trapezoidal
 * guided. */
void tomp_kmp_runtime_sched(tomp_thread_t *thr, uint64_t n, uint64_t simd, int *sched,
                            uint64_t *chunk, bool *nonmono) {
  int k, c;
  tomp_run_sched_kmp(tomp_icv_of(thr), &k, &c);
  if (k & (int)TOMP_SCHED_MONOTONIC) *nonmono = false;
  k &= ~(int)TOMP_SCHED_MONOTONIC;
  uint64_t ch = c > 0 ? (uint64_t)c : 0;
  if (simd && ((k == TOMP_SCHED_STATIC && ch == 0) || k == TOMP_SCHED_AUTO)) {
    uint64_t p = thr->team ? thr->team->nthreads : 1;
    uint64_t per = n / p + (n % p != 0);
    *sched = TOMP_SCHED_STATIC;
    *chunk = p > 1 ? (per / simd + (per % simd != 0)) * simd : 0;
    return;
  }
  if (simd && ch) ch *= simd;
  switch (k) {
  case TOMP_SCHED_STATIC:
    *sched = TOMP_SCHED_STATIC;
    break;
  case TOMP_SCHED_DYNAMIC:
    *sched = TOMP_SCHED_DYNAMIC;
    break;
  case TOMP_SCHED_STATIC_STEAL:
    *sched = TOMP_SCHED_DYNAMIC;
    *nonmono = true;
    break;
  default: /* guided, auto, trapezoidal */
    *sched = TOMP_SCHED_GUIDED | (simd ? TOMP_LOOP_GUIDED_SIMD : 0);
    if (!ch) ch = simd ? simd : 1;
    break;
  }
  *chunk = ch;
}
