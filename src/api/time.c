/* omp_get_wtime, omp_get_wtick: the monotonic clock. */
#include <time.h>

#include "internal.h"
#include "omp.h"

TOMP_EXPORT double omp_get_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

TOMP_EXPORT double omp_get_wtick(void) {
  struct timespec ts;
  if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) return 1e-9;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
