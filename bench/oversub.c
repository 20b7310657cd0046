/* A team far larger than the machine: REGIONS parallel regions of num_threads(N), each thread
 * adding its number into a sum, then a barrier, then a second sum (so every thread waits for
 * all the others twice per region).  Prints the wall time and checks both sums.
 *
 *   oversub N [REGIONS]   (default 1000 threads, 3 regions)
 *
 * OpenMP_VV asks for num_threads(10000); libgomp takes about 0.4 s for one such region on a
 * 2-CPU machine.  Used by docs/benchmarks.md, "Oversubscribed waiting". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int regions = argc > 2 ? atoi(argv[2]) : 3;
  if (n < 1 || regions < 1) return 64;
  omp_set_dynamic(0);
  double t0 = now();
  for (int r = 0; r < regions; r++) {
    long a = 0, b = 0;
    int team = 0;
#pragma omp parallel num_threads(n) reduction(+ : a, b)
    {
      int me = omp_get_thread_num();
#pragma omp single
      team = omp_get_num_threads();
      a += me;
#pragma omp barrier
      b += me + 1;
    }
    long want = (long)team * (team - 1) / 2;
    if (team != n || a != want || b != want + team) {
      fprintf(stderr, "oversub: region %d: team %d of %d, sums %ld %ld, want %ld %ld\n", r, team, n,
              a, b, want, want + team);
      return 1;
    }
  }
  printf("oversub: %d threads, %d regions, %.3f s\n", n, regions, now() - t0);
  return 0;
}
