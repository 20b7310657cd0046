/* Back-to-back regions whose workers are still in the closing barrier's code when the next
 * fork hands them their next team (4 threads on a 2-CPU machine makes this the common case):
 * each region queues tasks from the master only after the others reached the closing
 * barrier, so workers run them from there, and shares a dynamic loop.  Every task and every
 * iteration must run exactly once in its own region; a fork that re-initialised the task
 * queues, the work-share ring or the implicit tasks under a worker still polling them loses
 * or repeats work, or runs a task with the wrong region's data.
 * test-timeout: 120
 */
#include <omp.h>
#include <stdio.h>

#include "check.h"

#define REGIONS 6000
#define NTASKS 8
#define NITER 64

static long task_runs[2], iter_runs[2];
static int bad_region;

static void run_task(int r, int *slot) {
  if (*slot != r) __atomic_store_n(&bad_region, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&task_runs[r & 1], 1, __ATOMIC_RELAXED);
}

int main(void) {
  int nthr = 4;
  for (int r = 0; r < REGIONS; r++) {
    int slot = r; /* the region's own data, read by its tasks */
    int arrived = 0;
#pragma omp parallel num_threads(nthr)
    {
#pragma omp for schedule(dynamic, 1) nowait
      for (int i = 0; i < NITER; i++) __atomic_add_fetch(&iter_runs[r & 1], 1, __ATOMIC_RELAXED);
      if (omp_get_thread_num() == 0) {
        /* let the others reach the closing barrier first (bounded: they may not be running) */
        for (long spin = 0; __atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < omp_get_num_threads() - 1 &&
                            spin < 20000;
             spin++)
          ;
        for (int t = 0; t < NTASKS; t++) {
#pragma omp task firstprivate(r) shared(slot)
          run_task(r, &slot);
        }
      } else {
        __atomic_add_fetch(&arrived, 1, __ATOMIC_RELEASE);
      }
    }
    /* the region is over: all of its tasks and iterations ran, none of the next one's */
    if (__atomic_load_n(&task_runs[r & 1], __ATOMIC_RELAXED) != NTASKS ||
        __atomic_load_n(&iter_runs[r & 1], __ATOMIC_RELAXED) != NITER) {
      fprintf(stderr, "region %d: %ld tasks, %ld iterations\n", r, task_runs[r & 1],
              iter_runs[r & 1]);
      CHECK(0);
    }
    task_runs[r & 1] = iter_runs[r & 1] = 0;
    nthr = r % 64 == 63 ? 3 : 4; /* now and then a smaller team: surplus worker to the pool */
  }
  CHECK(!bad_region);
  printf("ok\n");
  return 0;
}
