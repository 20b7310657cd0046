/* tomp-prof report test: nested regions forked and joined as often as possible (2 x 2
 * threads, tiny bodies), so that many samples fall on a thread forking, joining or starting
 * the inner region.  Every sample must be placed under main;outer (or be idle): a thread of
 * the outer team that forks the inner region is inside outer's body, and the inner team's
 * threads run in inner's region. */
#include <omp.h>
#include <stdio.h>

static volatile double sink[4];

__attribute__((noinline)) void tiny(int i) {
  double s = 0;
  for (int k = 0; k < 200; k++)
    s += (double)k / (double)(k + i + 1);
  sink[i & 3] += s;
}

__attribute__((noinline)) void inner(int o) {
#pragma omp parallel num_threads(2)
  tiny(o * 2 + omp_get_thread_num());
  __asm__ volatile("" ::: "memory"); /* no tail call: keep inner() on the stack */
}

__attribute__((noinline)) void outer(double until) {
#pragma omp parallel num_threads(2)
  {
    int o = omp_get_thread_num();
    while (omp_get_wtime() < until)
      inner(o);
  }
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  omp_set_max_active_levels(2);
  outer(omp_get_wtime() + 1.0);
  printf("%g\n", sink[0] + sink[1] + sink[2] + sink[3]);
  return 0;
}
