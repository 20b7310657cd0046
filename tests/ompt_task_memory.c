/* ompt_get_task_memory (OpenMP 5.2 sec. 19.6.1.14), from a tool inside the executable: in an
 * explicit task, block 0 is the task's argument block -- it holds the values of the task's
 * firstprivate variables, whether the task is deferred (tomp's copy) or run at once (if(0): the encountering
 * task's block) -- and nothing follows it (result 0); block 1 and implicit/initial tasks
 * report size 0.
 * test-cflags: -rdynamic
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 * test-libomp-fails: libomp 14 reports a block for a task without one (implicit or without arguments)
 */
#define _GNU_SOURCE /* memmem */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static ompt_get_task_memory_t get_task_memory;
static int inited, checked;

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  get_task_memory = (ompt_get_task_memory_t)lookup("ompt_get_task_memory");
  inited = 1;
  return 1;
}
#include "ompt_tool.h"

/* The current task's memory block 0 holds the n bytes at p (the value of a firstprivate
 * variable: gcc's task body may work on a local copy, so look for the value, not the address) */
static void check_holds(const void *p, size_t n) {
  void *addr = NULL;
  size_t size = 1234;
  CHECK(get_task_memory(&addr, &size, 0) == 0);
  CHECK(addr != NULL && size >= n);
  CHECK(memmem(addr, size, p, n) != NULL);
  size = 1234;
  CHECK(get_task_memory(&addr, &size, 1) == 0 && size == 0);
  __atomic_add_fetch(&checked, 1, __ATOMIC_RELAXED);
}

static void check_none(void) {
  void *addr = NULL;
  size_t size = 1234;
  CHECK(get_task_memory(&addr, &size, 0) == 0 && size == 0);
}

int main(void) {
  CHECK(inited && get_task_memory);
  check_none(); /* initial task */
  char big[300];
  memset(big, 7, sizeof big);
  long x = 42;
#pragma omp parallel num_threads(2)
  {
    check_none(); /* implicit task */
#pragma omp single
    {
      for (int i = 0; i < 8; i++) {
#pragma omp task firstprivate(big, x)
        {
          CHECK(big[0] == 7 && x == 42);
          char want[sizeof big];
          memset(want, 7, sizeof want);
          long wx = 42;
          check_holds(want, sizeof want);
          check_holds(&wx, sizeof wx);
        }
      }
      long y = 0x5eed5eed5eedL;
#pragma omp task firstprivate(y) if (0)
      {
        long wy = 0x5eed5eed5eedL;
        CHECK(y == wy);
        check_holds(&wy, sizeof wy);
      }
#pragma omp taskwait
    }
  }
  CHECK(checked == 8 * 2 + 1);
  printf("ok\n");
  return 0;
}
