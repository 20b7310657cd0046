/* tomp-prof report test: a parallel loop where thread 0's iterations cost three times thread
 * 1's (static schedule, 2 threads, 4 iterations: heavy_rows for 0-1, light_rows for 2-3, the
 * same kernel).
 * The report must show imbalance ~1.5 (max 3 / mean 2), thread 1's barrier wait, and the
 * barrier idleness blamed on heavy_rows.  Built -O2 without frame pointers. */
#include <omp.h>
#include <stdio.h>

static double sink[4];

__attribute__((noinline)) double kernel(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i * 0.5 / (double)(i + 1);
  return s;
}

/* "+ 1" keeps them on the stack (no tail call into kernel) */
__attribute__((noinline)) double heavy_rows(long n) { return kernel(3 * n) + 1; }
__attribute__((noinline)) double light_rows(long n) { return kernel(n) + 1; }

__attribute__((noinline)) void compute(long n) {
#pragma omp parallel for schedule(static) num_threads(2)
  for (int i = 0; i < 4; i++) sink[i] += i < 2 ? heavy_rows(n) : light_rows(n);
}

int main(void) {
  for (int rep = 0; rep < 6; rep++) compute(6000000);
  double t = sink[0] + sink[1] + sink[2] + sink[3];
  printf("total %g\n", t);
  return t > 0 ? 0 : 1;
}
