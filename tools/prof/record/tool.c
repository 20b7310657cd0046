/* libtomp-prof.so: the OMPT tool.  ompt_start_tool reads the configuration, initialize
 * looks up the inquiry entry points and registers the callbacks, finalize writes the end of
 * the data file.  The callbacks maintain what the signal handler reads (task_data = context,
 * parallel_data = region struct, barrier-wait counts), record directed blame at lock
 * releases, and with TOMP_PROF_TRACE=1 append trace events.
 *
 * Environment (set by `tomp-prof record`): TOMP_PROF_DIR (default "."), TOMP_PROF_HZ
 * (1..10000, default 200), TOMP_PROF_TRACE (0 or 1), TOMP_PROF_CPU (1, default: CPU time per
 * sample from context-switch records; clock: from the thread's CPU clock, a system call per
 * sample; 0: none), TOMP_PROF_COUNTERS and TOMP_PROF_SAMPLE_ON
 * (counters.c); TOMP_PROF_STATS=1 prints the measured
 * costs (handler time per sample, task-creation time) on stderr at the end. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "rec.h"

tp_global_t tp_g;
static const char *runtime_name;

/* omp_control_tool commands and results (OpenMP 5.x, omp.h) */
enum { CT_START = 1, CT_PAUSE = 2, CT_FLUSH = 3, CT_END = 4 };
enum { CT_SUCCESS = 0, CT_IGNORED = 1 };

static void read_config(void) {
  const char *v = getenv("TOMP_PROF_DIR");
  snprintf(tp_g.cfg.dir, sizeof tp_g.cfg.dir, "%s", v && *v ? v : ".");
  if (v && strlen(v) >= sizeof tp_g.cfg.dir) {
    fprintf(stderr, "tomp-prof: TOMP_PROF_DIR is too long; using '.'\n");
    strcpy(tp_g.cfg.dir, ".");
  }
  tp_g.cfg.hz = 200;
  v = getenv("TOMP_PROF_HZ");
  if (v && *v) {
    char *end;
    errno = 0;
    long hz = strtol(v, &end, 10);
    if (errno || *end || hz < 1 || hz > 10000)
      fprintf(stderr, "tomp-prof: TOMP_PROF_HZ='%s' is not a rate in 1..10000 Hz; using 200\n", v);
    else
      tp_g.cfg.hz = (unsigned)hz;
  }
  tp_g.cfg.cpu = TP_CPU_SWITCHES;
  v = getenv("TOMP_PROF_CPU");
  if (v && *v) {
    if (!strcmp(v, "0"))
      tp_g.cfg.cpu = 0;
    else if (!strcmp(v, "clock"))
      tp_g.cfg.cpu = TP_CPU_CLOCK;
    else if (strcmp(v, "1"))
      fprintf(stderr, "tomp-prof: TOMP_PROF_CPU='%s' is not 1, clock or 0; using 1\n", v);
  }
  tp_counters_config();
  if (tp_counters_sampling() && !tp_g.cfg.cpu) {
    fprintf(stderr, "tomp-prof: TOMP_PROF_CPU=0 ignored: sampling on a counter weighs each sample "
                    "by the thread's CPU time\n");
    tp_g.cfg.cpu = TP_CPU_SWITCHES;
  }
  v = getenv("TOMP_PROF_STATS");
  tp_g.cfg.stats = v && !strcmp(v, "1");
  tp_g.cfg.trace = 0;
  v = getenv("TOMP_PROF_TRACE");
  if (v && *v) {
    if (!strcmp(v, "1"))
      tp_g.cfg.trace = 1;
    else if (strcmp(v, "0"))
      fprintf(stderr, "tomp-prof: TOMP_PROF_TRACE='%s' is neither 0 nor 1; tracing is off\n", v);
  }
}

static int live(void) { return !atomic_load_explicit(&tp_g.stopped, memory_order_relaxed); }
static int tracing(void) { return tp_g.cfg.trace && live(); }
static uint64_t ctx_of(const ompt_data_t *d) { return d ? d->value & ~TP_TASK_EXPLICIT : 0; }

/* ---- threads ---- */

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  tp_buf_start_writer(); /* once */
  tp_thread_t *t = tp_self;
  if (!t) {
    if (!live()) return;
    t = tp_thread_new((uint32_t)type);
    if (!t) return;
    tp_self = t;
  }
  thread_data->ptr = t;
  tp_sampler_arm(t);
  if (type == ompt_thread_worker && tracing()) {
    t->idle = 1;
    tp_trace_event(t, TP_EV_IDLE, TP_PH_BEGIN, 0, 0, NULL, 0);
  }
}

static void on_thread_end(ompt_data_t *thread_data) {
  (void)thread_data;
  tp_thread_t *t = tp_self;
  if (!t) return;
  if (t->idle && tracing()) tp_trace_event(t, TP_EV_IDLE, TP_PH_END, 0, 0, NULL, 0);
  t->idle = 0;
  tp_thread_close(t);
  tp_self = NULL;
}

/* ---- parallel regions and tasks ---- */

static void on_parallel_begin(ompt_data_t *enc_task, const ompt_frame_t *enc_frame,
                              ompt_data_t *parallel_data, unsigned requested, int flags,
                              const void *codeptr_ra) {
  (void)flags;
  tp_thread_t *t = tp_self;
  if (!t || !live()) return;
  tp_buf_start_writer(); /* a runtime that reported no thread_begin for the initial thread */
  tp_region_t *r = tp_region_get(t);
  if (!r) return;
  r->context = tp_ctx_intern(t, TP_CTX_PARALLEL, ctx_of(enc_task), enc_frame, codeptr_ra, &r->ctx);
  r->team_size = requested;
  r->begin_ns = tp_now_ns();
  atomic_store_explicit(&r->live, 1, memory_order_release);
  parallel_data->ptr = r;
  if (tracing()) tp_trace_event(t, TP_EV_PARALLEL, TP_PH_BEGIN, r->instance, r->context, codeptr_ra, requested);
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *enc_task, int flags,
                            const void *codeptr_ra) {
  (void)enc_task;
  (void)flags;
  tp_thread_t *t = tp_self;
  tp_region_t *r = parallel_data ? parallel_data->ptr : NULL;
  if (!t || !r) return;
  atomic_store_explicit(&r->live, 0, memory_order_release);
  tp_region_done(r, tp_now_ns());
  if (tracing()) tp_trace_event(t, TP_EV_PARALLEL, TP_PH_END, r->instance, r->context, codeptr_ra, r->team_size);
  tp_region_put(t, r);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned actual, unsigned index, int flags) {
  tp_thread_t *t = tp_self;
  tp_region_t *r = parallel_data ? parallel_data->ptr : NULL;
  if (endpoint == ompt_scope_begin) {
    /* implicit tasks run in their region's context; the initial task is the root (0) */
    task_data->value = r ? r->context : 0;
    if (flags & ompt_task_initial) return;
    if (r && index == 0) r->team_size = actual;
    if (!t || !tracing()) return;
    if (t->idle) tp_trace_event(t, TP_EV_IDLE, TP_PH_END, 0, 0, NULL, 0);
    t->idle = 0;
    t->implicit_depth++;
    tp_trace_event(t, TP_EV_IMPLICIT_TASK, TP_PH_BEGIN, r ? r->instance : 0, task_data->value, NULL, index);
  } else {
    if ((flags & ompt_task_initial) || !t || !tracing() || !t->implicit_depth) return;
    tp_trace_event(t, TP_EV_IMPLICIT_TASK, TP_PH_END, 0, task_data ? task_data->value : 0, NULL, index);
    if (--t->implicit_depth == 0 && t->kind == ompt_thread_worker) {
      t->idle = 1;
      tp_trace_event(t, TP_EV_IDLE, TP_PH_BEGIN, 0, 0, NULL, 0);
    }
  }
}

static void on_task_create(ompt_data_t *enc_task, const ompt_frame_t *enc_frame,
                           ompt_data_t *new_task, int flags, int has_dependences,
                           const void *codeptr_ra) {
  (void)has_dependences;
  tp_thread_t *t = tp_self;
  if (!(flags & ompt_task_explicit) || !new_task) return;
  uint64_t parent = ctx_of(enc_task);
  uint64_t t0 = tp_g.cfg.stats ? tp_now_ns() : 0;
  uint64_t id = t && live() ? tp_ctx_intern(t, TP_CTX_TASK, parent, enc_frame, codeptr_ra, NULL) : parent;
  new_task->value = id | TP_TASK_EXPLICIT;
  if (tracing() && t)
    tp_trace_event(t, TP_EV_TASK_CREATE, TP_PH_INSTANT, (uint64_t)(uintptr_t)new_task, id, codeptr_ra,
                   enc_task && (enc_task->value & TP_TASK_EXPLICIT) ? (uint64_t)(uintptr_t)enc_task : 0);
  if (t0) {
    uint64_t d = tp_now_ns() - t0;
    atomic_fetch_add_explicit(&tp_g.create_hist[d / TP_HIST_NS < TP_HIST ? d / TP_HIST_NS : TP_HIST - 1], 1,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&tp_g.create_ns, d, memory_order_relaxed);
    atomic_fetch_add_explicit(&tp_g.creates, 1, memory_order_relaxed);
  }
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next) {
  tp_thread_t *t = tp_self;
  /* registered always: keep the common case (not in a barrier, not tracing) to a few loads */
  if (!t || status == ompt_task_early_fulfill || status == ompt_task_late_fulfill) return;
  /* a thread inside a barrier that runs an explicit task works (undirected blame) */
  if (t->wait_region) {
    if (next && (next->value & TP_TASK_EXPLICIT))
      tp_region_wait_suspend(t);
    else
      tp_region_wait_resume(t);
  }
  if (!tp_g.cfg.trace || !tracing()) return;
  if (prior && (prior->value & TP_TASK_EXPLICIT))
    tp_trace_event(t, TP_EV_TASK, TP_PH_END, (uint64_t)(uintptr_t)prior, ctx_of(prior), NULL, status);
  if (next && (next->value & TP_TASK_EXPLICIT))
    tp_trace_event(t, TP_EV_TASK, TP_PH_BEGIN, (uint64_t)(uintptr_t)next, ctx_of(next), NULL, status);
}

/* ---- waits, locks, worksharing ---- */

static int is_barrier(ompt_sync_region_t kind) {
  return kind == ompt_sync_region_barrier || kind == ompt_sync_region_barrier_implicit ||
         kind == ompt_sync_region_barrier_explicit ||
         kind == ompt_sync_region_barrier_implementation ||
         kind == ompt_sync_region_barrier_implicit_workshare ||
         kind == ompt_sync_region_barrier_implicit_parallel;
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra) {
  (void)task_data;
  tp_thread_t *t = tp_self;
  if (!t) return;
  tp_region_t *r = NULL;
  if (endpoint == ompt_scope_begin) {
    ompt_data_t *pd = parallel_data;
    int size;
    if (!pd && tp_g.get_parallel_info) tp_g.get_parallel_info(0, &pd, &size);
    r = pd ? pd->ptr : NULL;
    if (is_barrier(kind)) tp_region_wait_begin(t, r);
  } else if (is_barrier(kind)) {
    tp_region_wait_end(t);
  }
  if (tracing())
    tp_trace_event(t, TP_EV_SYNC_WAIT, endpoint == ompt_scope_begin ? TP_PH_BEGIN : TP_PH_END,
                   r ? r->instance : 0, 0, codeptr_ra, kind);
}

static int is_test(ompt_mutex_t kind) {
  return kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                             ompt_wait_id_t wait_id, const void *codeptr_ra) {
  (void)hint;
  (void)impl;
  tp_thread_t *t = tp_self;
  if (!t || is_test(kind)) return; /* a test never waits */
  /* a task setting a nest lock it owns: no wait, and no acquired follows (nest_lock does) */
  if (kind == ompt_mutex_nest_lock && tp_blame_holds(t, wait_id)) return;
  tp_blame_acquire(t, wait_id);
  if (tracing()) tp_trace_event(t, TP_EV_MUTEX_WAIT, TP_PH_BEGIN, wait_id, 0, codeptr_ra, kind);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra) {
  tp_thread_t *t = tp_self;
  if (!t) return;
  tp_blame_acquired(t, wait_id, codeptr_ra); /* even when stopped: ownership must stay consistent */
  if (!tracing()) return;
  if (!is_test(kind)) tp_trace_event(t, TP_EV_MUTEX_WAIT, TP_PH_END, wait_id, 0, codeptr_ra, kind);
  tp_trace_event(t, TP_EV_MUTEX_HELD, TP_PH_BEGIN, wait_id, 0, codeptr_ra, kind);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra) {
  tp_thread_t *t = tp_self;
  if (!t) return;
  tp_blame_release(t, (int)kind, wait_id);
  if (tracing()) tp_trace_event(t, TP_EV_MUTEX_HELD, TP_PH_END, wait_id, 0, codeptr_ra, kind);
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                    ompt_data_t *task_data, uint64_t count, const void *codeptr_ra) {
  (void)parallel_data;
  if (!tracing()) return;
  tp_trace_event(tp_self, TP_EV_WORK, endpoint == ompt_scope_begin ? TP_PH_BEGIN : TP_PH_END,
                 count, ctx_of(task_data), codeptr_ra, type);
}

/* ---- omp_control_tool ---- */

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr_ra) {
  (void)modifier;
  (void)arg;
  (void)codeptr_ra;
  if (!live()) return CT_IGNORED; /* ended for good */
  switch (command) {
  case CT_START:
    atomic_store(&tp_g.paused, 0);
    return CT_SUCCESS;
  case CT_PAUSE:
    atomic_store(&tp_g.paused, 1);
    return CT_SUCCESS;
  case CT_FLUSH:
    tp_buf_flush_self(tp_self);
    return CT_SUCCESS;
  case CT_END:
    tp_buf_finish();
    return CT_SUCCESS;
  default:
    return CT_IGNORED; /* implementation-defined commands: none */
  }
}

/* ---- start-up and shut-down ---- */

static void forked_child(void) { tp_buf_forked_child(); }

static void reg(ompt_set_callback_t set, ompt_callbacks_t event, void *fn) {
  set(event, (ompt_callback_t)(uintptr_t)fn);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data) {
  (void)initial_device_num;
  (void)tool_data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  tp_g.get_state = (ompt_get_state_t)lookup("ompt_get_state");
  tp_g.get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  tp_g.get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  tp_g.get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  if (!set) return 0;
  tp_g.pid = getpid();
  tp_g.start_ns = tp_now_ns();
  if (tp_buf_open(runtime_name) < 0) return 0;
  tp_counters_probe(); /* before any thread opens them: drops what the kernel refuses */
  reg(set, ompt_callback_thread_begin, on_thread_begin);
  reg(set, ompt_callback_thread_end, on_thread_end);
  reg(set, ompt_callback_parallel_begin, on_parallel_begin);
  reg(set, ompt_callback_parallel_end, on_parallel_end);
  reg(set, ompt_callback_implicit_task, on_implicit_task);
  reg(set, ompt_callback_task_create, on_task_create);
  reg(set, ompt_callback_sync_region_wait, on_sync_region_wait);
  reg(set, ompt_callback_mutex_acquire, on_mutex_acquire);
  reg(set, ompt_callback_mutex_acquired, on_mutex_acquired);
  reg(set, ompt_callback_mutex_released, on_mutex_released);
  reg(set, ompt_callback_control_tool, on_control_tool);
  reg(set, ompt_callback_task_schedule, on_task_schedule);
  if (tp_g.cfg.trace) reg(set, ompt_callback_work, on_work);
  tp_unwind_warmup(); /* its first call may allocate: never let that happen in the handler */
  tp_sampler_install();
  /* The writer thread starts at the first thread_begin (the initial thread's comes right
   * after initialize), not here: tomp registers membarrier and rewrites its tool path after
   * initialize returns, which costs an RCU grace period each (15 ms under load here) in a
   * process that already has a second thread, and nothing in a single-threaded one. */
  pthread_atfork(NULL, NULL, forked_child);
  tp_thread_t *t = tp_thread_new(ompt_thread_initial);
  if (t) {
    tp_self = t;
    tp_sampler_arm(t);
  }
  return 1;
}

static void finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  tp_buf_finish();
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                                                const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  /* A set-user-ID (or similar) program would write the profile with its privileges where
   * the user's TOMP_PROF_DIR says (or into the current directory): no recording at all. */
  if (getauxval(AT_SECURE)) {
    fprintf(stderr, "tomp-prof: secure-execution mode (set-user-ID or similar): not recording "
                    "(TOMP_PROF_* ignored)\n");
    return NULL;
  }
  runtime_name = runtime_version;
  read_config();
  return &result;
}
