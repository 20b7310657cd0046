/* omp_get_wtime / omp_get_wtick: CLOCK_MONOTONIC, so elapsed times never go backwards when
 * the wall clock is adjusted.  The origin is arbitrary (boot), which the specification allows:
 * only differences are meaningful. */
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

/* Fortran */
double omp_get_wtime_(void);
double omp_get_wtick_(void);
TOMP_EXPORT double omp_get_wtime_(void) __attribute__((alias("omp_get_wtime"), nothrow));
TOMP_EXPORT double omp_get_wtick_(void) __attribute__((alias("omp_get_wtick"), nothrow));
