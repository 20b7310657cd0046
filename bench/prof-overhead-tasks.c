/* tomp-prof overhead measurement (not a test): ns per explicit task, created by one thread in
 * make_many (two call paths) and run by a team of OMP_NUM_THREADS.  Run it with and without
 * the tool; the difference is the recording cost per task (task_create unwinds the creator's
 * stack and interns its context).  Usage: rec_overhead_tasks [NTASKS] */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long counter;

__attribute__((noinline)) static void tiny(long i) { __atomic_fetch_add(&counter, i & 1, __ATOMIC_RELAXED); }

__attribute__((noinline)) static void make_many(long n) {
  for (long i = 0; i < n; i++) {
    if (i & 1) {
#pragma omp task firstprivate(i)
      tiny(i);
    } else {
#pragma omp task firstprivate(i)
      tiny(i + 1);
    }
  }
#pragma omp taskwait
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  make_many(n);
  double t1 = omp_get_wtime();
  printf("%.0f ns per task (%ld tasks, counter %ld)\n", (t1 - t0) * 1e9 / (double)n, n, counter);
  return counter == n ? 0 : 1;
}
