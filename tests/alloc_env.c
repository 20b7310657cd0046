/* OMP_ALLOCATOR sets the initial def-allocator-var.
 * test-env: OMP_ALLOCATOR=omp_high_bw_mem_alloc
 * test-libomp-fails: libomp 14 falls back from omp_high_bw_mem_alloc to the default allocator
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  CHECK(omp_get_default_allocator() == omp_high_bw_mem_alloc);
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
  bad += omp_get_default_allocator() != omp_high_bw_mem_alloc;
  CHECK(bad == 0);
  void *p = omp_alloc(10, omp_null_allocator);
  CHECK(p);
  omp_free(p, omp_null_allocator);
  puts("ok");
  return 0;
}
