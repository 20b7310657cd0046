/* priority: omp_get_max_task_priority reflects OMP_MAX_TASK_PRIORITY and tasks with any
 * priority (including ones above the maximum, which are clamped) all run.  The spec makes
 * priority only a hint for the order, so the order is not checked.
 * test-env: OMP_MAX_TASK_PRIORITY=10
 * NOTE: needs OMP_MAX_TASK_PRIORITY parsed into tomp_g.max_task_priority (environment
 * module). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  CHECK(omp_get_max_task_priority() == 10);
  int ran[300] = {0};
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    for (int i = 0; i < 300; i++) {
#pragma omp task priority(i % 15) firstprivate(i) shared(ran)
      ran[i]++;
    }
  }
  for (int i = 0; i < 300; i++) CHECK(ran[i] == 1);

  puts("ok");
  return 0;
}
