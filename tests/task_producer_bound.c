/* One producer with the rest of its team held away from the tasks: how many of its tasks
 * still wait to start once it has created them all.  tomp keeps at most its deque's worth
 * (256) waiting: a task its creator finds no room for runs at once on the creator
 * (src/core/task.c, post: no shared list, no lock), as libomp's task throttling does, so
 * what one producer keeps pending does not grow with the team.  Before 7be63b7 the tasks
 * beyond 256 went to the team's shared list until more than 64 per thread were outstanding:
 * 1025 waited at 16 threads, 2049 at 32 (libgomp's rule, and its counts).  The others wait
 * on a mutex (no task scheduling point), so only the producer can run a task meanwhile.
 * Checked at 16 and 32 threads: at most 512 waiting (a deque twice over), and every task ran
 * by the end of the region.  tests/task_overflow.c checks the tasks themselves.
 * test-libgomp-fails: libgomp queues up to 64 tasks per thread (2049 waiting at 32)
 * test-env: KMP_ENABLE_TASK_THROTTLING=1 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#include "check.h"

enum { TASKS = 5000, BOUND = 512 };

/* about a microsecond of work: tomp runs a task whose function it measures as tiny at once,
 * and these must be queued */
static void work(int i) {
  volatile long acc = 0;
  for (int k = 0; k < 500; k++)
    acc += (i ^ k) & 7;
}

static void producer(int nthreads) {
  static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;
  static int ran;
  int waiting = -1, team = 0;
  ran = 0;
  pthread_mutex_lock(&hold); /* by the primary: the thread that encounters the region */
#pragma omp parallel num_threads(nthreads)
  {
    if (omp_get_thread_num() == 0) {
      team = omp_get_num_threads();
      for (int i = 0; i < TASKS; i++) {
#pragma omp task firstprivate(i)
        {
          work(i);
          __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
        }
      }
      waiting = TASKS - __atomic_load_n(&ran, __ATOMIC_RELAXED);
      pthread_mutex_unlock(&hold);
    } else {
      pthread_mutex_lock(&hold); /* until every task is created */
      pthread_mutex_unlock(&hold);
    }
  }
  CHECKF(team == nthreads, "team of %d, asked for %d", team, nthreads);
  CHECKF(waiting >= 0 && waiting <= BOUND,
         "%d threads: %d of %d tasks waited to start once one thread had created them all "
         "(at most %d)",
         nthreads, waiting, TASKS, BOUND);
  CHECKF(ran == TASKS, "%d threads: %d of %d tasks ran", nthreads, ran, TASKS);
  printf("%d threads: %d of %d tasks waiting after their creation\n", nthreads, waiting, TASKS);
}

int main(void) {
  omp_set_dynamic(0);
  producer(16);
  producer(32);
  puts("ok");
  return 0;
}
