/* tomp-prof recorder test: explicit tasks created by make_tasks (on one thread, inside a
 * single) and run by the team: their samples must carry task contexts whose parent is the
 * region's context. */
#include <omp.h>
#include <stdio.h>

static double results[64];

__attribute__((noinline)) double task_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 11);
  return s;
}

__attribute__((noinline)) void make_tasks(void) {
  for (int i = 0; i < 64; i++) {
#pragma omp task firstprivate(i)
    results[i] = task_work(600000);
  }
#pragma omp taskwait
}

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  make_tasks();
  double t = 0;
  for (int i = 0; i < 64; i++) t += results[i];
  printf("total %g\n", t);
  return t > 0 ? 0 : 1;
}
