/* A misbehaving tool (issue 17 E; tests/scenarios/ompt_misbehave.sh): it calls
 * ompt_finalize_tool from inside one of its own callbacks, while the program runs.
 *
 *   misbehave_finalize worker   from a worker's implicit-task begin, in the middle of a region
 *   misbehave_finalize primary  from the primary thread's parallel_end, between two regions
 *
 * ompt_finalize_tool (OpenMP 5.2 sec. 19.6.3) ends the tool's life: the finalizer runs, once,
 * and no callback starts after it.  tomp finalizes at once on the calling thread (a callback of
 * that thread is not waited for: it is the caller) and the program goes on without the tool.
 * Checked: the finalizer ran exactly once (not again at exit), it ran on the thread that
 * asked, no callback started after it, a second ompt_finalize_tool (from main) does nothing,
 * and the program's regions before, during and after are right. */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"

static ompt_finalize_tool_t finalize_tool;
static int worker_mode, finalized, asked, late;
static __thread int asking; /* this thread is inside ompt_finalize_tool */

static void say(const char *s) {
  (void)!write(1, s, strlen(s));
}

/* a callback starting after the finalizer */
static void started(void) {
  if (__atomic_load_n(&finalized, __ATOMIC_ACQUIRE) && !asking) {
    __atomic_fetch_add(&late, 1, __ATOMIC_RELAXED);
    say("ERROR: a callback started after the tool was finalized\n");
  }
}

static void ask(void) {
  if (__atomic_exchange_n(&asked, 1, __ATOMIC_ACQ_REL)) return;
  asking = 1;
  finalize_tool();
  asking = 0;
  if (!__atomic_load_n(&finalized, __ATOMIC_ACQUIRE))
    say("ERROR: ompt_finalize_tool returned before the finalizer ran\n");
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, unsigned n,
                             unsigned i, int fl) {
  (void)p, (void)t, (void)n;
  started();
  if (worker_mode && ep == ompt_scope_begin && i == 1 && (fl & ompt_task_implicit)) ask();
}
static void on_parallel_end(ompt_data_t *p, ompt_data_t *e, int fl, const void *ra) {
  (void)p, (void)e, (void)fl, (void)ra;
  started();
  if (!worker_mode) ask();
}
static void on_thread(ompt_thread_t t, ompt_data_t *d) {
  (void)t, (void)d, started();
}
static void on_thread_end(ompt_data_t *d) {
  (void)d, started();
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    const void *ra) {
  (void)k, (void)ep, (void)p, (void)t, (void)ra, started();
}
static void on_task_create(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *t, int fl, int d,
                           const void *ra) {
  (void)e, (void)f, (void)t, (void)fl, (void)d, (void)ra, started();
}
static void on_task_schedule(ompt_data_t *a, ompt_task_status_t s, ompt_data_t *b) {
  (void)a, (void)s, (void)b, started();
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!finalize_tool || !set) return 0;
#define SET(e, f) set(e, (ompt_callback_t)f)
  SET(ompt_callback_thread_begin, on_thread);
  SET(ompt_callback_thread_end, on_thread_end);
  SET(ompt_callback_implicit_task, on_implicit_task);
  SET(ompt_callback_parallel_end, on_parallel_end);
  SET(ompt_callback_sync_region, on_sync);
  SET(ompt_callback_sync_region_wait, on_sync);
  SET(ompt_callback_task_create, on_task_create);
  SET(ompt_callback_task_schedule, on_task_schedule);
#undef SET
  return 1;
}

static void tool_finalize(ompt_data_t *data) {
  (void)data;
  if (!asking) say("ERROR: the finalizer ran on another thread than the one that asked\n");
  int n = __atomic_add_fetch(&finalized, 1, __ATOMIC_ACQ_REL);
  say(n == 1 ? "finalize\n" : "ERROR: finalize ran more than once\n");
}

#include "misbehave.h"

int main(int argc, char **argv) {
  CHECKF(argc == 2 && (!strcmp(argv[1], "worker") || !strcmp(argv[1], "primary")),
         "usage: misbehave_finalize worker|primary");
  worker_mode = !strcmp(argv[1], "worker");
  for (int r = 0; r < 4; r++)
    CHECKF(misbehave_work(3, r), "region %d", r);
  CHECKF(asked && finalized == 1, "asked %d, finalized %d times", asked, finalized);
  finalize_tool(); /* a second time: nothing */
  CHECKF(finalized == 1, "finalized %d times after a second ompt_finalize_tool", finalized);
  CHECKF(late == 0, "%d callbacks after the finalizer", late);
  printf("ok %s\n", argv[1]);
  fflush(stdout);
  return 0;
}
