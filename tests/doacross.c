/* doacross loops (ordered(n) with depend(sink)/depend(source)): a wavefront where each cell
 * needs its north and west neighbours, computed in parallel and compared with a serial
 * computation; schedules static, dynamic (also with non-unit and negative steps), guided, runtime. */
#include <omp.h>
#include <string.h>

#include "check.h"

#define R 120
#define C 90
static long g[R][C], ref[R][C];

static long cell(long n, long w, long i, long j) { return (n * 3 + w * 7 + i * 31 + j) % 1000003; }

int main(void) {
  volatile unsigned long long vbig = 1ULL << 63;
  unsigned long long big = vbig;
  (void)big;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      ref[i][j] = cell(i ? ref[i - 1][j] : 1, j ? ref[i][j - 1] : 2, i, j);
  for (int t = 1; t <= 4; t++) {
    for (int kind = 0; kind < 6; kind++) {
      memset(g, 0, sizeof g);
#pragma omp parallel num_threads(t)
      switch (kind) {
      case 0:
#pragma omp for ordered(2) schedule(static)
        for (int i = 0; i < R; i++)
          for (int j = 0; j < C; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            g[i][j] = cell(i ? g[i - 1][j] : 1, j ? g[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
          }
        break;
      case 1:
#pragma omp for ordered(2) schedule(dynamic)
        for (int i = 0; i < R; i++)
          for (int j = 0; j < C; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            g[i][j] = cell(i ? g[i - 1][j] : 1, j ? g[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
          }
        break;
      case 2:
#pragma omp for ordered(2) schedule(dynamic, 2)
        for (long i = 5; i < 5 + 2 * R; i += 2) /* non-unit steps */
          for (long j = C - 1; j >= 0; j--) {
            long r = (i - 5) / 2, c = C - 1 - j;
#pragma omp ordered depend(sink : i - 2, j) depend(sink : i, j + 1)
            g[r][c] = cell(r ? g[r - 1][c] : 1, c ? g[r][c - 1] : 2, r, c);
#pragma omp ordered depend(source)
          }
        break;
      case 3:
#ifdef ULL
#pragma omp for ordered(2) schedule(runtime)
        for (unsigned long long i = big; i < big + R; i++)
          for (unsigned long long j = 0; j < C; j++) {
#else
#pragma omp for ordered(2) schedule(runtime)
        for (int i = 0; i < R; i++)
          for (int j = 0; j < C; j++) {
#endif
#ifdef ULL
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            g[i - big][j] = cell(i > big ? g[i - big - 1][j] : 1, j ? g[i - big][j - 1] : 2, i - big, j);
#pragma omp ordered depend(source)
#else
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            g[i][j] = cell(i ? g[i - 1][j] : 1, j ? g[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
#endif
          }
        break;
      case 5:
#pragma omp for ordered(2) schedule(guided)
        for (int i = 0; i < R; i++)
          for (int j = 0; j < C; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            g[i][j] = cell(i ? g[i - 1][j] : 1, j ? g[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
          }
        break;
      case 4:
#pragma omp for ordered(1) schedule(static, 3)
        for (int i = 0; i < R; i++) {
#pragma omp ordered depend(sink : i - 1)
          for (int j = 0; j < C; j++)
            g[i][j] = cell(i ? g[i - 1][j] : 1, j ? g[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
        }
        break;
      }
      for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) CHECK(g[i][j] == ref[i][j]);
    }
  }
  puts("ok");
  return 0;
}
