/* atomic on types without a hardware read-modify-write (long double, __int128): gcc brackets
 * them with GOMP_atomic_start/end (tests/scenarios/atomic_fallback.sh checks the binary does
 * call them).  Results must be exact under contention.
 * test-gcc-only: it checks GOMP_atomic_start; clang makes such atomics libatomic calls */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define N 50000

int main(void) {
  long double ld = 0;
  __int128 big = (__int128)1 << 100;
  long double mx = 1, prev;
#pragma omp parallel num_threads(4) private(prev)
  for (int i = 0; i < N; i++) {
#pragma omp atomic
    ld += 0.5L;
#pragma omp atomic
    big += 3;
#pragma omp atomic capture
    { mx = mx * 1.0L; prev = mx; }
  }
  CHECK(ld == 0.5L * 4 * N);
  CHECK(big == ((__int128)1 << 100) + (__int128)3 * 4 * N);
  CHECK(mx == 1);
  long double r;
#pragma omp atomic read
  r = ld;
  CHECK(r == 2.0L * N);
  puts("ok");
  return 0;
}
