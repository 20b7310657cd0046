/* EPCC taskbench's three task rows that issue 19 named, as a program with a fixed amount of
 * work (docs/benchmarks.md, "EPCC at 4 threads: the task rows"), for callgrind, perf and
 * strace, where EPCC's own calibration would change the work from run to run:
 *
 *   epcc-task-rows leaf|branch|barrier REPS
 *
 * leaf:    every thread of the team makes REPS trees of depth 8: 255 tasks, each making the
 *          two below it, and the work done at the 256 leaves (LEAF_TASK_TREE);
 * branch:  every thread makes REPS tasks, each the root of such a tree with the work done in
 *          every task, 256 a rep (BRANCH_TASK_TREE);
 * barrier: every thread makes one task and meets a barrier, REPS times (TASK_BARRIER).
 *
 * A task's work is DELAY iterations of EPCC's delay loop (environment; default 120, about
 * 0.1 us here, EPCC's default delay time).
 * Prints the wall time; checks that every piece of work ran exactly once (exit 1 if not).
 * Build: gcc -O2 -fopenmp -o epcc-task-rows bench/evidence/epcc-task-rows.c */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 8

static int delay_iters = 120;       /* about 0.1 us on this machine: EPCC's default delay */
static unsigned long done_work;     /* summed at the end of the region */
static __thread unsigned long work; /* pieces of work this thread ran: no shared line per task */

/* EPCC's delay(): a local sum the compiler must keep */
static void delay(void) {
  float a = 0.f;
  for (int i = 0; i < delay_iters; i++)
    a += (float)i;
  if (a < 0) printf("%f\n", a);
  work++;
}

/* After the loop: every task of the region is complete once all threads passed a barrier. */
static void tally(void) {
#pragma omp barrier
#pragma omp atomic
  done_work += work;
}

static void leaf_tree(int level) {
  if (level == 0) {
    delay();
    return;
  }
#pragma omp task
  {
    leaf_tree(level - 1);
    leaf_tree(level - 1);
  }
}

static void branch_tree(int level) {
  if (level > 0) {
#pragma omp task
    {
      branch_tree(level - 1);
      branch_tree(level - 1);
      delay();
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[2]) <= 0) {
    fprintf(stderr, "usage: %s leaf|branch|barrier REPS\n", argv[0]);
    return 2;
  }
  const char *row = argv[1];
  int reps = atoi(argv[2]);
  if (getenv("DELAY")) delay_iters = atoi(getenv("DELAY"));
  unsigned long per_thread;
  double t = omp_get_wtime();
  int nthreads = 1;
  if (strcmp(row, "leaf") == 0) {
    per_thread = (unsigned long)reps << DEPTH;
#pragma omp parallel
    {
#pragma omp single nowait
      nthreads = omp_get_num_threads();
      for (int j = 0; j < reps; j++)
        leaf_tree(DEPTH);
      tally();
    }
  } else if (strcmp(row, "branch") == 0) {
    per_thread = (unsigned long)reps << DEPTH; /* 2^DEPTH - 1 tree tasks and the top one */
#pragma omp parallel
    {
#pragma omp single nowait
      nthreads = omp_get_num_threads();
      for (int j = 0; j < reps; j++) {
#pragma omp task
        {
          branch_tree(DEPTH);
          delay();
        }
      }
      tally();
    }
  } else if (strcmp(row, "barrier") == 0) {
    per_thread = (unsigned long)reps;
#pragma omp parallel
    {
#pragma omp single nowait
      nthreads = omp_get_num_threads();
      for (int j = 0; j < reps; j++) {
#pragma omp task
        delay();
#pragma omp barrier
      }
      tally();
    }
  } else {
    fprintf(stderr, "%s: unknown row %s\n", argv[0], row);
    return 2;
  }
  t = omp_get_wtime() - t;
  unsigned long want = per_thread * (unsigned long)nthreads;
  printf("%s reps=%d threads=%d work=%lu %.6f s\n", row, reps, nthreads, done_work, t);
  if (done_work != want) {
    fprintf(stderr, "%s: %lu pieces of work ran, %lu expected\n", row, done_work, want);
    return 1;
  }
  return 0;
}
