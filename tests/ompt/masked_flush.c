/* The gcc side of ompt_clang_masked_flush: gcc inlines masked/master (a thread-number test)
 * and flush (a fence), so a gcc-built program's masked and flush constructs reach no runtime.
 * ompt_set_callback answers `sometimes` for them, not `never`: code another compiler built
 * (clang's, which calls __kmpc_masked / __kmpc_flush) may be loaded into the same process and
 * runs on the same tomp (src/core/abi.c); and `sometimes_paired` for work and sync_region, as
 * before.  No masked or flush event is seen.
 *
 * ompt-run:
 * ompt-filecheck: CHECK
 * ompt-count: masked_begin == 0
 * ompt-count: flush codeptr == 0
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  int by_master = -1, by_masked = -1;
#pragma omp parallel num_threads(2) shared(by_master, by_masked)
  {
#pragma omp master
    by_master = omp_get_thread_num();
#pragma omp masked filter(1)
    by_masked = omp_get_thread_num();
#pragma omp barrier
#pragma omp flush
  }
  CHECK(by_master == 0);
  CHECK(by_masked == 1 || (by_masked == -1 && omp_get_max_threads() == 1));
  printf("ok\n");
  return 0;
}
