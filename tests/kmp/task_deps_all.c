/* omp_all_memory orders the siblings that have dependences, and only those: "The storage
 * location of a list item matches the storage location of another list item if they have the
 * same storage location, or if any of the list items is omp_all_memory" (OpenMP 5.1 2.19.11,
 * 5.2 15.9.5), and a task without a depend clause has no list item to match.  Given to
 * __kmpc_omp_task_with_deps and __kmpc_omp_wait_deps directly (clang 14 cannot write it), in
 * both spellings (the flag 0x80 on address 0; out on the address -1), alone and with other
 * dependences: each all-memory task runs after every earlier task with dependences and alone,
 * every later one after it, and `taskwait depend(out: omp_all_memory)` waits for the tasks
 * with dependences.  Two siblings without dependences are running meanwhile on other threads,
 * one waiting for the first all-memory task's body, the other for the producer to come back
 * from that taskwait; had either been waited for, they would wait forever, so they give up
 * after 60 s and the test fails.  (Failed before: tomp ran an all-memory task after a taskwait
 * for every earlier sibling, so the first waiter gave up, as LLVM's kmp_taskwait_depend_all.c
 * hung.) */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "../check.h"
#include "kdeps.h"

enum { A, B, ALL1, C, D, ALL2, ALL3, E, NTASK };
static int done[NTASK], running, all_running, after_taskwait;
static long x, y, z;

/* the other task or the producer sets *flag; false if 60 s pass first (a deadlock) */
static int wait_for(int *flag) {
  double end = omp_get_wtime() + 60;
  while (!__atomic_load_n(flag, __ATOMIC_SEQ_CST))
    if (omp_get_wtime() > end)
      return 0;
    else
      usleep(100);
  return 1;
}

static int is_done(int what) {
  return __atomic_load_n(&done[what], __ATOMIC_SEQ_CST);
}

typedef struct {
  kmp_task_t t;
  int what;
} op_task_t;

static int32_t op(int32_t gtid, void *p) {
  (void)gtid;
  int what = ((op_task_t *)p)->what;
  int all = what == ALL1 || what == ALL2 || what == ALL3;
  int others = __atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST) - 1;
  if (all) {
    __atomic_add_fetch(&all_running, 1, __ATOMIC_SEQ_CST);
    CHECKF(others == 0, "all-memory task %d began beside %d task(s) with dependences", what,
           others);
  } else {
    CHECKF(__atomic_load_n(&all_running, __ATOMIC_SEQ_CST) == 0,
           "task %d began beside an all-memory task", what);
  }
  switch (what) {
  case B:
    CHECKF(is_done(A), "the reader of x began before its writer ended");
    break;
  case ALL1:
    CHECKF(is_done(A) && is_done(B), "all-memory task 1 began before the tasks before it ended");
    break;
  case C:
  case D:
    CHECKF(is_done(ALL1), "task %d began before all-memory task 1 ended", what);
    break;
  case ALL2:
    CHECKF(is_done(C) && is_done(D), "all-memory task 2 began before the tasks before it ended");
    break;
  case ALL3:
    CHECKF(is_done(ALL2), "all-memory task 3 began before all-memory task 2 ended");
    break;
  case E:
    CHECKF(is_done(ALL3), "task E began before all-memory task 3 ended");
    break;
  }
  usleep(2000); /* room for a wrong order to show */
  if (all) __atomic_sub_fetch(&all_running, 1, __ATOMIC_SEQ_CST);
  __atomic_sub_fetch(&running, 1, __ATOMIC_SEQ_CST);
  __atomic_store_n(&done[what], 1, __ATOMIC_SEQ_CST);
  return 0;
}

/* a task doing `what` with dependences d[0..n) */
static void submit(int32_t gtid, int what, int n, dep_t *d) {
  op_task_t *t = (op_task_t *)__kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(op_task_t), 0, op);
  t->what = what;
  __kmpc_omp_task_with_deps(NULL, gtid, &t->t, n, d, 0, NULL);
}

static void round_(void) {
  int32_t gtid = __kmpc_global_thread_num(NULL);
  int started = 0, ok1 = 0, ok2 = 0;
  for (int i = 0; i < NTASK; i++)
    done[i] = 0;
  after_taskwait = 0;
  /* two siblings without dependences, running on other threads before the rest exists */
#pragma omp task shared(started, ok1)
  {
    __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
    ok1 = wait_for(&done[ALL1]);
  }
#pragma omp task shared(started, ok2)
  {
    __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
    ok2 = wait_for(&after_taskwait);
  }
  double end = omp_get_wtime() + 60;
  while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 2 && omp_get_wtime() < end)
    usleep(100);
  CHECKF(started == 2, "the tasks without dependences did not start (%d)", started);

  submit(gtid, A, 1, (dep_t[]){{(intptr_t)&x, sizeof x, INOUT}});
  submit(gtid, B, 1, (dep_t[]){{(intptr_t)&x, sizeof x, IN}});
  submit(gtid, ALL1, 2, (dep_t[]){{(intptr_t)&y, sizeof y, IN}, {0, 0, ALL}});
  submit(gtid, C, 1, (dep_t[]){{(intptr_t)&y, sizeof y, IN}});
  submit(gtid, D, 1, (dep_t[]){{(intptr_t)&x, sizeof x, SET}});
  submit(gtid, ALL2, 1, (dep_t[]){{-1, 0, OUT}});
  submit(gtid, ALL3, 2, (dep_t[]){{0, 0, ALL}, {(intptr_t)&z, sizeof z, MTX}});
  submit(gtid, E, 1, (dep_t[]){{(intptr_t)&z, sizeof z, IN}});
  __kmpc_omp_wait_deps(NULL, gtid, 1, (dep_t[]){{0, 0, ALL}}, 0, NULL);
  for (int i = 0; i < NTASK; i++)
    CHECKF(is_done(i), "taskwait depend(out: omp_all_memory) ended before task %d", i);
  __atomic_store_n(&after_taskwait, 1, __ATOMIC_SEQ_CST);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(ok1, "all-memory task 1 waited for a sibling without dependences");
  CHECKF(ok2, "taskwait depend(out: omp_all_memory) waited for a sibling without dependences");
}

int main(void) {
  int size = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp single
    size = omp_get_num_threads();
    if (omp_get_thread_num() == 0 && size == 4)
      for (int r = 0; r < 3; r++)
        round_();
  }
  CHECKF(size == 4, "a team of %d", size);
  printf("ok\n");
  return 0;
}
