/* The workload of bench/count.sh: K barriers, K fork/joins or K tasks from one producer in
 * a team of N threads, run on the counting build (make COUNT=1), which prints its counts at
 * exit.  Checks what it ran (the team size, the tasks' sum) so that a count never comes
 * from a smaller team or a broken run.
 *   count barrier|forkjoin|steal N K */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

static void work(unsigned long n) {
  unsigned long x = n;
  for (unsigned long i = 0; i < 2000; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: count barrier|forkjoin|steal N K\n");
    return 64;
  }
  const char *mode = argv[1];
  int n = atoi(argv[2]), k = atoi(argv[3]), bad = 0;
  long sum = 0;
  if (!strcmp(mode, "barrier")) {
#pragma omp parallel num_threads(n) reduction(+ : bad)
    {
      bad += omp_get_num_threads() != n;
      for (int i = 0; i < k; i++) {
#pragma omp barrier
      }
    }
  } else if (!strcmp(mode, "forkjoin")) {
    for (int i = 0; i < k; i++) {
#pragma omp parallel num_threads(n) reduction(+ : bad)
      bad += omp_get_num_threads() != n;
    }
  } else if (!strcmp(mode, "steal")) {
#pragma omp parallel num_threads(n) reduction(+ : bad)
    {
      bad += omp_get_num_threads() != n;
#pragma omp single
      for (int i = 0; i < k; i++) {
#pragma omp task firstprivate(i) shared(sum)
        {
          work((unsigned long)i);
          __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
        }
      }
    }
    if (sum != (long)k * (k - 1) / 2) bad++;
  } else {
    fprintf(stderr, "count: unknown mode %s\n", mode);
    return 64;
  }
  if (bad) {
    fprintf(stderr, "count: %s N=%d K=%d: wrong team size or result\n", mode, n, k);
    return 2;
  }
  return 0;
}
