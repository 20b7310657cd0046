/* An untied task run at once (if(0), or created in a final task) whose body reaches task
 * scheduling points: clang's code calls __kmpc_omp_task on it from inside the body that
 * __kmpc_omp_task_begin_if0 started, and the remaining parts must still run, in order, before
 * the task completes: an undeferred task completes before its encountering task resumes.
 * test-libomp-fails: libomp 14 asserts (kmp_tasking.cpp:1571, td_last_tied) on these
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

static void check_all(void) {
  int y = 0;
#pragma omp task untied if (0) shared(y)
  {
#pragma omp task shared(y)
    y += 1;
#pragma omp taskwait
    y += 10;
#pragma omp taskyield
    y += 100;
  }
  CHECK(y == 111);
  int z = 0;
#pragma omp task final(1) shared(z)
  {
#pragma omp task untied shared(z)
    {
      for (int i = 0; i < 1000; i++) {
#pragma omp taskyield
        z++;
      }
    }
    CHECK(z == 1000);
  }
#pragma omp taskwait
  CHECK(z == 1000);
}

int main(void) {
  check_all();
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) check_all();
  printf("ok\n");
  return 0;
}
