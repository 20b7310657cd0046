/* tomp-prof report test: time in the runtime's wait loops is waiting (issue 18).
 * Many short parallel regions whose bodies do almost nothing, then small recursive tasks
 * joined by taskwait, on more threads than CPUs
 * (the test runs it under taskset on one CPU, OMP_WAIT_POLICY=passive): the threads spend
 * their time in the runtime's fork, join and barrier code, much of it waiting for each other
 * (tomp's initial thread yields in its join until the workers are idle; libomp yields in its
 * barriers after work in state work_parallel).  Those samples must be waiting, not work, and
 * the user's work (body) stays small. */
#include <omp.h>
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) void body(int i) {
  sink += i;
}

__attribute__((noinline)) long fib(int n) {
  if (n < 12) {
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
      long c = a + b;
      a = b;
      b = c;
    }
    return a;
  }
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  double t0 = omp_get_wtime();
  int n = 0;
  for (int rep = 0; omp_get_wtime() - t0 < 1.0; rep++) {
#pragma omp parallel num_threads(4)
    body(rep);
    n++;
  }
  double t1 = omp_get_wtime();
  long f = 0;
  int m = 0;
  while (omp_get_wtime() - t1 < 1.0) {
#pragma omp parallel num_threads(4)
#pragma omp single
    f = fib(24);
    m++;
  }
  printf("%d regions in %.3f s, fib(24) = %ld %d times\n", n, t1 - t0, f, m);
  return n > 0 && f == 46368 ? 0 : 1;
}
