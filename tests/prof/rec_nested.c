/* tomp-prof recorder test: nested parallel regions created in distinct functions
 * (main -> outer_region -> inner_region), so the inner region's context must have the
 * outer region's context as its parent. */
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) double nested_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i * 0.25 / (double)(i + 3);
  return s;
}

__attribute__((noinline)) double inner_region(void) {
  double t = 0;
#pragma omp parallel num_threads(2) reduction(+ : t)
  t += nested_work(3000000);
  return t;
}

__attribute__((noinline)) double outer_region(void) {
  double t = 0;
#pragma omp parallel num_threads(2) reduction(+ : t)
  t += inner_region();
  return t;
}

int main(void) {
  omp_set_max_active_levels(2);
  double t = 0;
  for (int i = 0; i < 10; i++) t += outer_region();
  printf("total %g\n", t);
  return t > 0 ? 0 : 1;
}
