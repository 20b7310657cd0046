/* test-env: OMP_THREAD_LIMIT=4 OMP_DYNAMIC=false
 *
 * thread-limit-var bounds each contention group: a target region run on the host starts a
 * new group (its parallel regions get threads although the encountering group uses all of
 * its limit), and parallel regions forked at the same time inside one group never hold more
 * threads together than the limit.
 * test-gcc-only: clang 14 runs target if(0) as a plain call: no new contention group reaches the runtime (libomp fails it alike) */
#include <omp.h>
#include "check.h"

int main(void) {
  CHECK(omp_get_thread_limit() == 4);
  omp_set_max_active_levels(3);
  int inner_ok = 0;
#pragma omp parallel num_threads(4) reduction(+ : inner_ok)
  {
    CHECK(omp_get_num_threads() == 4);
    if (omp_get_thread_num() == 1) {
#pragma omp target if (0) map(tofrom : inner_ok)
      {
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
          inner_ok += omp_get_num_threads() == 2;
        }
      }
    }
  }
  CHECK(inner_ok == 2);

  for (int round = 0; round < 50; round++) {
    int live = 0, worst = 0;
#pragma omp parallel num_threads(2) shared(live, worst)
#pragma omp parallel num_threads(4) shared(live, worst)
    {
      int v;
#pragma omp atomic capture
      v = ++live;
#pragma omp barrier
#pragma omp atomic read
      v = live;
#pragma omp critical
      if (v > worst) worst = v;
#pragma omp barrier
#pragma omp atomic
      live--;
    }
    CHECK(worst <= 4);
  }
  return 0;
}
