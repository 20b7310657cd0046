/* OMPT events clang's ABI shows and gcc's hides: masked and master regions (ompt_callback_masked
 * from __kmpc_masked / __kmpc_master and their ends) and flush constructs (ompt_callback_flush
 * from __kmpc_flush), with their codeptr_ra in the program and the task and region they belong to;
 * and ompt_set_callback answering `always` for masked, flush, work and sync_region when only
 * clang-built OpenMP code is loaded (src/core/abi.c; a gcc-built program gets `sometimes`:
 * ompt_gcc_masked_flush).  FileCheck on a one-thread run, counts on two threads.
 *
 * ompt-compiler: clang
 * test-cflags: -fopenmp-version=51
 * ompt-run: OMP_THREAD_LIMIT=1
 * ompt-filecheck: CHECK drop=sync_region_(wait_)?(begin|end)
 * ompt-run: x3
 * ompt-count: masked_begin .*codeptr=present == 3
 * ompt-count: masked_end .*codeptr=present == 3
 * ompt-count: flush codeptr=present == 4
 * ompt-count: flush codeptr=main == 1
 * ompt-count: ^1: masked_begin == 2
 * ompt-count: ^2: masked_begin == 1
 * ompt-count: register masked=always == 1
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  int by_master = -1, by_masked = -1, seen = 0;
#pragma omp parallel num_threads(2) shared(by_master, by_masked, seen)
  {
#pragma omp master
    by_master = omp_get_thread_num();
#pragma omp masked filter(1)
    by_masked = omp_get_thread_num();
#pragma omp masked
    {
#pragma omp atomic
      seen++;
    }
    /* the only ordering between the threads: a barrier */
#pragma omp barrier
#pragma omp flush
#pragma omp flush acq_rel
  }
#pragma omp flush
  CHECK(by_master == 0);
  CHECK(omp_get_thread_limit() == 1 ? by_masked == -1 : by_masked == 1);
  CHECK(seen == 1);
  printf("ok\n");
  return 0;
}
