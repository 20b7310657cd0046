/* ompt_get_task_info's ancestors are the tasks with frames on the calling thread's stack
 * (OpenMP 5.2 sec. 19.6.1.14; the 2015 technical report's "task below"), which is what a tool
 * stitching a thread's call stack needs.  Thread 0 creates a task and waits until thread 1,
 * waiting in an explicit barrier, has run it: inside it, level 1 must be thread 1's own implicit
 * task (thread_num 1, its enter frame set and on this thread's stack), not the implicit task of
 * thread 0 that generated it, and level 2 the initial task.  A task run at once (if(0)) or by
 * its creator in a taskwait has its creator's implicit task at level 1 either way.  (In the
 * closing barrier an implicit task's frames are NULL, as in libomp: its body has returned;
 * so the stolen task is run in an explicit barrier, where the enter frame is set; the last
 * task may be taken there by thread 1 too.)
 * test-cflags: -rdynamic
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called (LLVM's libomp passes)
 * test-timeout: 60
 * test-libomp-fails: libomp 14 leaves the encountering task's enter frame NULL while a clang if(0) task's body runs
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "check.h"

static ompt_get_task_info_t task_info;
static ompt_data_t *implicit_data[2];
static int started, checked, errors, stolen;

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td) {
  (void)dev, (void)td;
  task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  return task_info != NULL;
}

static void fini(ompt_data_t *td) {
  (void)td;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv) {
  (void)v, (void)rv;
  static ompt_start_tool_result_t r = {init, fini, {0}};
  return &r;
}

#define FAIL(...) (fprintf(stderr, __VA_ARGS__), __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED))

/* Inside a task created by thread `creator`: level 1 is the executing thread's implicit
 * task, suspended at a barrier or task scheduling point with its enter frame set, level 2
 * the initial task. */
static void check_ancestors(int creator, int frame_set) {
  int me = omp_get_thread_num(), flags = 0, tnum = -1;
  char here;
  ompt_data_t *td = NULL, *pd = NULL;
  ompt_frame_t *fr = NULL;
  if (task_info(0, &flags, &td, &fr, &pd, &tnum) != 2 || !(flags & ompt_task_explicit) ||
      tnum != me)
    FAIL("level 0: flags %#x thread_num %d on thread %d\n", flags, tnum, me);
  if (task_info(1, &flags, &td, &fr, &pd, &tnum) != 2) {
    FAIL("no level 1\n");
    return;
  }
  if (!(flags & ompt_task_implicit) || td != implicit_data[me] || tnum != me)
    FAIL("level 1 of a task created by thread %d, run by %d: flags %#x, thread_num %d, %s "
         "implicit task\n",
         creator, me, flags, tnum, td == implicit_data[me] ? "this thread's" : "another");
  /* the suspended implicit task's enter frame lies on this thread's stack, above us */
  uintptr_t enter = (uintptr_t)fr->enter_frame.ptr, sp = (uintptr_t)&here;
  if (!enter && !frame_set) {
    /* run in the closing barrier: the implicit task's body has returned, frames NULL */
  } else if (!enter || enter < sp || enter - sp > (1u << 20))
    FAIL("creator %d, run by %d: level 1 enter frame %#lx not on this thread's stack (near "
         "%#lx)\n",
         creator, me, (unsigned long)enter, (unsigned long)sp);
  if (task_info(2, &flags, &td, &fr, &pd, &tnum) != 2 || !(flags & ompt_task_initial))
    FAIL("level 2: flags %#x\n", flags);
  __atomic_add_fetch(&checked, 1, __ATOMIC_RELAXED);
  if (me != creator) __atomic_add_fetch(&stolen, 1, __ATOMIC_RELAXED);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void) {
  for (int rep = 0; rep < 200; rep++) {
    __atomic_store_n(&started, 0, __ATOMIC_RELAXED);
#pragma omp parallel num_threads(2)
    {
      int me = omp_get_thread_num();
      ompt_data_t *td = NULL;
      CHECK(task_info(0, NULL, &td, NULL, NULL, NULL) == 2);
      implicit_data[me] = td;
#pragma omp barrier
      if (me == 0) {
#pragma omp task
        {
          check_ancestors(0, 1);
          __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
        }
        /* let thread 1, waiting in the barrier below, take it (bounded: it may run here) */
        double t0 = now();
        while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE) && now() - t0 < 0.05) {
        }
      }
#pragma omp barrier
      if (me == 0) {
#pragma omp task if (0)
        check_ancestors(0, 1);
#pragma omp task
        check_ancestors(0, 0); /* here in the taskwait, or by thread 1 in the closing barrier */
#pragma omp taskwait
      }
    }
  }
  printf("%d tasks checked, %d run by the thread that did not create them, %d errors\n", checked,
         stolen, errors);
  CHECK(errors == 0);
  CHECK(checked == 600);
  CHECK(stolen >= 100); /* the case that tells the two readings apart did happen */
  return 0;
}
