/* Recursive fib with tasks and taskwait (deep nesting, many small tasks), with and without
 * a final() cut-off, on several team sizes. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_final(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a) final(n < 12)
  a = fib_final(n - 1);
#pragma omp task shared(b) final(n < 12)
  b = fib_final(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

int main(void) {
  const int N = 22;
  long want = fib_seq(N);
  int sizes[] = {1, 2, 4, 8};
  for (int k = 0; k < 4; k++) {
    long r1 = 0, r2 = 0;
#pragma omp parallel num_threads(sizes[k])
    {
#pragma omp masked
      r1 = fib(N);
    }
    CHECK(r1 == want);
#pragma omp parallel num_threads(sizes[k])
    {
#pragma omp masked
      r2 = fib_final(N + 3);
    }
    CHECK(r2 == fib_seq(N + 3));
  }
  /* outside any parallel region: tasks run on the initial thread */
  CHECK(fib(15) == fib_seq(15));
  puts("ok");
  return 0;
}
