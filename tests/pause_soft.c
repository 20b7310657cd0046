/* omp_pause_resource(omp_pause_soft) outside any region ends the idle workers, as libgomp
 * does: a worker's threadprivate variable starts from its initial value in the next region,
 * and the runtime works on afterwards.  Inside a region, a pause is refused (-1).
 * test-libomp-fails: libomp 14 does not return -1 from omp_pause_resource inside a parallel region */
#include <omp.h>
#include "check.h"

static int tp = 7;
#pragma omp threadprivate(tp)

int main(void) {
  int bad = 0;
#pragma omp parallel num_threads(2)
  tp = 100 + omp_get_thread_num();
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
    bad += tp != 100 + omp_get_thread_num();
    bad += omp_pause_resource(omp_pause_soft, omp_get_initial_device()) != -1;
  }
  CHECK(bad == 0);
  CHECK(omp_pause_resource(omp_pause_soft, omp_get_initial_device()) == 0);
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
    if (omp_get_thread_num() != 0) bad += tp != 7;
    else bad += tp != 100;
  }
  CHECK(bad == 0);
  CHECK(omp_pause_resource_all(omp_pause_soft) == 0);
  int sum = 0;
#pragma omp parallel for num_threads(2) reduction(+ : sum)
  for (int i = 0; i < 100; i++) sum += i;
  CHECK(sum == 4950);
  return 0;
}
