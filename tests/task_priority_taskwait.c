/* prioritized tasks created by every thread of a team, each waiting for its own with
 * taskwait: all run exactly once.
 * test-libgomp-fails: libgomp 12 often crashes in its priority queues here
 * test-env: OMP_MAX_TASK_PRIORITY=10
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  long s = 0;
#pragma omp parallel num_threads(3)
  {
    for (int i = 0; i < 100; i++) {
#pragma omp task priority(i % 11) firstprivate(i) shared(s)
      __atomic_add_fetch(&s, i, __ATOMIC_RELAXED);
    }
#pragma omp taskwait
  }
  CHECK(s == 3 * 4950);
  puts("ok");
  return 0;
}
