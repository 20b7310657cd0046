/* tomp-prof recording test: CPU time per sample.  For about a second, thread 0 computes,
 * thread 1 computes 4 ms and sleeps 6 ms in turn, thread 2 sleeps 20 ms and computes 1 ms in
 * turn: samples of running, sleeping and (under taskset) preempted threads, whose CPU time
 * the test compares with each sample's task-clock counter.  `rec_cputime barriers`: the
 * threads meet in barriers for half a second (with OMP_WAIT_POLICY=passive they block and
 * wake thousands of times a second). */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rep_compute.h"

static double sink[3];

static void nap(double s) {
  struct timespec ts = {0, (long)(s * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

int main(int argc, char **argv) {
  int n = 0;
  if (argc > 1 && !strcmp(argv[1], "barriers")) {
    double stop = omp_get_wtime() + 0.5;
#pragma omp parallel num_threads(3)
    {
      int more = 1;
      while (more) {
#pragma omp barrier
#pragma omp single
        sink[0] = omp_get_wtime() < stop;
        more = sink[0] != 0;
      }
#pragma omp single
      n = omp_get_num_threads();
    }
    printf("%d threads met in barriers\n", n);
    return n == 3 ? 0 : 1;
  }
  double end = omp_get_wtime() + 1.0;
#pragma omp parallel num_threads(3)
  {
    int id = omp_get_thread_num();
    double s = 0;
    while (omp_get_wtime() < end) {
      if (id == 0) {
        s += compute_until(end);
      } else if (id == 1) {
        s += compute_until(omp_get_wtime() + 0.004);
        nap(0.006);
      } else {
        nap(0.020);
        s += compute_until(omp_get_wtime() + 0.001);
      }
    }
    sink[id] = s;
#pragma omp single
    n = omp_get_num_threads();
  }
  printf("%d threads (%g)\n", n, sink[0] + sink[1] + sink[2]);
  return n == 3 ? 0 : 1;
}
