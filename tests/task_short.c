/* The adaptive cut-off (tomp runs tasks of a function whose tasks are short at once, since
 * deferring them costs more than they do): it must not cost parallelism where there is
 * some.  Thread 0 of a team of two creates the tasks while thread 1 waits in the barrier:
 *   - long tasks (a busy wait of ~100 us) of a function never seen: thread 1 runs some;
 *   - a function whose first 20000 tasks are empty (usually judged short) and whose tasks
 *     then become long: thread 1 runs some of the long ones (four rounds);
 *   - the other way round (long, then empty): every task runs exactly once with its own
 *     firstprivate value, and the values seen add up.
 * Run on libgomp too, which defers while its queue is short, so the checks hold there.
 * test-timeout: 120
 * test-libomp-fails: libomp 14 ran none of round 0's 200 long growing tasks on thread 1 here
 */
#include <omp.h>
#include <string.h>
#include <time.h>

#include "check.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void spin_us(double us) {
  double end = now() + us * 1e-6;
  while (now() < end) {
  }
}

/* per thread, each on its own line: an empty task must stay short wherever it runs (shared
 * counters would make every stolen run a cache-line transfer, and the function "long") */
static struct {
  long count, sum, nlong;
} __attribute__((aligned(64))) per[2];
static long count, sum, by_thread[2];

static void body(int i, double us) {
  int t = omp_get_thread_num() & 1;
  per[t].count++;
  per[t].sum += i;
  if (us > 0) {
    per[t].nlong++;
    spin_us(us);
  }
}

static void reset(void) {
  memset(per, 0, sizeof per);
}

/* totals of the last phase (after its region: the barrier orders the slots' updates) */
static void totals(void) {
  count = per[0].count + per[1].count;
  sum = per[0].sum + per[1].sum;
  by_thread[0] = per[0].nlong;
  by_thread[1] = per[1].nlong;
}

/* one call site per phase: gcc makes one task function per task construct */
static void long_tasks(int n) {
#pragma omp parallel num_threads(2)
#pragma omp single nowait
  for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
    body(i, 100);
  }
}

static void growing_tasks(int nshort, int nlong) {
#pragma omp parallel num_threads(2)
#pragma omp single nowait
  for (int i = 0; i < nshort + nlong; i++) {
    double us = i < nshort ? 0 : 100;
#pragma omp task firstprivate(i, us)
    body(i, us);
  }
}

int main(void) {
  if (omp_get_num_procs() < 2) {
    printf("1 CPU: nothing to check\n");
    return 0;
  }
  /* start the worker first: the checks are about where tasks run, not thread start-up */
  int started = 0;
#pragma omp parallel num_threads(2)
  __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
  CHECK(started == 2);
  reset();
  long_tasks(200);
  totals();
  CHECK(count == 200 && sum == 200L * 199 / 2);
  printf("long tasks: thread 0 ran %ld, thread 1 ran %ld\n", by_thread[0], by_thread[1]);
  CHECK(by_thread[1] > 0);

  /* the empty tasks make the function "short" (or, when stolen runs time slow, keep it
   * deferred): either way some of the 200 long ones that follow must reach thread 1.  Once
   * judged short, a function stays so unless tomp notices its tasks grow, so rounds that
   * start short test exactly that. */
  for (int round = 0; round < 4; round++) {
    reset();
    growing_tasks(20000, 200);
    totals();
    CHECK(count == 20200 && sum == 20200L * 20199 / 2);
    printf("growing tasks, round %d: thread 1 ran %ld of the 200 long ones\n", round,
           by_thread[1]);
    CHECK(by_thread[1] > 0);
  }

  reset();
  long_tasks(50);
  growing_tasks(0, 0);
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 50000; i++) {
#pragma omp task firstprivate(i)
    body(i, 0);
  }
  totals();
  CHECK(count == 50 + 50000 && sum == 50L * 49 / 2 + 50000L * 49999 / 2);
  printf("ok\n");
  return 0;
}
