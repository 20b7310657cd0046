/* tomp-prof report test: nested parallel regions (2 x 2 threads).  Samples in nested_leaf
 * must read main -> outer -> (outer's body) -> inner -> (inner's body) -> nested_leaf on
 * every thread, whichever thread created the inner team. */
#include <omp.h>
#include <stdio.h>

static double out[4];

__attribute__((noinline)) double nested_leaf(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 5);
  return s;
}

__attribute__((noinline)) void inner(int o) {
#pragma omp parallel num_threads(2)
  out[o * 2 + omp_get_thread_num()] += nested_leaf(3000000);
  __asm__ volatile("" ::: "memory"); /* no tail call: keep inner() on the stack */
}

__attribute__((noinline)) void outer(void) {
#pragma omp parallel num_threads(2)
  {
    inner(omp_get_thread_num());
    __asm__ volatile("" ::: "memory");
  }
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  omp_set_max_active_levels(2);
  for (int r = 0; r < 6; r++) outer();
  double t = out[0] + out[1] + out[2] + out[3];
  printf("total %g\n", t);
  return t > 0 ? 0 : 1;
}
