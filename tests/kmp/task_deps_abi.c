/* Dependence kinds clang 14 cannot write but newer clangs pass in kmp_depend_info's flags,
 * given to __kmpc_omp_task_with_deps directly: inoutset (0x8: the members follow the tasks
 * before them and precede later in/out tasks, not each other) and omp_all_memory (0x80: after
 * every earlier sibling with dependences, before every later one), with in (0x1) and in|out
 * (0x3) around them; omp_all_memory as libomp also takes it (`out` on the address -1); a task
 * allocated without a routine, only for its dependences; and __kmpc_omp_wait_deps (clang 14's
 * taskwait depend: libomp 14 has no __kmpc_omp_taskwait_deps_51 to compare with).  In a team
 * of three and outside any region.  (The -1 spelling and the routine-less task failed before
 * tomp took them: the reader ran before the writer; a crash.) */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "../check.h"
#include "kdeps.h"

#define OUT_ONLY 0x2
#define ALL_BY_ADDR 0xff /* this test's marker: omp_all_memory as address -1 */

static long x, y, seen_x, seen_y, log_[8];
static int nlog;

typedef struct {
  kmp_task_t t;
  int what;
} op_task_t;

static int32_t op(int32_t gtid, void *p) {
  int what = ((op_task_t *)p)->what;
  switch (what) {
  case 0: /* slow writer */
    usleep(20000);
    x = 100;
    break;
  case 1: /* an inoutset member */
    __atomic_fetch_add(&x, 1, __ATOMIC_SEQ_CST);
    break;
  case 2: /* reader after the set */
    seen_x = x;
    break;
  case 3: /* slow writer of y */
    usleep(20000);
    __atomic_store_n(&y, 7, __ATOMIC_SEQ_CST);
    break;
  case 4: /* omp_all_memory: after both writers */
    seen_y = x * 1000 + y;
    usleep(10000);
    y = 8;
    break;
  case 5: /* after the all-memory task */
    log_[nlog++] = y;
    break;
  }
  return 0;
}

static void submit(int32_t gtid, int what, long *addr, uint8_t flags) {
  op_task_t *t = (op_task_t *)__kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(op_task_t), 0, op);
  t->what = what;
  dep_t d = {(intptr_t)addr, sizeof(long), flags};
  if (flags == ALL) d.base_addr = 0, d.len = 0;
  if (flags == ALL_BY_ADDR) d.base_addr = -1, d.len = 0, d.flags = OUT_ONLY;
  __kmpc_omp_task_with_deps(NULL, gtid, &t->t, 1, &d, 0, NULL);
}

static void run(void) {
  int32_t gtid = __kmpc_global_thread_num(NULL);
  x = y = seen_x = seen_y = 0;
  nlog = 0;
  submit(gtid, 0, &x, INOUT);
  for (int i = 0; i < 3; i++)
    submit(gtid, 1, &x, SET);
  submit(gtid, 2, &x, IN);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(seen_x == 103, "after the inoutset members: %ld", seen_x);

  submit(gtid, 3, &y, INOUT);
  submit(gtid, 4, NULL, ALL);
  submit(gtid, 5, &y, IN);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(seen_y == 103007 && nlog == 1 && log_[0] == 8, "all-memory saw %ld, then %ld", seen_y,
         log_[0]);

  /* libomp's other spelling of omp_all_memory: `out` on the address (intptr_t)-1 */
  y = seen_y = 0;
  nlog = 0;
  submit(gtid, 3, &y, INOUT);
  submit(gtid, 4, (long *)(intptr_t)-1, OUT);
  submit(gtid, 5, &y, IN);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(seen_y == 103007 && nlog == 1 && log_[0] == 8, "out on -1 saw %ld, then %ld", seen_y,
         log_[0]);

  /* a task without a routine, only for its dependences (Intel's `taskwait depend nowait`):
   * it runs as an empty task and orders the reader after the slow writer */
  y = 0;
  nlog = 0;
  submit(gtid, 3, &y, INOUT);
  kmp_task_t *e = __kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(kmp_task_t), 0, NULL);
  dep_t d = {(intptr_t)&y, sizeof(long), INOUT};
  __kmpc_omp_task_with_deps(NULL, gtid, e, 1, &d, 0, NULL);
  submit(gtid, 5, &y, IN);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(nlog == 1 && log_[0] == 7, "after the empty task: %ld", log_[0]);
}

int main(void) {
  run();
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) run();
  printf("ok\n");
  return 0;
}
