/* A misbehaving tool (issue 17 E; tests/scenarios/ompt_misbehave.sh): its initialize registers
 * callbacks and then returns 0.  OpenMP 5.2 (sec. 19.2.3, as in 5.1 sec. 4.2.3): "If a tool
 * initializer returns a non-zero value, the OMPT interface state remains active for the
 * execution; otherwise, the OMPT interface state changes to inactive."  An inactive interface
 * makes no callback, and the finalizer, the end of an active tool's life (sec. 19.2.4), is
 * not called (libomp does the same).  The program runs every kind of construct; any callback
 * counts, a finalize call ends the process with status 3, and omp_control_tool must answer
 * omp_control_tool_notool. */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"

static int calls, initialized, registered;

static void count(void) {
  __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
}
static void on_thread_begin(ompt_thread_t t, ompt_data_t *d) {
  (void)t, (void)d, count();
}
static void on_parallel_begin(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *p, unsigned n,
                              int fl, const void *ra) {
  (void)e, (void)f, (void)p, (void)n, (void)fl, (void)ra, count();
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, unsigned n,
                             unsigned i, int fl) {
  (void)ep, (void)p, (void)t, (void)n, (void)i, (void)fl, count();
}
static void on_task_create(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *t, int fl, int d,
                           const void *ra) {
  (void)e, (void)f, (void)t, (void)fl, (void)d, (void)ra, count();
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    const void *ra) {
  (void)k, (void)ep, (void)p, (void)t, (void)ra, count();
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    uint64_t n, const void *ra) {
  (void)w, (void)ep, (void)p, (void)t, (void)n, (void)ra, count();
}
static void on_mutex(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  (void)k, (void)w, (void)ra, count();
}
static int on_control(uint64_t c, uint64_t m, void *a, const void *ra) {
  (void)c, (void)m, (void)a, (void)ra, count();
  return 1;
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  int ok = 1;
#define SET(e, f) ok &= set(e, (ompt_callback_t)f) != ompt_set_error
  SET(ompt_callback_thread_begin, on_thread_begin);
  SET(ompt_callback_parallel_begin, on_parallel_begin);
  SET(ompt_callback_implicit_task, on_implicit_task);
  SET(ompt_callback_task_create, on_task_create);
  SET(ompt_callback_sync_region, on_sync);
  SET(ompt_callback_sync_region_wait, on_sync);
  SET(ompt_callback_work, on_work);
  SET(ompt_callback_mutex_acquire, on_mutex);
  SET(ompt_callback_mutex_released, on_mutex);
  SET(ompt_callback_control_tool, on_control);
#undef SET
  registered = ok;
  initialized = 1;
  return 0; /* declined */
}

static void tool_finalize(ompt_data_t *data) {
  (void)data;
  static const char msg[] = "ERROR: finalize called for a tool whose initialize returned 0\n";
  (void)!write(1, msg, sizeof msg - 1);
  _exit(3);
}

#include "misbehave.h"

int main(void) {
  CHECK(misbehave_work(4, 20));
  CHECK(initialized && registered); /* libomp initializes a tool on the first construct */
  int ct = omp_control_tool(omp_control_tool_flush, 0, NULL);
  CHECKF(ct == omp_control_tool_notool, "omp_control_tool answered %d, not notool (-2)", ct);
  CHECKF(calls == 0, "%d callbacks made to a tool whose initialize returned 0", calls);
  printf("ok: no callback, no finalize, omp_control_tool says notool\n");
  return 0;
}
