/* A barrier waits for every task of its team, whoever created and whoever ran it.  tomp keeps
 * the team's count of outstanding tasks in slots its threads hold (src/core/task.h,
 * "Credits"): a creator takes a batch of slots, a thread that completes a task keeps its
 * slot, and each thread gives its slots back at a barrier.  This drives every way the count
 * moves and checks after each barrier that all tasks ran:
 *   - one producer, the others completing its tasks at the barrier (their slots pile up and
 *     go back in batches);
 *   - every thread creating and waiting for its own tasks (slots reused locally);
 *   - tasks run at the barrier creating tasks themselves (slots taken while waiting);
 *   - a nested region inside a task with tasks of its own (slots for two teams);
 *   - detached tasks fulfilled by another thread of the team.
 * Tasks are long enough (a few microseconds) to be deferred rather than run at once.  A
 * count that never comes back to zero would keep a barrier waiting: a round that does not
 * end within 30 s fails the test (WATCHDOG) rather than hanging it. */
#include <omp.h>
#include <stdio.h>

#include "check.h"

static void spin(int n) {
  for (volatile int i = 0; i < n; i++) {
  }
}

static int ran, nested_bad;

static void work(void) {
  spin(2000);
  __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
}

int main(void) {
  enum { ROUNDS = 20, PRODUCED = 300, OWN = 20 };
  int bad = 0;
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(4) reduction(+ : bad)
  {
    int me = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int r = 0; r < ROUNDS; r++) {
      if (me == 0)
        WATCHDOG(30,
                 "a round of tasks did not end (a barrier waits for a task count that "
                 "does not reach zero)",
                 r);
      int base = __atomic_load_n(&ran, __ATOMIC_RELAXED);
#pragma omp barrier
      /* one producer */
      if (me == r % nt)
        for (int k = 0; k < PRODUCED; k++) {
#pragma omp task
          work();
        }
#pragma omp barrier
      if (__atomic_load_n(&ran, __ATOMIC_RELAXED) != base + PRODUCED) bad++;
#pragma omp barrier
      base = __atomic_load_n(&ran, __ATOMIC_RELAXED);
#pragma omp barrier
      /* each thread its own tasks, waited for */
      for (int k = 0; k < OWN; k++) {
#pragma omp task
        work();
#pragma omp taskwait
      }
      /* tasks that create tasks, most of them run at the barrier */
      for (int k = 0; k < 4; k++) {
#pragma omp task
        {
          work();
          for (int j = 0; j < 3; j++) {
#pragma omp task
            work();
          }
        }
      }
#pragma omp barrier
      if (__atomic_load_n(&ran, __ATOMIC_RELAXED) != base + nt * (OWN + 16)) bad++;
#pragma omp barrier
      base = __atomic_load_n(&ran, __ATOMIC_RELAXED);
#pragma omp barrier
      /* a nested region inside a task, with tasks of the inner team */
      if (me == 0) {
#pragma omp task
        {
          int inner_before = __atomic_load_n(&ran, __ATOMIC_RELAXED), inner_bad = 0;
          (void)inner_before;
#pragma omp parallel num_threads(2)
          {
            for (int k = 0; k < 10; k++) {
#pragma omp task
              work();
            }
#pragma omp barrier
            /* the inner barrier waits for the inner team's 20 tasks (others may be running
             * outer tasks meanwhile, so only a lower bound can be checked here) */
            if (__atomic_load_n(&ran, __ATOMIC_RELAXED) < inner_before + 20)
              __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
          }
          if (inner_bad) __atomic_add_fetch(&nested_bad, 1, __ATOMIC_RELAXED);
          work();
        }
      }
      for (int k = 0; k < 5; k++) {
#pragma omp task
        work();
      }
#pragma omp barrier
      if (__atomic_load_n(&ran, __ATOMIC_RELAXED) != base + 21 + 5 * nt) bad++;
#pragma omp barrier
    }
  }
  CHECKF(bad == 0, "%d barriers passed with tasks outstanding", bad);
  CHECKF(nested_bad == 0, "%d nested barriers passed with tasks outstanding", nested_bad);

  /* detached tasks: each event fulfilled by the next thread (before or after its body ran),
   * then the barrier must wait for every body and event */
  static omp_event_handle_t ev[8];
  static int made[8];
  int bad2 = 0;
#pragma omp parallel num_threads(4) reduction(+ : bad2)
  {
    int me = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int r = 1; r <= ROUNDS; r++) {
      if (me == 0)
        WATCHDOG(30,
                 "a round of detached tasks did not end (a barrier waits for a task "
                 "count that does not reach zero)",
                 ROUNDS + r);
      int base = __atomic_load_n(&ran, __ATOMIC_RELAXED);
#pragma omp barrier
      omp_event_handle_t e, next = 0;
#pragma omp task detach(e)
      work();
      /* handed over under the runtime's lock (a sanitizer sees it; the test is not
       * instrumented) */
#pragma omp critical
      {
        ev[me] = e;
        made[me] = r;
      }
      for (int ok = 0; !ok;) {
#pragma omp critical
        {
          ok = made[(me + 1) % nt] == r;
          next = ev[(me + 1) % nt];
        }
        if (!ok) {
#pragma omp taskyield
        }
      }
      omp_fulfill_event(next);
#pragma omp barrier
      if (__atomic_load_n(&ran, __ATOMIC_RELAXED) != base + nt) bad2++;
#pragma omp barrier
    }
  }
  CHECKF(bad2 == 0, "%d detached-task checks failed", bad2);
  puts("ok");
  WATCHDOG_OFF();
  return check_failures != 0;
}
