/* tomp-prof report test: every timer period is accounted for on a loaded machine (issue 18).
 * 4 threads compute for 1.5 s of wall time each; the test runs the program on one CPU
 * (taskset), so each thread runs a quarter of the time and its wall-clock timer expires
 * while it is off the CPU: expiries merge (timer overruns) and signals arrive late.  Known
 * behaviour: the threads' sampled time adds up to wall time x threads. */
#include <omp.h>
#include <stdio.h>

static double sink[4];

__attribute__((noinline)) double compute(double until) {
  double s = 0;
  while (omp_get_wtime() < until)
    for (int i = 0; i < 10000; i++)
      s += (double)i * 0.5 / (double)(i + 1);
  return s;
}

int main(void) {
  int n = 0;
  double end = omp_get_wtime() + 1.5;
#pragma omp parallel num_threads(4)
  {
    sink[omp_get_thread_num()] = compute(end);
#pragma omp single
    n = omp_get_num_threads();
  }
  printf("%d threads computed until the deadline (%g)\n", n, sink[0] + sink[1] + sink[2] + sink[3]);
  return n == 4 ? 0 : 1;
}
