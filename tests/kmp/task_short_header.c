/* A kmp_task_t shorter than clang's 40 bytes, as LLVM's own tests and compilers that leave out
 * the optional data1/data2 fields pass to __kmpc_omp_task_alloc: the header ends after
 * part_id and the task's privates follow at once (32 bytes with one pointer-sized private, 28
 * with an int: the test passes 24, the size without the pointer).  Each task must run with its
 * privates and shareds intact, deferred in a team of three, undeferred outside any region, and
 * detached (allow_completion_event), as libomp runs them.  tomp refused such sizes before (a fatal
 * error). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "../check.h"

typedef struct {
  long *sum;
} shareds_t;
typedef struct task32 { /* shareds, routine, part_id, then a private */
  shareds_t *shareds;
  int32_t (*routine)(int32_t, struct task32 *);
  int32_t part_id;
  int32_t value; /* private, at offset 20 */
  void *evt;     /* private, at offset 24 */
} task32_t;

task32_t *__kmpc_omp_task_alloc(void *loc, int32_t gtid, int32_t flags, size_t sz, size_t shsz,
                                int32_t (*entry)(int32_t, task32_t *));
int32_t __kmpc_omp_task(void *loc, int32_t gtid, task32_t *t);
void *__kmpc_task_allow_completion_event(void *loc, int32_t gtid, task32_t *t);
int32_t __kmpc_omp_taskwait(void *loc, int32_t gtid);
int32_t __kmpc_global_thread_num(void *loc);

static int32_t body(int32_t gtid, task32_t *t) {
  (void)gtid;
  __atomic_add_fetch(t->shareds->sum, t->value, __ATOMIC_RELAXED);
  return 0;
}

/* n tasks with values 1..n, header of `size` bytes; detached ones are fulfilled afterwards */
static long spawn(int n, size_t size, int detach) {
  long sum = 0;
  void *evts[64];
  int32_t gtid = __kmpc_global_thread_num(NULL);
  for (int i = 0; i < n; i++) {
    task32_t *t =
        __kmpc_omp_task_alloc(NULL, gtid, 1 | (detach ? 0x40 : 0), size, sizeof(shareds_t), body);
    t->shareds->sum = &sum;
    t->value = i + 1;
    if (detach) t->evt = evts[i] = __kmpc_task_allow_completion_event(NULL, gtid, t);
    __kmpc_omp_task(NULL, gtid, t);
  }
  if (detach)
    for (int i = 0; i < n; i++)
      omp_fulfill_event((omp_event_handle_t)(uintptr_t)evts[i]);
  __kmpc_omp_taskwait(NULL, gtid);
  return sum;
}

int main(void) {
  omp_set_dynamic(0);
  long in_team[3] = {0}, detached = 0;
#pragma omp parallel num_threads(3)
  {
    int me = omp_get_thread_num();
    in_team[me] = spawn(40, me == 2 ? 24 : sizeof(task32_t), 0);
#pragma omp barrier
#pragma omp master
    detached = spawn(20, sizeof(task32_t), 1);
  }
  for (int i = 0; i < 3; i++)
    CHECKF(in_team[i] == 820, "thread %d: sum %ld", i, in_team[i]);
  CHECKF(detached == 210, "detached: sum %ld", detached);
  CHECK(spawn(10, 24, 0) == 55);
  puts("ok");
  return 0;
}
