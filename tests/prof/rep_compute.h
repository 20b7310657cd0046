/* Shared by tomp-prof's test programs: compute (CPU-bound, no system call but the clock
 * read) until the wall clock passes `until` (omp_get_wtime seconds), so that the work's
 * duration holds on a loaded machine. */
#ifndef REP_COMPUTE_H
#define REP_COMPUTE_H
#include <omp.h>

__attribute__((noinline)) double compute_until(double until) {
  double s = 0;
  while (omp_get_wtime() < until)
    for (int i = 0; i < 10000; i++)
      s += (double)i * 0.5 / (double)(i + 1);
  return s;
}

#endif
