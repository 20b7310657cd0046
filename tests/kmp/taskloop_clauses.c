/* taskloop as clang compiles it: the bounds live in each chunk task's privates, task_dup
 * copies firstprivates and tells the last chunk it is last (lastprivate), grainsize and
 * num_tasks shape the chunks, nogroup leaves the tasks to a taskwait, if(0) runs every chunk
 * at once, collapse(2) and negative strides, untied and priority chunks, C++-free firstprivate
 * arrays copied into every chunk. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

#define N 1000
static int hit[N];

static void reset(void) {
  memset(hit, 0, sizeof hit);
}
static void all_once(const char *what) {
  for (int i = 0; i < N; i++)
    CHECKF(hit[i] == 1, "%s: iteration %d ran %d times", what, i, hit[i]);
}

static void loops(void) {
  int last = -1, fp[4] = {1, 2, 3, 4}, bad = 0, chunks = 0;
  reset();
#pragma omp taskloop lastprivate(last) firstprivate(fp) grainsize(10) shared(bad, chunks)
  for (int i = 0; i < N; i++) {
    __atomic_fetch_add(&hit[i], 1, __ATOMIC_RELAXED);
    if (fp[0] + fp[1] + fp[2] + fp[3] != 10) bad = 1;
    fp[0] += 100; /* this chunk's copy only */
    fp[0] -= 100;
    last = i;
  }
  all_once("grainsize");
  CHECK(!bad && last == N - 1);

  reset();
  int lp = 0;
#pragma omp taskloop num_tasks(7) lastprivate(lp)
  for (int i = N - 1; i >= 0; i--) {
    __atomic_fetch_add(&hit[i], 1, __ATOMIC_RELAXED);
    lp = i;
  }
  all_once("num_tasks, downwards");
  CHECK(lp == 0);

  reset();
#pragma omp taskloop collapse(2) grainsize(33)
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < N / 10; j++)
      __atomic_fetch_add(&hit[i * (N / 10) + j], 1, __ATOMIC_RELAXED);
  all_once("collapse(2)");

  reset();
#pragma omp taskloop nogroup untied priority(1)
  for (int i = 0; i < N; i += 2)
    __atomic_fetch_add(&hit[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop if (0) num_tasks(4)
  for (int i = 1; i < N; i += 2)
    __atomic_fetch_add(&hit[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
  all_once("nogroup + if(0)");

  /* a taskloop whose tasks create tasks; the implicit taskgroup waits for them too */
  int inner = 0;
#pragma omp taskloop num_tasks(4) shared(inner)
  for (int i = 0; i < 8; i++) {
#pragma omp task shared(inner)
    __atomic_fetch_add(&inner, 1, __ATOMIC_RELAXED);
  }
  CHECK(inner == 8);

  unsigned long long big = 0;
#pragma omp taskloop reduction(+ : big) grainsize(100)
  for (unsigned long long k = 1ull << 40; k < (1ull << 40) + 1000; k++)
    big += k - (1ull << 40);
  CHECK(big == 499500);
}

int main(void) {
  loops();
#pragma omp parallel num_threads(4)
  if (omp_get_thread_num() == 0) loops();
  printf("ok\n");
  return 0;
}
