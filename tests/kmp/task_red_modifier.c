/* Task reductions with the task modifier as clang compiles them: reduction(task, +: x) on
 * parallel and on a worksharing loop.  Every thread registers its own item (its private copy
 * of the construct's reduction) with __kmpc_taskred_modifier_init on storage the team
 * shares; in_reduction tasks created by any thread and run by any other add into the
 * running thread's copy; __kmpc_task_reduction_modifier_fini combines them once every
 * thread's tasks are done, before the construct's own reduction.  Teams of one and three. */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

static void modifiers(int nth) {
  long p = 0;
#pragma omp parallel num_threads(nth) reduction(task, + : p)
  {
    p += 1;
#pragma omp task in_reduction(+ : p)
    p += 10;
    if (omp_get_thread_num() == 0)
      for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : p)
        p += 1000;
      }
  }
  CHECKF(p == 11L * nth + 50000, "parallel reduction(task) %ld, %d threads", p, nth);

  long w = 0;
#pragma omp parallel num_threads(nth)
  {
#pragma omp for reduction(task, + : w)
    for (int i = 0; i < 100; i++) {
      w += 1;
      if (i % 10 == 0) {
#pragma omp task in_reduction(+ : w)
        w += 100;
      }
    }
  }
  CHECKF(w == 100 + 1000, "for reduction(task) %ld, %d threads", w, nth);
}

int main(void) {
  for (int rep = 0; rep < 20; rep++) {
    modifiers(1);
    modifiers(3);
  }
  printf("ok\n");
  return 0;
}
