/* scan reductions: inclusive and exclusive prefix sums with `reduction(inscan, ...)`, which
 * gcc compiles to GOMP_loop_start(..., mem) where *mem is a byte size in and a team-shared
 * zeroed block out; 1..4 threads and more threads than iterations.
 * test-gcc-only: its clang 14 build fails the check on libomp 14 too (clang's inscan lowering) */
#include <omp.h>

#include "check.h"

#define N 3000
static long a[N], b[N], c[N];

int main(void) {
  for (int i = 0; i < N; i++) a[i] = (i * 7919) % 101 - 50;
  for (int t = 1; t <= 6; t++) {
    int n = t == 6 ? 4 : N;
    for (int rep = 0; rep < 20; rep++) {
      long x = 0, y = 0;
#pragma omp parallel num_threads(t)
      {
#pragma omp for reduction(inscan, + : x)
        for (int i = 0; i < n; i++) {
          x += a[i];
#pragma omp scan inclusive(x)
          b[i] = x;
        }
#pragma omp for reduction(inscan, + : y)
        for (int i = 0; i < n; i++) {
          c[i] = y;
#pragma omp scan exclusive(y)
          y += a[i];
        }
      }
      long s = 0;
      for (int i = 0; i < n; i++) {
        CHECK(c[i] == s);
        s += a[i];
        CHECK(b[i] == s);
      }
      CHECK(x == s && y == s);
    }
  }
  /* combined form */
  long z = 0;
#pragma omp parallel for reduction(inscan, + : z) num_threads(3)
  for (int i = 0; i < N; i++) {
    z += a[i];
#pragma omp scan inclusive(z)
    b[i] = z;
  }
  long s = 0;
  for (int i = 0; i < N; i++) CHECK(b[i] == (s += a[i]));
  puts("ok");
  return 0;
}
