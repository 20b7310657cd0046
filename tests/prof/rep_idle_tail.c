/* tomp-prof report test: workers after their region are idle (issue 18).  A parallel region
 * of 4 threads computes 0.3 s, then the initial thread computes 0.6 s alone.  LLVM's libomp
 * keeps naming the ended region to its workers, which wait for the next one in a barrier
 * state: they must show as `omp idle`, not as a barrier wait of the region, and blame none
 * of it on the region's code. */
#include <omp.h>
#include <stdio.h>

#include "rep_compute.h"

static double sink[5];

__attribute__((noinline)) double serial_tail(double until) {
  return compute_until(until) + 1;
}

int main(void) {
  double end = omp_get_wtime() + 0.3;
#pragma omp parallel num_threads(4)
  sink[omp_get_thread_num()] = compute_until(end);
  sink[4] = serial_tail(omp_get_wtime() + 0.6);
  printf("%g\n", sink[0] + sink[4]);
  return sink[4] > 0 ? 0 : 1;
}
