/* A barrier completes only when every task of the team is done, also tasks queued just
 * before the last thread arrives (while the others already wait).  Each round one thread,
 * after a varying delay, queues tasks and arrives last; after the barrier every thread checks
 * that all of them ran.  Regression: the barrier used to read "no task outstanding" before
 * "all arrived", so a waiter could pair a stale zero count with the late arrival and
 * release with tasks pending (found as lost scope task-reduction contributions under TSan). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static void spin(int n) {
  for (volatile int i = 0; i < n; i++) {
  }
}

int main(void) {
  enum { ROUNDS = 10000, TASKS = 3 };
  int bad = 0;
  for (int nt = 2; nt <= 3; nt++) {
    int done = 0;
#pragma omp parallel num_threads(nt) reduction(+ : bad)
    {
      int me = omp_get_thread_num();
      for (int r = 0; r < ROUNDS; r++) {
        if (me == r % nt) {
          spin(r % 64 * 8); /* arrive last, at a varying moment */
          for (int k = 0; k < TASKS; k++) {
#pragma omp task
            {
              spin(50);
              __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
            }
          }
        }
#pragma omp barrier
        if (__atomic_load_n(&done, __ATOMIC_RELAXED) != (r + 1) * TASKS) bad++;
#pragma omp barrier
      }
    }
  }
  CHECK(bad == 0);
  puts("ok");
  return 0;
}
