/* Entry points LLVM exports that clang does not emit, called as their users (older compilers,
 * hand-written code) would:
 *   - __kmpc_barrier_master / __kmpc_end_barrier_master: every thread arrives; only the
 *     primary gets 1 and runs the master block while the others stay in the barrier until
 *     the end call releases them (they get 0)
 *   - __kmpc_barrier_master_nowait: the barrier, then 1 for the primary, 0 for the others at
 *     once; no end call
 *   - __kmpc_pop_num_threads: nothing to pop (libomp's too): a pushed num_threads still
 *     applies to the next region, which consumes it
 *   - __kmpc_invoke_task_func: runs the region's microtask once more on the calling thread,
 *     with the region's shared arguments; returns 1
 * Outside any region the barrier forms answer 1.  tomp lacked all five before (the binary did
 * not load).  Validated on libomp 14. */
#include <omp.h>
#include <stdint.h>

#include "../check.h"

/* the location argument is NULL, as LLVM's tests pass it */
int32_t __kmpc_global_thread_num(void *);
int32_t __kmpc_barrier_master(void *, int32_t);
void __kmpc_end_barrier_master(void *, int32_t);
int32_t __kmpc_barrier_master_nowait(void *, int32_t);
void __kmpc_push_num_threads(void *, int32_t, int32_t);
void __kmpc_pop_num_threads(void *, int32_t);
int __kmpc_invoke_task_func(int);

enum { T = 4, R = 300 };
static int arrived[R], master_done[R], masters[R], arrived2[R], masters2[R];
static int bad;

static __thread int reinvoked;
static int runs[T];
static int *shared_seen[T][2];

int main(void) {
  omp_set_dynamic(0);
  int32_t g0 = __kmpc_global_thread_num(NULL);
  CHECK(__kmpc_barrier_master(NULL, g0) == 1);
  __kmpc_end_barrier_master(NULL, g0);
  CHECK(__kmpc_barrier_master_nowait(NULL, g0) == 1);

#pragma omp parallel num_threads(T)
  {
    int32_t gtid = __kmpc_global_thread_num(NULL);
    int me = omp_get_thread_num();
    for (int r = 0; r < R; r++) {
      __atomic_add_fetch(&arrived[r], 1, __ATOMIC_RELAXED);
      if (__kmpc_barrier_master(NULL, gtid)) {
        /* everyone has arrived, and nobody has left */
        if (me != 0 || __atomic_load_n(&arrived[r], __ATOMIC_RELAXED) != T)
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&masters[r], 1, __ATOMIC_RELAXED);
        __atomic_store_n(&master_done[r], 1, __ATOMIC_RELAXED);
        __kmpc_end_barrier_master(NULL, gtid);
      } else if (!__atomic_load_n(&master_done[r], __ATOMIC_RELAXED)) {
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED); /* released before the master block ended */
      }
      __atomic_add_fetch(&arrived2[r], 1, __ATOMIC_RELAXED);
      int m = __kmpc_barrier_master_nowait(NULL, gtid);
      if (__atomic_load_n(&arrived2[r], __ATOMIC_RELAXED) != T || (m && me != 0))
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      if (m) __atomic_add_fetch(&masters2[r], 1, __ATOMIC_RELAXED);
    }
  }
  CHECKF(bad == 0, "%d violations of the barrier-master order", bad);
  for (int r = 0; r < R; r++)
    CHECKF(masters[r] == 1 && masters2[r] == 1, "round %d: %d and %d masters", r, masters[r],
           masters2[r]);

  /* pop: nothing to pop; the pushed value still applies to the next region */
  int n = 0;
  __kmpc_pop_num_threads(NULL, g0);
  __kmpc_push_num_threads(NULL, g0, 3);
  __kmpc_pop_num_threads(NULL, g0);
#pragma omp parallel
#pragma omp single
  n = omp_get_num_threads();
  CHECKF(n == 3, "team of %d after push(3), pop", n);

  /* invoke_task_func: the region's microtask once more on each thread, same shared data */
  int shared = 0;
#pragma omp parallel num_threads(2) shared(shared)
  {
    int me = omp_get_thread_num();
    shared_seen[me][reinvoked] = &shared;
    __atomic_add_fetch(&runs[me], 1, __ATOMIC_RELAXED);
    if (!reinvoked) {
      reinvoked = 1;
      int rc = __kmpc_invoke_task_func(__kmpc_global_thread_num(NULL));
      reinvoked = 0;
      if (rc != 1) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
  }
  CHECKF(bad == 0, "__kmpc_invoke_task_func did not answer 1");
  for (int t = 0; t < 2; t++)
    CHECKF(runs[t] == 2 && shared_seen[t][0] == &shared && shared_seen[t][1] == &shared,
           "thread %d: body ran %d times", t, runs[t]);
  return 0;
}
