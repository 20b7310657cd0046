/* ompt_get_state in every kind of task, outside any parallel region and inside one (issue 17
 * B6).  OpenMP 5.2 sec. 19.4.4.27 (ompt_state_t): ompt_state_work_serial "The thread is
 * executing code outside all parallel regions"; ompt_state_work_parallel "The thread is
 * executing code within the scope of a parallel region".  A parallel region of one thread
 * (num_threads(1), if(0), nested beyond max-active-levels) is still a parallel region, an
 * explicit task takes the state of where it runs, and a host target region's initial task
 * runs outside all parallel regions.  Before the fix tomp answered work_parallel in every
 * explicit task, also outside all parallel regions (the deferred, undeferred, included and
 * taskloop cases below failed).
 * test-cflags: -rdynamic
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 * test-libomp-fails: libomp 14 answers state 0x0 (undefined) in explicit tasks of clang code
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "check.h"

static ompt_get_state_t get_state;

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  get_state = (ompt_get_state_t)lookup("ompt_get_state");
  return 1;
}
#include "ompt_tool.h"

static int failures;

static const char *ctx;

static void expect_state(const char *where, int want) {
  ompt_wait_id_t w;
  int st = get_state(&w);
  if (st != want) {
    fprintf(stderr, "%s: %s: state 0x%x, expected 0x%x\n", ctx, where, st, want);
    __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
  }
}

#define SERIAL ompt_state_work_serial
#define PARALLEL ompt_state_work_parallel

/* every task kind the encountering context can create, each expected in state want (the
 * context is shared: no task copies it) */
static int want;

static void tasks(const char *c, int w) {
  ctx = c;
  want = w;
  expect_state("encountering task", want);
#pragma omp task
  expect_state("deferred task", want);
#pragma omp taskwait
#pragma omp task if (0)
  expect_state("undeferred task", want);
#pragma omp task final(1)
  {
#pragma omp task
    expect_state("included task", want);
  }
#pragma omp taskwait
#pragma omp taskloop num_tasks(2)
  for (int i = 0; i < 2; i++)
    expect_state("taskloop task", want);
  expect_state("encountering task after its tasks", want);
}

int main(void) {
  CHECK(get_state != NULL);
  tasks("initial task", SERIAL);
#pragma omp parallel num_threads(1)
  tasks("team of one", PARALLEL);
#pragma omp parallel if (0)
  tasks("if(0) parallel", PARALLEL);
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    tasks("team of two", PARALLEL);
#pragma omp parallel num_threads(1)
    tasks("nested team of one", PARALLEL);
  }
#pragma omp target
  tasks("host target region", SERIAL);
  tasks("initial task again", SERIAL);
  CHECKF(failures == 0, "%d wrong states (listed above)", failures);
  printf("every task kind reports the state of where it runs\n");
  return 0;
}
