/* tomp-prof report test: source level (issue 18).  inner_kernel is inlined into
 * middle_step, which is inlined into the parallel loop's body in run_rows: at -O2 none of
 * them has a frame, yet the report must show run_rows; omp parallel @ rep_inline.c:LINE;
 * middle_step; inner_kernel from the DWARF inline scopes, with the lines of the calls. */
#include <omp.h>
#include <stdio.h>

static double out[64];

static inline __attribute__((always_inline)) double inner_kernel(long n, int i) {
  double s = 0;
  for (long k = 0; k < n; k++)
    s += (double)(k ^ i) * 0.5 / (double)(k + 1); /* inner line */
  return s;
}

static inline __attribute__((always_inline)) double middle_step(long n, int i) {
  return inner_kernel(n, i) + 1; /* middle line */
}

__attribute__((noinline)) void run_rows(long n) {
#pragma omp parallel for schedule(static) num_threads(2)
  for (int i = 0; i < 64; i++)
    out[i] = middle_step(n, i);
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  run_rows(400000);
  double t = 0;
  for (int i = 0; i < 64; i++)
    t += out[i];
  printf("%g\n", t);
  return t > 0 ? 0 : 1;
}
