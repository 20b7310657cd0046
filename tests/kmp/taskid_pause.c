/* libomp's task numbers (__kmpc_get_taskid, __kmpc_get_parent_taskid: nonzero for every task,
 * distinct while both live, the parent's for a child) and its pause entry point
 * (__kmpc_pause_resource: a soft pause answered 0 outside a region, the runtime usable
 * afterwards; an unknown level refused), called directly as programs and libomptarget do. */
#include <omp.h>
#include <stdint.h>

#include "../check.h"

uint64_t __kmpc_get_taskid(void);
uint64_t __kmpc_get_parent_taskid(void);
int __kmpc_pause_resource(int level);

/* libomp's release builds do not number tasks: every answer is ~0 (then only that is
 * checked, for every call); tomp numbers every task. */
static int numbered = 1;
#define ID_CHECK(c) CHECK(numbered ? (c) : 1)

/* Pause, then the runtime still works.  A soft pause only: after a hard pause libomp 14 aborts
 * this program ("Thread identifier invalid"); tests/kmp/threadprivate_dtor.c pauses hard. */
static void pause_and_run(void) {
  for (int level = 1; level <= 1; level++) {
    CHECKF(__kmpc_pause_resource(level) == 0, "level %d", level);
    int n = 0;
#pragma omp parallel num_threads(4) reduction(+ : n)
    n += 1;
    CHECKF(n == 4, "after a pause of level %d: %d threads", level, n);
  }
}

int main(void) {
  omp_set_dynamic(0);
  uint64_t initial = __kmpc_get_taskid();
  CHECK(initial != 0);
  numbered = initial != ~(uint64_t)0;

  /* an explicit task: its own number, its parent the encountering task */
  uint64_t child = 0, parent = 0;
#pragma omp task shared(child, parent)
  {
    child = __kmpc_get_taskid();
    parent = __kmpc_get_parent_taskid();
  }
#pragma omp taskwait
  CHECKF(numbered ? child != 0 && child != initial && parent == initial
                  : child == initial && parent == initial,
         "initial %llu child %llu parent %llu", (unsigned long long)initial,
         (unsigned long long)child, (unsigned long long)parent);

  /* the implicit tasks of a team: distinct numbers, each with a task nested in it */
  enum { T = 4 };
  uint64_t implicit[T] = {0}, nested[T] = {0}, nested_parent[T] = {0};
  int bad = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    implicit[t] = __kmpc_get_taskid();
#pragma omp task firstprivate(t)
    {
      nested[t] = __kmpc_get_taskid();
      nested_parent[t] = __kmpc_get_parent_taskid();
    }
#pragma omp taskwait
  }
  for (int t = 0; t < T; t++) {
    CHECK(implicit[t] != 0 && nested[t] != 0 && nested_parent[t] == implicit[t]);
    ID_CHECK(nested[t] != implicit[t]);
    for (int u = 0; u < t; u++)
      bad += numbered && implicit[u] == implicit[t];
  }
  CHECK(bad == 0);
  CHECK(__kmpc_get_taskid() == initial);

  pause_and_run();
  CHECK(__kmpc_pause_resource(7) != 0);
  puts("ok");
  return 0;
}
