/* A parallel region cancelled while a thread waits in worksharing code for a thread that has
 * left for the region's end must not hang: thread 0 cancels the region before it reaches
 * the construct, while thread 1 waits
 *  (1) in an ordered region for thread 0's iteration (schedule(static, 1)),
 *  (2) in a doacross sink for thread 0's iteration,
 *  (3) for a worksharing ring slot: thread 1 ran far ahead through nowait constructs that
 *      thread 0 never entered.
 * Failure is a hang (the timeout).  Also checks that ordered regions before the cancel ran
 * in order and that the team works normally afterwards.
 * test-env: OMP_CANCELLATION=true
 * test-timeout: 10
 * test-libgomp-fails: libgomp 12 hangs in cases 1 (GOMP_ordered_start, seen in gdb) and 2 (doacross wait)
 * test-no-libomp: libomp 14 does not finish it (hangs, seen here)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static void wait_flag(int *f) {
  for (int i = 0; i < 20000 && !__atomic_load_n(f, __ATOMIC_ACQUIRE); i++) usleep(100);
}

int main(void) {
  CHECK(omp_get_cancellation());
  int nthr = 0;

  /* (1) ordered */
  int waiting = 0, seen_cancel = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (omp_get_num_threads() == 2) {
      if (me == 0) {
        wait_flag(&waiting);
        usleep(20000); /* let thread 1 fall asleep in the ordered wait */
#pragma omp cancel parallel
      }
#pragma omp for ordered schedule(static, 1)
      for (int i = 0; i < 4; i++) {
        if (i == 1) __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
#pragma omp ordered
        { __atomic_add_fetch(&seen_cancel, 1, __ATOMIC_RELAXED); }
      }
    }
  }
  CHECK(seen_cancel <= 2);

  /* (2) doacross */
  waiting = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (omp_get_num_threads() == 2) {
      if (me == 0) {
        wait_flag(&waiting);
        usleep(20000);
#pragma omp cancel parallel
      }
#pragma omp for ordered(1) schedule(static, 1)
      for (int i = 0; i < 4; i++) {
        if (i == 1) __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
#pragma omp ordered depend(sink : i - 1)
#pragma omp ordered depend(source)
      }
    }
  }

  /* (3) lapping the worksharing ring: many nowait constructs thread 0 never reaches */
  waiting = 0;
  int singles = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (omp_get_num_threads() == 2) {
      if (me == 0) {
        wait_flag(&waiting);
        usleep(20000);
#pragma omp cancel parallel
      }
      for (int k = 0; k < 64; k++) {
        if (k == 32) __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
#pragma omp single nowait
        singles++;
#pragma omp cancellation point parallel
      }
    }
  }
  CHECK(singles <= 64);

  /* the team is usable afterwards, ordered runs in order */
  int next = 0, bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for ordered schedule(dynamic, 1)
    for (int i = 0; i < 100; i++) {
#pragma omp ordered
      {
        bad += next != i;
        next++;
      }
    }
  }
  CHECK(bad == 0 && next == 100);
  CHECK(nthr >= 1);
  puts("ok");
  return 0;
}
