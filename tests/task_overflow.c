/* One producer feeding a team of 8 and of 32 threads, far more tasks than a thread's deque
 * holds (256 in tomp): the producer's deque fills and its later tasks go elsewhere (tomp:
 * the producer runs them itself).  Checked, at each team size: every task runs exactly
 * once with its own firstprivate data (small and large blocks), a task run by the producer
 * itself can create tasks of its own and wait for them, detached tasks (fulfilled by their
 * own body) and untied ones complete, taskwait and a taskgroup wait for all of them, and
 * the tasks still ran on more than one thread.  Each task does a little work (about a
 * microsecond): tomp runs a task at once when its function is measured as tiny, and these
 * must be queued. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

enum { TASKS = 20000, BIG = 512, MAXT = 32 };

static unsigned char ran[TASKS];
static long work_sum;

/* about a microsecond of work whose result is known */
static long work(int i) {
  volatile long acc = 0;
  for (int k = 0; k < 500; k++)
    acc += (i ^ k) & 7;
  return acc;
}

#define DONE(id)                                                                                   \
  do {                                                                                             \
    __atomic_add_fetch(&work_sum, work(id), __ATOMIC_RELAXED);                                     \
    __atomic_add_fetch(&ran[id], 1, __ATOMIC_RELAXED);                                             \
    __atomic_add_fetch(&sum, id, __ATOMIC_RELAXED);                                                \
    __atomic_add_fetch(&on_thread[omp_get_thread_num()], 1, __ATOMIC_RELAXED);                     \
  } while (0)
static unsigned char child_ran[TASKS][2];
static long sum, big_sum;
static int on_thread[MAXT];

struct block {
  int id;
  char pad[BIG];
};

static void run(int nthreads) {
  memset(ran, 0, sizeof ran);
  memset(child_ran, 0, sizeof child_ran);
  memset(on_thread, 0, sizeof on_thread);
  sum = big_sum = work_sum = 0;
  int team = 0;
  long children_seen = 0;
#pragma omp parallel num_threads(nthreads)
  {
#pragma omp single
    {
      team = omp_get_num_threads();
      for (int i = 0; i < TASKS; i++) {
        if (i % 7 == 0) {
          /* a large firstprivate block */
          struct block b;
          b.id = i;
          memset(b.pad, (unsigned char)i, sizeof b.pad);
#pragma omp task firstprivate(b)
          {
            int ok = 1;
            for (int k = 0; k < BIG; k++)
              ok &= (unsigned char)b.pad[k] == (unsigned char)b.id;
            if (ok) __atomic_add_fetch(&big_sum, b.id, __ATOMIC_RELAXED);
            DONE(b.id);
          }
        } else if (i % 7 == 1) {
          /* a task with children of its own, waited for */
#pragma omp task firstprivate(i)
          {
            for (int c = 0; c < 2; c++) {
#pragma omp task firstprivate(i, c)
              {
                work(c);
                __atomic_add_fetch(&child_ran[i][c], 1, __ATOMIC_RELAXED);
              }
            }
#pragma omp taskwait
            long seen = child_ran[i][0] + child_ran[i][1];
            __atomic_add_fetch(&children_seen, seen, __ATOMIC_RELAXED);
            DONE(i);
          }
        } else if (i % 7 == 2) {
          omp_event_handle_t ev;
#pragma omp task firstprivate(i) detach(ev)
          {
            DONE(i);
            omp_fulfill_event(ev);
          }
        } else if (i % 7 == 3) {
#pragma omp task firstprivate(i) untied
          DONE(i);
        } else {
#pragma omp task firstprivate(i)
          DONE(i);
        }
        if (i == TASKS / 2) {
          /* every task so far has completed after a taskwait */
#pragma omp taskwait
          for (int k = 0; k <= i; k++)
            CHECKF(ran[k] == 1, "%d threads: task %d ran %d times by the taskwait", nthreads, k,
                   ran[k]);
        }
      }
      /* a taskgroup of more tasks than a deque holds, inside the same producer */
      long g = 0;
#pragma omp taskgroup
      for (int i = 0; i < 1000; i++) {
#pragma omp task firstprivate(i) shared(g)
        __atomic_add_fetch(&g, i + 1, __ATOMIC_RELAXED);
      }
      CHECKF(g == 1000L * 1001 / 2, "%d threads: the taskgroup ended at %ld", nthreads, g);
    }
  }
  CHECKF(team == nthreads, "team of %d, asked for %d", team, nthreads);
  long want = (long)TASKS * (TASKS - 1) / 2, want_big = 0, want_children = 0, want_work = 0;
  for (int i = 0; i < TASKS; i++) {
    want_work += work(i);
    CHECKF(ran[i] == 1, "%d threads: task %d ran %d times", nthreads, i, ran[i]);
    if (i % 7 == 0) want_big += i;
    if (i % 7 == 1) {
      want_children += 2;
      CHECKF(child_ran[i][0] == 1 && child_ran[i][1] == 1,
             "%d threads: the children of task %d ran %d and %d times", nthreads, i,
             child_ran[i][0], child_ran[i][1]);
    }
  }
  CHECKF(sum == want, "%d threads: sum %ld, want %ld", nthreads, sum, want);
  CHECKF(work_sum == want_work, "%d threads: work %ld, want %ld", nthreads, work_sum, want_work);
  CHECKF(big_sum == want_big, "%d threads: firstprivate blocks: %ld, want %ld", nthreads, big_sum,
         want_big);
  CHECKF(children_seen == want_children, "%d threads: taskwaits saw %ld children done, want %ld",
         nthreads, children_seen, want_children);
  int runners = 0;
  for (int t = 0; t < MAXT; t++)
    runners += on_thread[t] != 0;
  CHECKF(runners > 1, "%d threads: all tasks ran on one thread", nthreads);
}

int main(void) {
  omp_set_dynamic(0);
  run(8);
  run(32);
  printf("task_overflow: ok\n");
  return 0;
}
