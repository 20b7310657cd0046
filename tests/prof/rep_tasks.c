/* tomp-prof report test: explicit tasks created in spawn_tasks() (inside a single) and run
 * by both threads: samples in task_work must sit under spawn_tasks on every thread. */
#include <omp.h>
#include <stdio.h>

static double results[48];

__attribute__((noinline)) double task_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 13);
  return s;
}

__attribute__((noinline)) double spawn_tasks(void) {
  for (int i = 0; i < 48; i++) {
#pragma omp task firstprivate(i)
    results[i] = task_work(1500000);
  }
#pragma omp taskwait
  double t = 0;
  for (int i = 0; i < 48; i++) t += results[i];
  return t;
}

int main(void) {
  double t = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  t = spawn_tasks();
  printf("total %g\n", t);
  return t > 0 ? 0 : 1;
}
