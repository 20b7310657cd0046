/* OMPT on a clang-built program (LLVM's ABI, tomp as libomp.so.5): parallel and implicit-task
 * events of __kmpc_fork_call regions, and what clang's ABI shows that gcc's hides: static
 * loops (work events from __kmpc_for_static_init/fini), sections (a static loop), the end of
 * a single at __kmpc_end_single, reductions; plus dispatch of a dynamic loop and the implicit
 * and explicit barriers __kmpc_barrier tells apart by its ident_t; dispatch of a static loop's
 * first chunk and of each section (tomp reported none before).  FileCheck on a one-thread
 * run (deterministic); on two threads, counts.
 *
 * ompt-compiler: clang
 * ompt-run: OMP_THREAD_LIMIT=1
 * ompt-filecheck: CHECK drop=sync_region_wait
 * ompt-run: x2
 * ompt-count: work_begin type=loop_static == 4
 * ompt-count: work_end type=loop_static == 4
 * ompt-count: work_begin type=sections == 2
 * ompt-count: work_begin type=single_executor == 1
 * ompt-count: work_end type=single_executor == 1
 * ompt-count: work_begin type=single_other == 1
 * ompt-count: reduction_begin == 2
 * ompt-count: reduction_end == 2
 * ompt-count: ^[0-9]+: parallel_begin == 1
 * ompt-count: implicit_task_begin .*team_size=2 == 2
 */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  long sum = 0;
  int a[64] = {0};
  int s1 = 0, s2 = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 64; i++)
      a[i] = i;
#pragma omp for schedule(static, 4) nowait
    for (int i = 0; i < 64; i++)
      a[i] += 1;
#pragma omp for schedule(dynamic, 16)
    for (int i = 0; i < 64; i++)
      sum += i + 1; /* not a[i]: the loop before is nowait */
#pragma omp sections
    {
#pragma omp section
      s1 = 1;
#pragma omp section
      s2 = 2;
    }
#pragma omp single
    sum += 0;
  }
  CHECK(sum == 64 * 65 / 2);
  CHECK(s1 == 1 && s2 == 2);
  for (int i = 0; i < 64; i++)
    CHECK(a[i] == i + 1);
  printf("sum=%ld\n", sum);
  return 0;
}
