/* Tasks queued one after another while the team's other threads sleep in a barrier all get
 * a thread: three long tasks that each wait until all three run, created by a thread that
 * then waits for them outside any scheduling point.  A poster wakes a sleeper only for a
 * deque it made non-empty (the others are meant for whoever is already awake), so a thief
 * that leaves tasks behind must pass the wake-up on.  Failed before (found when
 * kmp_task_deps_all timed out under load): the first task woke one thread, the other two
 * stayed queued behind it and the producer's wait timed out.
 * test-env: OMP_WAIT_POLICY=passive */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

enum { NTASK = 3 };
static int started, seen;

/* true once all NTASK tasks have started, false after 20 s */
static int all_started(void) {
  double end = omp_get_wtime() + 20;
  while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < NTASK)
    if (omp_get_wtime() > end)
      return 0;
    else
      usleep(100);
  return 1;
}

int main(void) {
  int ok = 1, size = 0;
  for (int round = 0; round < 3; round++) {
    __atomic_store_n(&started, 0, __ATOMIC_SEQ_CST);
#pragma omp parallel num_threads(NTASK + 1) shared(ok, size)
    {
      if (omp_get_thread_num() == 0) {
        size = omp_get_num_threads();
        usleep(100000); /* the others are asleep in the closing barrier by now */
        for (int k = 0; k < NTASK; k++) {
#pragma omp task shared(ok)
          {
            __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
            if (!all_started()) __atomic_store_n(&ok, 0, __ATOMIC_SEQ_CST);
          }
        }
        if (!all_started()) {
          __atomic_store_n(&ok, 0, __ATOMIC_SEQ_CST);
          seen = __atomic_load_n(&started, __ATOMIC_SEQ_CST);
        }
      }
    }
    CHECKF(size == NTASK + 1, "a team of %d", size);
    CHECKF(ok, "round %d: %d of %d tasks started while their creator waited 20 s", round, seen,
           NTASK);
  }
  puts("ok");
  return check_failures != 0;
}
