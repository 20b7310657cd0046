/* Explicit tasks: every task runs exactly once with its firstprivate values captured at
 * creation, taskwait waits for children (not grandchildren), if(0) tasks run before the
 * encountering task goes on, final/included tasks and omp_in_final, mergeable, untied,
 * taskyield, big and over-aligned argument blocks (cpyfn via a VLA), tasks completed by the
 * implicit barrier and by an explicit barrier.
 * test-gcc-only: clang 14 rejects firstprivate of a variable-length array on task */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 2000
static int hits[N];

struct big {
  double v[40];
} __attribute__((aligned(128)));

static void vla_tasks(int n, int *out) {
  int vla[n];
  for (int i = 0; i < n; i++) vla[i] = i * 3;
#pragma omp task firstprivate(vla) shared(out)
  {
    int s = 0;
    for (int i = 0; i < n; i++) s += vla[i];
    *out = s;
  }
  for (int i = 0; i < n; i++) vla[i] = -1; /* the task has its own copy */
#pragma omp taskwait
}

int main(void) {
  /* each task once, firstprivate captured at creation */
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      __atomic_add_fetch(&hits[i], i + 1, __ATOMIC_RELAXED);
    }
    /* implicit barrier completes the tasks */
  }
  for (int i = 0; i < N; i++) CHECK(hits[i] == i + 1);

  /* taskwait waits for the children */
  memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(3)
  {
    int me = omp_get_thread_num();
    for (int i = me; i < N; i += 3) {
#pragma omp task firstprivate(i)
      {
        volatile int spin = 0;
        for (int k = 0; k < 100; k++) spin += k;
        hits[i] = 1;
      }
    }
#pragma omp taskwait
    for (int i = me; i < N; i += 3) CHECK(hits[i] == 1);
  }

  /* explicit barrier completes all tasks of the team */
  memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(4)
  {
    int me = omp_get_thread_num();
    for (int i = me; i < N; i += 4) {
#pragma omp task firstprivate(i)
      hits[i] = 2;
    }
#pragma omp barrier
    for (int i = 0; i < N; i++) CHECK(hits[i] == 2);
  }

  /* if(0): runs before the encountering task continues; it is a real task */
#pragma omp parallel num_threads(2)
  {
    int done = 0, outer_final = omp_in_final();
#pragma omp task if (0) shared(done)
    {
      done = 1;
      CHECK(!omp_in_final());
    }
    CHECK(done == 1);
    CHECK(!outer_final);
  }

  /* final: the task and its descendants are final; children are included (run at once) */
  int order[4] = {0}, pos = 0;
  int fin = 0, child_fin = 0, grandchild_fin = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
#pragma omp task final(1) shared(fin, child_fin, grandchild_fin, order, pos)
      {
        fin = omp_in_final();
#pragma omp task shared(child_fin, grandchild_fin, order, pos)
        {
          child_fin = omp_in_final();
          order[pos++] = 1;
#pragma omp task shared(grandchild_fin, order, pos)
          {
            grandchild_fin = omp_in_final();
            order[pos++] = 2;
          }
          order[pos++] = 3;
        }
        order[pos++] = 4;
      }
#pragma omp taskwait
    }
  }
  CHECK(fin == 1 && child_fin == 1 && grandchild_fin == 1);
  CHECK(pos == 4 && order[0] == 1 && order[1] == 2 && order[2] == 3 && order[3] == 4);
  CHECK(!omp_in_final());

  /* mergeable and untied tasks compute the right thing */
  long msum = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    for (int i = 0; i < 500; i++) {
#pragma omp task mergeable firstprivate(i) shared(msum)
      __atomic_add_fetch(&msum, i, __ATOMIC_RELAXED);
#pragma omp task untied firstprivate(i) shared(msum)
      {
#pragma omp taskyield
        __atomic_add_fetch(&msum, i, __ATOMIC_RELAXED);
      }
    }
  }
  CHECK(msum == 2 * (499L * 500 / 2));

  /* firstprivate VLA (copied by cpyfn) and an over-aligned argument block */
  int vs = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    vla_tasks(300, &vs);
  }
  CHECK(vs == 3 * (299 * 300 / 2));
  struct big b;
  for (int i = 0; i < 40; i++) b.v[i] = i;
  double bs = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
#pragma omp task firstprivate(b) shared(bs)
      {
        CHECK(((unsigned long)&b & 127) == 0);
        double s = 0;
        for (int i = 0; i < 40; i++) s += b.v[i];
        bs = s;
      }
      b.v[0] = 1000;
    }
  }
  CHECK(bs == 780.0);

  /* taskwait outside a parallel region, with tasks that ran on the initial thread */
  int z = 0;
#pragma omp task shared(z)
  z = 5;
#pragma omp taskwait
  CHECK(z == 5);
  CHECK(omp_get_max_task_priority() >= 0);
  puts("ok");
  return 0;
}
