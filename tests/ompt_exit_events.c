/* Workers' end events at program exit (issue 17 B3).  The tool wants barrier events only
 * (no parallel or implicit-task callbacks, so the join does not wait for the workers to
 * park).  main returns right after a region of four threads whose workers are still in
 * their tool's callback for the closing barrier's sync_region_wait end (it takes 200 ms, as
 * a tool that writes a trace may); every worker must still report that barrier's
 * sync_region end before its thread_end and the tool's finalize.  Before the fix
 * finalization found the workers busy, stopped the events and reported their thread_end
 * itself: the sync_region ends of all three workers were lost (the issue saw it in 6 of 20
 * runs with quick callbacks: a worker woken late from the barrier).
 * test-cflags: -rdynamic
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 * test-libomp-fails: libomp 14 loses them too (at finalize: 0 sync_region ends, 3 workers
 * ended before their region)
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static __thread int is_worker;
static __thread ompt_data_t *my_thread;
static int wait_ends, sync_ends, workers_ended_late;

enum { WORKER = 1, REGION_ENDED = 2 };

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data) {
  is_worker = type == ompt_thread_worker;
  my_thread = data;
  data->value = is_worker ? WORKER : 0;
}

/* a worker's thread_end (on its thread, or on the finalizing one for a busy thread) comes
 * after its region's last event, the closing barrier's sync_region end */
static void on_thread_end(ompt_data_t *data) {
  if (data->value == WORKER) __atomic_add_fetch(&workers_ended_late, 1, __ATOMIC_RELAXED);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                                ompt_data_t *pdata, ompt_data_t *tdata, const void *ra) {
  (void)pdata, (void)tdata, (void)ra;
  if (kind != ompt_sync_region_barrier_implicit_parallel || ep != ompt_scope_end) return;
  __atomic_add_fetch(&wait_ends, 1, __ATOMIC_RELAXED);
  if (is_worker) nanosleep(&(struct timespec){0, 200000000}, NULL);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pdata,
                           ompt_data_t *tdata, const void *ra) {
  (void)pdata, (void)tdata, (void)ra;
  if (kind == ompt_sync_region_barrier_implicit_parallel && ep == ompt_scope_end) {
    __atomic_add_fetch(&sync_ends, 1, __ATOMIC_RELAXED);
    if (my_thread) my_thread->value |= REGION_ENDED;
  }
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
  set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait);
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
  return 1;
}

/* at exit: every thread of the team reported the region's end events */
static void tool_finalize(ompt_data_t *data) {
  (void)data;
  printf("at finalize: %d sync_region_wait end, %d sync_region end, %d worker(s) ended "
         "before their region\n",
         wait_ends, sync_ends, workers_ended_late);
  fflush(stdout);
  if (wait_ends != 4 || sync_ends != 4 || workers_ended_late) _exit(1);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv);
ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv) {
  (void)v, (void)rv;
  static ompt_start_tool_result_t r = {tool_initialize, tool_finalize, {0}};
  return &r;
}

int main(void) {
#pragma omp parallel num_threads(4)
  CHECK(omp_get_num_threads() == 4);
  return 0;
}
