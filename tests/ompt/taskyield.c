/* taskyield that runs another task: the yielding task's task_schedule status is
 * ompt_task_yield (OpenMP 5.2's ompt_task_status_t has it for a task suspended at a taskyield
 * construct), not ompt_task_switch; tomp reported switch before (LLVM's tasks/taskyield test
 * failed on clang code).  Thread 1 spins outside any task scheduling point until thread 0 has
 * yielded, so only thread 0 can run the task, at its taskyield.
 *
 * ompt-run: x3
 * ompt-count: status=yield == 1
 * ompt-count: ^1: task_schedule prior=[0-9]+ status=yield next=[0-9]+ == 1
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  int go = 0, x = 0, by = -1;
#pragma omp parallel num_threads(2) shared(go, x, by)
  {
    if (omp_get_thread_num() == 1) {
      while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        ;
    } else {
#pragma omp task shared(x, by)
      {
        x = 1;
        by = omp_get_thread_num();
      }
#pragma omp taskyield
      __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    }
  }
  CHECK(x == 1);
  CHECK(by == 0 || omp_get_max_threads() == 1);
  printf("ok\n");
  return 0;
}
