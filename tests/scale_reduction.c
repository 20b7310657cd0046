/* Reductions in teams of 32, 64 and 128 threads on a small machine: parallel-for reductions
 * of several operators, repeated (each one's combination runs through the barrier), with
 * static, dynamic and guided schedules, and a reduction of a region's own value.
 * test-timeout: 240 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static void run(int n) {
  const long N = 20000;
  for (int rep = 0; rep < 5; rep++) {
    long s = 0, mx = -1, cnt = 0;
    double d = 0;
    unsigned long x = 0;
#pragma omp parallel for num_threads(n) reduction(+ : s, d, cnt) reduction(max : mx) reduction(^ : x) schedule(static)
    for (long i = 0; i < N; i++) {
      s += i;
      d += 0.5;
      mx = i > mx ? i : mx;
      x ^= (unsigned long)i * 2654435761u;
      cnt++;
    }
    unsigned long xw = 0;
    for (long i = 0; i < N; i++)
      xw ^= (unsigned long)i * 2654435761u;
    CHECKF(s == N * (N - 1) / 2 && cnt == N, "team %d rep %d: s %ld cnt %ld", n, rep, s, cnt);
    CHECKF(d == N * 0.5 && mx == N - 1 && x == xw, "team %d rep %d: d %g max %ld", n, rep, d, mx);
    long s2 = 0;
#pragma omp parallel for num_threads(n) reduction(+ : s2) schedule(dynamic, 7)
    for (long i = 0; i < N; i++)
      s2 += i & 3;
    long s3 = 0;
#pragma omp parallel for num_threads(n) reduction(+ : s3) schedule(guided)
    for (long i = 0; i < N; i++)
      s3 += 1;
    CHECKF(s2 == N / 4 * 6 && s3 == N, "team %d rep %d: dynamic %ld guided %ld", n, rep, s2, s3);
    int threads = 0;
#pragma omp parallel num_threads(n) reduction(+ : threads)
    threads += 1;
    CHECKF(threads == n, "team %d: %d threads", n, threads);
  }
}

int main(void) {
  run(32);
  run(64);
  run(128);
  printf("ok\n");
  return 0;
}
