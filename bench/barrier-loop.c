/* A barrier-heavy loop: many short `parallel for`s in a row, as in the time steps of LULESH
 * (issue 19 item 2, "a busy machine").  Each time step runs LOOPS `parallel for` regions over
 * a small array, so nearly all of the time is fork, join and the barriers between regions:
 * what a runtime's waiting costs when a partner thread is not running.
 *
 *   barrier-loop [STEPS [N [LOOPS]]]   (default 1000 steps, N = 2048 doubles, 4 loops)
 *
 * Prints "barrier-loop: T threads, STEPS steps, ... s" and checks the array against the
 * same arithmetic done serially (exit 2 on a wrong result, 64 on a bad argument).  Used by
 * bench/contention.sh; docs/benchmarks.md, "Contention". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long arg(char **argv, int argc, int i, long def) {
  if (argc <= i) return def;
  char *end;
  long v = strtol(argv[i], &end, 10);
  return *end || v < 1 || v > 100000000 ? -1 : v;
}

/* One time step's arithmetic on element i (integer-valued doubles: exact in any order). */
static inline double step_a(double x, long i) {
  return x + (double)(i % 7);
}
static inline double step_b(double x, double y) {
  return x - y + 3.0;
}

int main(int argc, char **argv) {
  long steps = arg(argv, argc, 1, 1000), n = arg(argv, argc, 2, 2048),
       loops = arg(argv, argc, 3, 4);
  if (steps < 0 || n < 0 || loops < 0 || argc > 4) {
    fprintf(stderr, "usage: %s [STEPS [N [LOOPS]]] (positive integers)\n", argv[0]);
    return 64;
  }
  double *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
  double *ra = calloc((size_t)n, sizeof *ra), *rb = calloc((size_t)n, sizeof *rb);
  if (!a || !b || !ra || !rb) return 1;
  int team = 0;
  double t0 = omp_get_wtime();
  for (long s = 0; s < steps; s++) {
    for (long l = 0; l < loops; l++) {
      if (l % 2 == 0) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
          a[i] = step_a(a[i], i + l);
      } else {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) {
          b[i] = step_b(b[i], a[i]);
          if (i == 0) team = omp_get_num_threads();
        }
      }
    }
  }
  double t = omp_get_wtime() - t0;
  for (long s = 0; s < steps; s++)
    for (long l = 0; l < loops; l++)
      for (long i = 0; i < n; i++) {
        if (l % 2 == 0)
          ra[i] = step_a(ra[i], i + l);
        else
          rb[i] = step_b(rb[i], ra[i]);
      }
  for (long i = 0; i < n; i++)
    if (a[i] != ra[i] || b[i] != rb[i]) {
      fprintf(stderr, "barrier-loop: WRONG RESULT at %ld: %g %g, want %g %g\n", i, a[i], b[i],
              ra[i], rb[i]);
      return 2;
    }
  if (loops > 1 && team != omp_get_max_threads()) {
    fprintf(stderr, "barrier-loop: team of %d, want %d\n", team, omp_get_max_threads());
    return 2;
  }
  printf("barrier-loop: %d threads, %ld steps of %ld loops over %ld, %.4f s\n",
         omp_get_max_threads(), steps, loops, n, t);
  free(a);
  free(b);
  free(ra);
  free(rb);
  return 0;
}
