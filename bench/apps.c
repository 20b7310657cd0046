/* A team far larger than the machine, as OpenMP_VV's tests ask for: one parallel region of
 * num_threads(N) (default 10000), timed from before the fork to after the join.  Used by
 * bench/apps.sh as the "team10000" row (issue 19).  Its own verification: every thread of the
 * team ran the body exactly once, and the team is no larger than asked for (an
 * implementation may give fewer threads, OpenMP 5.2 section 10.1.1, and says how many).
 *
 *   apps [N]      prints "team: asked N, got M, bodies run M: ok" and "time = S s";
 *                 exits 0 when verified, 2 when not, 64 on a bad argument.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *end = NULL;
  long want = argc > 1 ? strtol(argv[1], &end, 10) : 10000;
  if (argc > 2 || (end && *end) || want < 1 || want > 1000000) {
    fprintf(stderr, "usage: %s [threads, 1..1000000]\n", argv[0]);
    return 64;
  }
  int ran = 0, size = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel num_threads((int)want)
  {
#pragma omp atomic
    ran++;
#pragma omp single
    size = omp_get_num_threads();
  }
  double t = omp_get_wtime() - t0;
  int ok = size >= 1 && size <= want && ran == size;
  printf("team: asked %ld, got %d, bodies run %d: %s\n", want, size, ran, ok ? "ok" : "WRONG");
  printf("time = %.6f s\n", t);
  return ok ? 0 : 2;
}
