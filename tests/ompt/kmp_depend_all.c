/* OMPT for omp_all_memory from clang code (LLVM's ABI, given to __kmpc_omp_task_with_deps and
 * __kmpc_omp_wait_deps directly: clang 14 cannot write it): the dependences callback reports
 * it as ompt_dependence_type_out_all_memory (the flag 0x80, and out or in|out on the address
 * -1), beside the task's other dependences, as libomp 19 does (LLVM 19's
 * ompt/tasks/kmp_task_depend_all and omp_task_depend_all want it); the edges run from every earlier
 * unfinished task with dependences to the all-memory task, and from it to every later one.
 * FileCheck on a one-thread run, where the tasks with dependences wait for the taskwait; on
 * two threads every task still completes once.
 *
 * ompt-compiler: clang
 * ompt-run: OMP_THREAD_LIMIT=1
 * ompt-filecheck: CHECK
 * ompt-run: x4
 * ompt-count: kinds=.*_all_memory == 4
 * ompt-grep: ^done 6$
 */
#include <omp.h>
#include <stdio.h>

#include "../kmp/kdeps.h"

static long x, y;
static int ran;

static int32_t body(int32_t gtid, void *p) {
  (void)gtid, (void)p;
  __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
  return 0;
}

static void submit(int32_t gtid, int n, dep_t *d) {
  kmp_task_t *t = __kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(kmp_task_t), 0, body);
  __kmpc_omp_task_with_deps(NULL, gtid, t, n, d, 0, NULL);
}

int main(void) {
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 0) {
    int32_t gtid = __kmpc_global_thread_num(NULL);
    submit(gtid, 1, (dep_t[]){{(intptr_t)&x, sizeof x, INOUT}});
    submit(gtid, 2, (dep_t[]){{(intptr_t)&y, sizeof y, IN}, {0, 0, ALL}});
    submit(gtid, 1, (dep_t[]){{(intptr_t)&y, sizeof y, IN}});
    submit(gtid, 1, (dep_t[]){{-1, 0, OUT}});
    submit(gtid, 1, (dep_t[]){{-1, 0, INOUT}});
    submit(gtid, 1, (dep_t[]){{(intptr_t)&x, sizeof x, IN}});
    __kmpc_omp_wait_deps(NULL, gtid, 1, (dep_t[]){{0, 0, ALL}}, 0, NULL);
    printf("done %d\n", __atomic_load_n(&ran, __ATOMIC_SEQ_CST));
  }
  return 0;
}
