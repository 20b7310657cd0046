/* taskloop: long and unsigned long long loops, up and down, grainsize (plain and strict),
 * num_tasks, nogroup, reduction, if(0), final, and loops with no iterations.  Every
 * iteration runs exactly once; chunk sizes respect the clauses.
 * test-gcc-only: clang 14 rejects grainsize(strict:) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 1000
static int hit[N];
static int nchunks, chunk_size[N], chunk_min, chunk_max;

static void reset(void) {
  memset(hit, 0, sizeof hit);
  nchunks = 0;
  chunk_min = 1 << 30;
  chunk_max = 0;
}

/* one call per task, with the number of iterations the task ran */
static void record_chunk(int size) {
  int k = __atomic_fetch_add(&nchunks, 1, __ATOMIC_RELAXED);
  chunk_size[k] = size;
}

static void summarise(void) {
  for (int k = 0; k < nchunks; k++) {
    if (chunk_size[k] < chunk_min) chunk_min = chunk_size[k];
    if (chunk_size[k] > chunk_max) chunk_max = chunk_size[k];
  }
}

static void check_all(int n, int times) {
  for (int i = 0; i < n; i++) CHECK(hit[i] == times);
}

/* A task's iterations are contiguous: each task remembers its first iteration in a
 * firstprivate variable and counts its iterations in the slot of that first iteration. */
static int count_of[N];

static void run_tests(void) {
  /* grainsize(7) over 1000 iterations: 7..13 iterations per task */
  reset();
  memset(count_of, 0, sizeof count_of);
#pragma omp taskloop grainsize(7)
  for (long i = 0; i < N; i++) {
    __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
  }
  check_all(N, 1);

  /* chunk sizes: a task's iterations are contiguous; use a firstprivate marker */
  reset();
  {
    int start = -1;
#pragma omp taskloop grainsize(7) firstprivate(start)
    for (int i = 0; i < N; i++) {
      if (start < 0) start = i;
      __atomic_add_fetch(&count_of[start], 1, __ATOMIC_RELAXED);
      hit[i]++;
    }
    for (int i = 0; i < N; i++)
      if (count_of[i]) record_chunk(count_of[i]);
    summarise();
    check_all(N, 1);
    CHECK(chunk_min >= 7 && chunk_max < 14);
  }

  /* strict grainsize: exactly 7 except the last */
  reset();
  memset(count_of, 0, sizeof count_of);
  {
    int start = -1;
#pragma omp taskloop grainsize(strict : 7) firstprivate(start)
    for (int i = 0; i < N; i++) {
      if (start < 0) start = i;
      __atomic_add_fetch(&count_of[start], 1, __ATOMIC_RELAXED);
      hit[i]++;
    }
    check_all(N, 1);
    for (int i = 0; i < N; i++) {
      if (!count_of[i]) continue;
      record_chunk(count_of[i]);
      if (i + 7 < N) CHECK(count_of[i] == 7);
    }
    CHECK(nchunks == (N + 6) / 7);
  }

  /* num_tasks(13): 13 tasks */
  reset();
  memset(count_of, 0, sizeof count_of);
  {
    int start = -1;
#pragma omp taskloop num_tasks(13) firstprivate(start)
    for (int i = 0; i < N; i++) {
      if (start < 0) start = i;
      __atomic_add_fetch(&count_of[start], 1, __ATOMIC_RELAXED);
      hit[i]++;
    }
    check_all(N, 1);
    for (int i = 0; i < N; i++)
      if (count_of[i]) record_chunk(count_of[i]);
    CHECK(nchunks == 13);
    summarise();
    CHECK(chunk_max - chunk_min <= 1);
  }

  /* more tasks requested than iterations */
  reset();
#pragma omp taskloop num_tasks(50)
  for (int i = 0; i < 10; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
  check_all(10, 1);

  /* negative step, long */
  reset();
#pragma omp taskloop grainsize(5)
  for (long i = N - 1; i >= 0; i -= 3) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
  for (int i = 0; i < N; i++) CHECK(hit[i] == ((N - 1 - i) % 3 == 0));

  /* unsigned long long, up and down */
  reset();
#pragma omp taskloop num_tasks(7)
  for (unsigned long long i = 5; i < N; i += 2) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
  for (int i = 0; i < N; i++) CHECK(hit[i] == (i >= 5 && (i - 5) % 2 == 0));
  reset();
  /* (offset: gcc 12 mis-compiles unsigned downward taskloops whose last chunk would end
   * below zero, on any runtime) */
#pragma omp taskloop grainsize(10)
  for (unsigned long long i = N - 1 + 100; i > 102; i -= 4)
    __atomic_add_fetch(&hit[i - 100], 1, __ATOMIC_RELAXED);
  for (int i = 0; i < N; i++) CHECK(hit[i] == (i > 2 && (N - 1 - i) % 4 == 0));
  /* values near the top of the unsigned range */
  int top = 0;
#pragma omp taskloop num_tasks(4) shared(top)
  for (unsigned long long i = ~0ull - 100; i < ~0ull; i++)
    __atomic_add_fetch(&top, 1, __ATOMIC_RELAXED);
  CHECK(top == 100);

  /* no iterations */
  int none = 0;
#pragma omp taskloop shared(none)
  for (int i = 10; i < 5; i++) none = 1;
  CHECK(none == 0);

  /* reduction */
  long s = 0;
#pragma omp taskloop reduction(+ : s) grainsize(16)
  for (long i = 0; i < N; i++) s += i;
  CHECK(s == (N - 1L) * N / 2);
  long s2 = 0;
#pragma omp taskloop reduction(+ : s2)
  for (long i = 0; i < 0; i++) s2 += i;
  CHECK(s2 == 0);

  /* nogroup: the loop's tasks are only waited for by taskwait */
  reset();
#pragma omp taskloop nogroup num_tasks(8)
  for (int i = 0; i < N; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
  check_all(N, 1);

  /* nogroup + reduction into an enclosing taskgroup */
  long t = 0;
#pragma omp taskgroup task_reduction(+ : t)
  {
#pragma omp taskloop nogroup in_reduction(+ : t) grainsize(50)
    for (int i = 0; i < N; i++) t += 2;
  }
  CHECK(t == 2 * N);

  /* if(0), final */
  reset();
  int zero = 0;
#pragma omp taskloop if (zero) num_tasks(4)
  for (int i = 0; i < 100; i++) hit[i]++;
  check_all(100, 1);
  reset();
  int finals = 0;
#pragma omp taskloop final(1) num_tasks(4) shared(finals)
  for (int i = 0; i < 100; i++) {
    hit[i]++;
    if (omp_in_final()) __atomic_add_fetch(&finals, 1, __ATOMIC_RELAXED);
  }
  check_all(100, 1);
  CHECK(finals == 100);
}

int main(void) {
  for (int nt = 1; nt <= 4; nt *= 2) {
#pragma omp parallel num_threads(nt)
    {
#pragma omp masked
      run_tests();
    }
  }
  run_tests(); /* orphaned */

  /* every thread runs its own taskloop */
  static int h2[4][N];
#pragma omp parallel num_threads(4)
  {
    int me = omp_get_thread_num();
#pragma omp taskloop grainsize(32)
    for (int i = 0; i < N; i++) h2[me][i]++;
  }
  for (int t = 0; t < 4; t++)
    for (int i = 0; i < N; i++) CHECK(h2[t][i] == 1);
  puts("ok");
  return 0;
}
