/* tomp-prof report test: spinning versus blocked waiting (issue 18).  Thread 0 computes for
 * 0.8 s of wall time while thread 1 waits in the closing barrier.  With
 * OMP_WAIT_POLICY=active the waiting thread spins (CPU time while it waits), with passive it
 * sleeps (almost none): the report's cpu column for `omp barrier wait` must tell them apart. */
#include <omp.h>
#include <stdio.h>

static double sink;

__attribute__((noinline)) double compute(double until) {
  double s = 0;
  while (omp_get_wtime() < until)
    for (int i = 0; i < 10000; i++)
      s += (double)i * 0.5 / (double)(i + 1);
  return s;
}

int main(void) {
  double end = omp_get_wtime() + 0.8;
  int n = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      sink = compute(end);
      n = omp_get_num_threads();
    }
  }
  printf("%d threads (%g)\n", n, sink);
  return n == 2 ? 0 : 1;
}
