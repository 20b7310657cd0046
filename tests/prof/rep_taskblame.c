/* tomp-prof report test: conservation of undirected blame in a task program (issue 18).
 * 4 threads; one thread creates a long task (LONG ms) and many short ones; the other
 * threads take tasks inside the single construct's closing barrier.  Tasks spin on the
 * wall clock, so their durations hold on a loaded machine.  Known behaviour: while the
 * short tasks last, every thread works (a thread running a task in a barrier is working);
 * then three threads wait in the barrier while one finishes the long task.  So the barrier
 * wait sampled (about 3 x (LONG - the short phase)) must equal the blame charged, which all
 * lands on long_task. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

enum { LONG_MS = 700, SHORT_MS = 10, NSHORT = 36 };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void spin(double ms) {
  double end = now() + ms / 1000;
  while (now() < end) {
  }
}

/* "+ asm" keeps the frames on the stack (no tail call into spin) */
__attribute__((noinline)) void long_task(void) {
  spin(LONG_MS);
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void short_task(void) {
  spin(SHORT_MS);
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  int n = 0;
  double t0 = now();
#pragma omp parallel num_threads(4)
  {
#pragma omp single
    {
      n = omp_get_num_threads();
#pragma omp task
      long_task();
      for (int i = 0; i < NSHORT; i++) {
#pragma omp task
        short_task();
      }
    }
  }
  printf("%d threads, %.3f s\n", n, now() - t0);
  return n == 4 ? 0 : 1;
}
