/* A self-checking tool for the end of a tool's life (tests/scenarios/ompt_finalize.sh).
 *
 * Its callbacks, on every thread but the first, sleep a little in the middle, so a callback
 * is very likely in flight when the tool is finalized.  finalize poisons the tool's state; a
 * callback that starts after that, or that was still running when it happened, prints an
 * ERROR line.  finalize also checks that every thread that got thread_begin got exactly one
 * thread_end before it.  omp_control_tool(omp_control_tool_end, ...) calls
 * ompt_finalize_tool.  Lines: "finalize begun=N ended=N" and "ERROR: ..." (stdout, write(2),
 * so nothing is lost when the process exits at once). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <omp-tools.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXT 256
static ompt_set_callback_t set_callback;
static ompt_finalize_tool_t finalize_tool;
static int poisoned, begun, ended_total, running;
static int ended[MAXT];
static uint64_t next_id = 1;
static __thread uint64_t my_id;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
  va_end(ap);
  if (n > (int)sizeof buf - 2) n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  ssize_t r = write(1, buf, (size_t)n);
  (void)r;
}

/* Every callback: enter, maybe nap (workers only), leave. */
static void enter(const char *what) {
  __atomic_add_fetch(&running, 1, __ATOMIC_ACQ_REL);
  if (__atomic_load_n(&poisoned, __ATOMIC_ACQUIRE))
    say("ERROR: %s callback started after finalize (thread %" PRIu64 ")", what, my_id);
}
static void leave(const char *what) {
  if (my_id > 1) {
    struct timespec ts = {0, 300000};
    nanosleep(&ts, NULL);
  }
  if (__atomic_load_n(&poisoned, __ATOMIC_ACQUIRE))
    say("ERROR: %s callback still running when finalize ran (thread %" PRIu64 ")", what, my_id);
  __atomic_sub_fetch(&running, 1, __ATOMIC_ACQ_REL);
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *td) {
  (void)type;
  my_id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
  td->value = my_id;
  enter("thread_begin");
  __atomic_add_fetch(&begun, 1, __ATOMIC_RELAXED);
  leave("thread_begin");
}

/* May come on another thread (on behalf of a thread that cannot make it): td says which. */
static void on_thread_end(ompt_data_t *td) {
  enter("thread_end");
  uint64_t id = td->value;
  if (id == 0 || id >= MAXT) say("ERROR: thread_end with unknown thread_data %" PRIu64, id);
  else if (__atomic_fetch_add(&ended[id], 1, __ATOMIC_RELAXED))
    say("ERROR: second thread_end for thread %" PRIu64, id);
  __atomic_add_fetch(&ended_total, 1, __ATOMIC_RELAXED);
  leave("thread_end");
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                             unsigned n, unsigned i, int f) {
  (void)ep, (void)p, (void)t, (void)n, (void)i, (void)f;
  enter("implicit_task");
  leave("implicit_task");
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                    ompt_data_t *t, const void *ra) {
  (void)k, (void)ep, (void)p, (void)t, (void)ra;
  enter("sync_region");
  leave("sync_region");
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    uint64_t n, const void *ra) {
  (void)w, (void)ep, (void)p, (void)t, (void)n, (void)ra;
  enter("work");
  leave("work");
}
static void on_dispatch(ompt_data_t *p, ompt_data_t *t, ompt_dispatch_t k, ompt_data_t inst) {
  (void)p, (void)t, (void)k, (void)inst;
  enter("dispatch");
  leave("dispatch");
}
static void on_parallel_begin(ompt_data_t *et, const ompt_frame_t *ef, ompt_data_t *p,
                              unsigned req, int fl, const void *ra) {
  (void)et, (void)ef, (void)p, (void)req, (void)fl, (void)ra;
  enter("parallel_begin");
  leave("parallel_begin");
}
static void on_parallel_end(ompt_data_t *p, ompt_data_t *et, int fl, const void *ra) {
  (void)p, (void)et, (void)fl, (void)ra;
  enter("parallel_end");
  leave("parallel_end");
}
static int on_control_tool(uint64_t cmd, uint64_t mod, void *arg, const void *ra) {
  (void)mod, (void)arg, (void)ra;
  if (cmd == 4 /* omp_control_tool_end */) finalize_tool();
  return 0;
}

static int initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *tool_data) {
  (void)dev, (void)tool_data;
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
#define REG(ev, fn) set_callback(ompt_callback_##ev, (ompt_callback_t)(fn))
  REG(thread_begin, on_thread_begin);
  REG(thread_end, on_thread_end);
  REG(implicit_task, on_implicit_task);
  REG(sync_region, on_sync);
  REG(sync_region_wait, on_sync);
  REG(work, on_work);
  REG(dispatch, on_dispatch);
  REG(parallel_begin, on_parallel_begin);
  REG(parallel_end, on_parallel_end);
  REG(control_tool, on_control_tool);
  return 1;
}

static void finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  int b = __atomic_load_n(&begun, __ATOMIC_RELAXED), e = __atomic_load_n(&ended_total, __ATOMIC_RELAXED);
  /* the finalizing thread may itself be inside control_tool; no callback does otherwise */
  if (__atomic_load_n(&running, __ATOMIC_ACQUIRE) > 0)
    say("ERROR: %d callback(s) running when finalize was called",
        __atomic_load_n(&running, __ATOMIC_ACQUIRE));
  for (int i = 1; i < (int)next_id && i < MAXT; i++)
    if (ended[i] != 1) say("ERROR: thread %d got %d thread_end(s)", i, ended[i]);
  if (b != e) say("ERROR: %d thread(s) began, %d ended", b, e);
  __atomic_store_n(&poisoned, 1, __ATOMIC_RELEASE);
  say("finalize begun=%d ended=%d", b, e);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rv) {
  (void)v, (void)rv;
  static ompt_start_tool_result_t r = {initialize, finalize, {0}};
  return &r;
}
