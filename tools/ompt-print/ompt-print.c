/* ompt-print: an OMPT tool that prints every event it receives, one line each, and checks
 * the invariants a tool relies on.  Used by the OMPT tests (tests/ompt/run-test.sh and the
 * ompt_* scenarios); builds against any omp-tools.h (tomp's or LLVM's) and runs on any OMPT
 * runtime.
 *
 *   gcc -shared -fPIC -I<dir of omp-tools.h> ompt-print.c -o libompt-print.so
 *   OMP_TOOL_LIBRARIES=./libompt-print.so ./a.out
 *
 * Line format: "<thread>: <event> key=value ...", thread being the tool's number for the
 * thread (1 = first thread_begin; 0 before any).  Ids of parallel regions and tasks are the
 * tool's own, in order of first sight, so output is stable from run to run once sorted by
 * thread (sort -s -n -t: -k1,1).  codeptr_ra is printed as the dynamic symbol containing it
 * (link programs with -rdynamic), "present" when it has none, or "null".
 *
 * A broken invariant prints a line containing "ERROR:".  Besides pairing, nesting, identities,
 * states and frames, the specification's end-event arguments (actual_parallelism 0 at every
 * implicit/initial-task end, parallel_data NULL at a parallel region's closing-barrier end),
 * the task a dispatch binds to (the current one) and discarded tasks (never started, the
 * cancel event in the discarding task) are checked.  Environment:
 *   OMPT_PRINT_STRICT=0        only check what every runtime promises (default 1: also
 *                              tomp's promises: frames set, codeptr_ra non-NULL but for a
 *                              worker's closing barrier, every implicit-task-end before its
 *                              parallel-end, every thread ends)
 *   OMPT_PRINT_INIT_RESULT=0   initialize returns 0 (the tool deactivates itself)
 *   OMPT_PRINT_NO_CONTROL=1    do not register the control_tool callback
 *   OMPT_PRINT_FINALIZE_ON_END=1  omp_control_tool(omp_control_tool_end, ...) makes the tool
 *                              call ompt_finalize_tool */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <omp-tools.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ompt_set_callback_t set_callback;
static ompt_get_thread_data_t get_thread_data;
static ompt_get_state_t get_state;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_finalize_tool_t finalize_tool;
static ompt_enumerate_states_t enumerate_states;

static int strict = 1, finalize_on_end, finalized, nerrors;
static uint64_t next_thread = 1, next_parallel = 1, next_task = 1;
static int threads_begun, threads_ended;

#define MAXDEPTH 64
static __thread ompt_data_t *my_thread_data;
static __thread int my_ended;
static __thread uint64_t my_id;
static __thread uint64_t implicit_stack[MAXDEPTH];
static __thread int implicit_depth;
static __thread int sync_stack[MAXDEPTH];
static __thread int sync_depth;
static __thread int wait_open;

typedef struct par {
  uint64_t id;
  int open;
  int live_implicit; /* implicit tasks begun and not ended */
} par_t;

typedef struct task {
  uint64_t id;
  par_t *par;
  int explicit_;  /* created by task_create */
  int completed;  /* task_schedule with a completing status, or discarded (cancel) */
  int started;    /* next task of a task_schedule */
  int detached;
} task_t;

static uint64_t tasks_created, tasks_completed;
static __thread int work_stack[MAXDEPTH];
static __thread int work_depth;
#define MAXHELD 64
static __thread ompt_wait_id_t held[MAXHELD];
static __thread int nheld;
static __thread int masked_depth;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...) {
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "%" PRIu64 ": ", my_id);
  va_list ap;
  va_start(ap, fmt);
  n += vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
  va_end(ap);
  if (n > (int)sizeof buf - 2) n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  ssize_t r = write(1, buf, (size_t)n);
  (void)r;
}

#define ERROR(...)                                                                                 \
  do {                                                                                             \
    __atomic_add_fetch(&nerrors, 1, __ATOMIC_RELAXED);                                             \
    out("ERROR: " __VA_ARGS__);                                                                    \
  } while (0)

static const char *sym(const void *ra) {
  if (!ra) return "null";
  Dl_info info;
  if (dladdr(ra, &info) && info.dli_sname && info.dli_saddr) return info.dli_sname;
  return "present";
}

static const char *state_name(int st) {
  static __thread char buf[32];
  int s = ompt_state_undefined;
  const char *name;
  if (enumerate_states)
    while (enumerate_states(s, &s, &name))
      if (s == st) return name + strlen("ompt_state_");
  if (st == ompt_state_undefined) return "undefined";
  snprintf(buf, sizeof buf, "0x%x", st);
  return buf;
}

static const char *sync_name(int k) {
  static const char *n[] = {"?", "barrier", "barrier_implicit", "barrier_explicit",
                            "barrier_implementation", "taskwait", "taskgroup", "reduction",
                            "barrier_implicit_workshare", "barrier_implicit_parallel",
                            "barrier_teams"};
  return k >= 0 && k <= 10 ? n[k] : "?";
}

static void flag_names(char *buf, size_t n, int flags, const char *const *names, int nnames) {
  buf[0] = 0;
  for (int i = 0; i < nnames; i++)
    if (names[i] && (flags & (1 << i))) {
      if (buf[0]) strncat(buf, "|", n - strlen(buf) - 1);
      strncat(buf, names[i], n - strlen(buf) - 1);
    }
  if (!buf[0]) snprintf(buf, n, "0");
}

static const char *const task_flag_names[32] = {
    [0] = "initial", [1] = "implicit", [2] = "explicit", [3] = "target", [4] = "taskwait",
    [27] = "undeferred", [28] = "untied", [29] = "final", [30] = "mergeable", [31] = "merged"};
static const char *const par_flag_names[32] = {
    [0] = "invoker_program", [1] = "invoker_runtime", [30] = "league", [31] = "team"};

/* Every callback starts here: identity of the thread and its data, no event after the end. */
static void enter(const char *event) {
  if (finalized) ERROR("%s after finalize", event);
  if (!my_thread_data) {
    ERROR("%s before thread_begin on this thread", event);
    return;
  }
  if (my_ended) ERROR("%s after thread_end on this thread", event);
  if (get_thread_data() != my_thread_data)
    ERROR("%s: ompt_get_thread_data() %p differs from thread_begin's %p", event,
          (void *)get_thread_data(), (void *)my_thread_data);
  int st = get_state(NULL);
  if (st == ompt_state_undefined) ERROR("%s: state undefined on an OpenMP thread", event);
}

static uint64_t task_id(ompt_data_t *d) {
  return d && d->ptr ? ((task_t *)d->ptr)->id : 0;
}
static uint64_t par_id(ompt_data_t *d) { return d && d->ptr ? ((par_t *)d->ptr)->id : 0; }

static void frame_str(char *buf, size_t n, const ompt_frame_t *f) {
  if (!f) {
    snprintf(buf, n, "none");
    return;
  }
  snprintf(buf, n, "exit=%s/0x%x,enter=%s/0x%x", f->exit_frame.ptr ? "set" : "null",
           f->exit_frame_flags, f->enter_frame.ptr ? "set" : "null", f->enter_frame_flags);
}

static void check_frame_flags(const char *event, const char *which, const ompt_frame_t *f) {
  if (f->exit_frame.ptr && !(f->exit_frame_flags & 0x30))
    ERROR("%s: %s exit_frame set without an address kind in its flags", event, which);
  if (f->enter_frame.ptr && !(f->enter_frame_flags & 0x30))
    ERROR("%s: %s enter_frame set without an address kind in its flags", event, which);
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  if (my_thread_data) ERROR("second thread_begin on this thread");
  my_thread_data = thread_data;
  my_id = __atomic_fetch_add(&next_thread, 1, __ATOMIC_RELAXED);
  thread_data->value = my_id;
  __atomic_add_fetch(&threads_begun, 1, __ATOMIC_RELAXED);
  enter("thread_begin");
  static const char *names[] = {"?", "initial", "worker", "other", "unknown"};
  out("thread_begin type=%s state=%s", type >= 1 && type <= 4 ? names[type] : "?",
      state_name(get_state(NULL)));
}

#define MAXTHREADS 4096
static int ended_ids[MAXTHREADS];

/* A thread busy in a region when the tool is finalized gets its thread_end on the finalizing
 * thread (tomp): thread_data is then another thread's, and this thread's own end follows. */
static void on_thread_end(ompt_data_t *thread_data) {
  enter("thread_end");
  uint64_t id = thread_data->value;
  if (id > 0 && id < MAXTHREADS && __atomic_fetch_add(&ended_ids[id], 1, __ATOMIC_RELAXED))
    ERROR("thread_end: second thread_end for thread %" PRIu64, id);
  if (thread_data != my_thread_data) {
    if (id == 0 || id >= __atomic_load_n(&next_thread, __ATOMIC_RELAXED))
      ERROR("thread_end: thread_data of no thread that began");
    out("thread_end on behalf of thread=%" PRIu64, id);
    __atomic_add_fetch(&threads_ended, 1, __ATOMIC_RELAXED);
    return;
  }
  if (thread_data->value != my_id) ERROR("thread_end: thread_data value changed");
  /* finalized from inside a region (ompt_finalize_tool, exit()): its tasks never end */
  if (implicit_depth && get_state(NULL) == ompt_state_work_parallel)
    out("thread_end with %d implicit task(s) open: finalized inside a region", implicit_depth);
  else if (implicit_depth)
    ERROR("thread_end with %d implicit task(s) not ended", implicit_depth);
  out("thread_end");
  my_ended = 1;
  __atomic_add_fetch(&threads_ended, 1, __ATOMIC_RELAXED);
}

static void on_parallel_begin(ompt_data_t *enc_data, const ompt_frame_t *enc_frame,
                              ompt_data_t *pdata, unsigned requested, int flags,
                              const void *ra) {
  enter("parallel_begin");
  par_t *p = calloc(1, sizeof *p);
  p->id = __atomic_fetch_add(&next_parallel, 1, __ATOMIC_RELAXED);
  p->open = 1;
  pdata->ptr = p;
  char fl[128], fr[96];
  flag_names(fl, sizeof fl, flags, par_flag_names, 32);
  frame_str(fr, sizeof fr, enc_frame);
  int st = get_state(NULL);
  out("parallel_begin parallel=%" PRIu64 " encountering_task=%" PRIu64
      " requested=%u flags=%s codeptr=%s frame=%s",
      p->id, task_id(enc_data), requested, fl, sym(ra), fr);
  if (st != ompt_state_work_serial && st != ompt_state_work_parallel)
    ERROR("parallel_begin: state %s", state_name(st));
  ompt_data_t *cur;
  if (get_task_info(0, NULL, &cur, NULL, NULL, NULL) != 2 || cur != enc_data)
    ERROR("parallel_begin: encountering task is not the current task");
  if (enc_frame) check_frame_flags("parallel_begin", "encountering", enc_frame);
  if (strict) {
    if (!ra) ERROR("parallel_begin: codeptr_ra NULL");
    if (!enc_frame || !enc_frame->enter_frame.ptr)
      ERROR("parallel_begin: encountering task's enter_frame not set");
    if (!task_id(enc_data)) ERROR("parallel_begin: encountering task unknown");
  }
}

static void on_parallel_end(ompt_data_t *pdata, ompt_data_t *enc_data, int flags,
                            const void *ra) {
  enter("parallel_end");
  par_t *p = pdata->ptr;
  char fl[128];
  flag_names(fl, sizeof fl, flags, par_flag_names, 32);
  out("parallel_end parallel=%" PRIu64 " encountering_task=%" PRIu64 " flags=%s codeptr=%s",
      par_id(pdata), task_id(enc_data), fl, sym(ra));
  if (!p) {
    ERROR("parallel_end: parallel_data not set at parallel_begin");
    return;
  }
  if (!p->open) ERROR("parallel_end: region %" PRIu64 " ended twice", p->id);
  p->open = 0;
  if (strict && __atomic_load_n(&p->live_implicit, __ATOMIC_ACQUIRE))
    ERROR("parallel_end: %d implicit task(s) of region %" PRIu64 " not ended", p->live_implicit,
          p->id);
  if (strict && !ra) ERROR("parallel_end: codeptr_ra NULL");
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pdata, ompt_data_t *tdata,
                             unsigned actual, unsigned index, int flags) {
  char fl[128];
  flag_names(fl, sizeof fl, flags, task_flag_names, 32);
  if (ep == ompt_scope_begin) {
    enter("implicit_task_begin");
    task_t *t = calloc(1, sizeof *t);
    t->id = __atomic_fetch_add(&next_task, 1, __ATOMIC_RELAXED);
    t->par = pdata ? pdata->ptr : NULL;
    tdata->ptr = t;
    if (t->par) __atomic_add_fetch(&t->par->live_implicit, 1, __ATOMIC_ACQ_REL);
    if (implicit_depth < MAXDEPTH) implicit_stack[implicit_depth] = t->id;
    implicit_depth++;
    out("implicit_task_begin parallel=%" PRIu64 " task=%" PRIu64 " team_size=%u index=%u "
        "flags=%s state=%s",
        par_id(pdata), t->id, actual, index, fl, state_name(get_state(NULL)));
    ompt_data_t *pd, *td;
    int size, tflags, tnum;
    ompt_frame_t *frame;
    if (get_parallel_info(0, &pd, &size) != 2 || pd != pdata || (unsigned)size != actual)
      ERROR("implicit_task_begin: ompt_get_parallel_info(0) disagrees");
    if (get_task_info(0, &tflags, &td, &frame, &pd, &tnum) != 2 || td != tdata || pd != pdata)
      ERROR("implicit_task_begin: ompt_get_task_info(0) disagrees");
    else if (!(flags & ompt_task_initial) && (unsigned)tnum != index)
      ERROR("implicit_task_begin: thread_num %d != index %u", tnum, index);
    else if (tflags != flags)
      ERROR("implicit_task_begin: task flags 0x%x != 0x%x", tflags, flags);
    if (!(flags & ompt_task_initial)) {
      ompt_frame_t *pf;
      if (get_task_info(1, NULL, NULL, &pf, NULL, NULL) != 2)
        ERROR("implicit_task_begin: no encountering task at level 1");
      else if (strict && !pf->enter_frame.ptr)
        ERROR("implicit_task_begin: encountering task's enter_frame not set");
      int st = get_state(NULL);
      if (st != ompt_state_work_parallel)
        ERROR("implicit_task_begin: state %s", state_name(st));
    }
  } else {
    enter("implicit_task_end");
    task_t *t = tdata->ptr;
    out("implicit_task_end parallel=%" PRIu64 " task=%" PRIu64 " team_size=%u index=%u "
        "flags=%s",
        par_id(pdata), task_id(tdata), actual, index, fl);
    /* 5.0 and later: "For the implicit-task-end and the initial-task-end events, this
     * argument is 0" (actual_parallelism) */
    if (actual != 0) ERROR("implicit_task_end: actual_parallelism %u, not 0", actual);
    if (!t) {
      ERROR("implicit_task_end: task_data not set at begin");
      return;
    }
    implicit_depth--;
    if (implicit_depth < 0) {
      ERROR("implicit_task_end without begin");
      implicit_depth = 0;
    } else if (implicit_depth < MAXDEPTH && implicit_stack[implicit_depth] != t->id)
      ERROR("implicit_task_end: task %" PRIu64 " is not the innermost (%" PRIu64 ")", t->id,
            implicit_stack[implicit_depth]);
    if (t->par) {
      if (!t->par->open && !(flags & ompt_task_initial) && strict)
        ERROR("implicit_task_end after parallel_end of region %" PRIu64, t->par->id);
      __atomic_sub_fetch(&t->par->live_implicit, 1, __ATOMIC_ACQ_REL);
    }
  }
}

static void sync_common(const char *what, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                        ompt_data_t *pdata, ompt_data_t *tdata, const void *ra, int wait) {
  char ev[64];
  snprintf(ev, sizeof ev, "%s_%s", what, ep == ompt_scope_begin ? "begin" : "end");
  enter(ev);
  int st = get_state(NULL);
  out("%s kind=%s parallel=%" PRIu64 " task=%" PRIu64 " codeptr=%s", ev, sync_name(kind),
      par_id(pdata), task_id(tdata), sym(ra));
  ompt_data_t *td;
  if (get_task_info(0, NULL, &td, NULL, NULL, NULL) != 2 || td != tdata)
    ERROR("%s: task_data is not the current task's", ev);
  int barrier = kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
                kind != ompt_sync_region_reduction;
  if (wait && barrier && (st < ompt_state_wait_barrier || st > ompt_state_wait_barrier_teams))
    ERROR("%s: state %s is not a barrier wait", ev, state_name(st));
  /* a worker's closing barrier of a parallel region has no call site (NULL, as libomp) */
  if (strict && !ra && kind != ompt_sync_region_barrier_implicit_parallel)
    ERROR("%s: codeptr_ra NULL", ev);
  /* 5.2 (ompt_callback_sync_region_t): "For the barrier-end event at the end of a parallel
   * region this argument is NULL" (parallel_data) */
  if (ep == ompt_scope_end && kind == ompt_sync_region_barrier_implicit_parallel && pdata)
    ERROR("%s: parallel_data not NULL at the end of a parallel region's barrier", ev);
  if (strict && ep == ompt_scope_begin && !wait && kind == ompt_sync_region_barrier_explicit) {
    ompt_frame_t *f;
    get_task_info(0, NULL, NULL, &f, NULL, NULL);
    char fr[96];
    frame_str(fr, sizeof fr, f);
    check_frame_flags(ev, "current", f);
    if (!f->enter_frame.ptr) ERROR("%s: enter_frame not set in the runtime (%s)", ev, fr);
    else if ((char *)__builtin_frame_address(0) >= (char *)f->enter_frame.ptr)
      ERROR("%s: enter_frame is not above the callback's frame", ev);
    if (f->exit_frame.ptr && (char *)f->exit_frame.ptr <= (char *)f->enter_frame.ptr)
      ERROR("%s: exit_frame below enter_frame", ev);
  }
  if (!wait) {
    if (ep == ompt_scope_begin) {
      if (sync_depth < MAXDEPTH) sync_stack[sync_depth] = kind;
      sync_depth++;
    } else if (--sync_depth < 0) {
      ERROR("%s without begin", ev);
      sync_depth = 0;
    } else if (sync_depth < MAXDEPTH && sync_stack[sync_depth] != (int)kind) {
      ERROR("%s: kind differs from its begin", ev);
    }
  } else {
    /* waits nest: a waiting thread runs tasks, which may wait themselves */
    if (ep == ompt_scope_begin) {
      if (wait_open >= sync_depth) ERROR("%s: more waits than sync regions", ev);
      wait_open++;
      if (!sync_depth) ERROR("%s outside a sync region", ev);
    } else {
      if (!wait_open) ERROR("%s without begin", ev);
      else wait_open--;
    }
  }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pdata,
                           ompt_data_t *tdata, const void *ra) {
  sync_common("sync_region", kind, ep, pdata, tdata, ra, 0);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                                ompt_data_t *pdata, ompt_data_t *tdata, const void *ra) {
  sync_common("sync_region_wait", kind, ep, pdata, tdata, ra, 1);
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *ra) {
  enter("control_tool");
  out("control_tool command=%" PRIu64 " modifier=%" PRIu64 " arg=%s codeptr=%s", command,
      modifier, arg ? "set" : "null", sym(ra));
  if (command == 4 /* omp_control_tool_end */ && finalize_on_end) {
    out("calling ompt_finalize_tool");
    finalize_tool();
    out("ompt_finalize_tool returned");
  }
  return command >= 64 ? (int)modifier : 0;
}


/* ---- constructs (work, dispatch, tasks, mutexes, cancel, errors, target) ---------------- */

static const char *work_name(int w) {
  static const char *n[] = {"?", "loop", "sections", "single_executor", "single_other",
                            "workshare", "distribute", "taskloop", "scope", "?", "loop_static",
                            "loop_dynamic", "loop_guided", "loop_other"};
  return w >= 0 && w <= 13 ? n[w] : "?";
}

static void on_work(ompt_work_t wt, ompt_scope_endpoint_t ep, ompt_data_t *pdata,
                    ompt_data_t *tdata, uint64_t count, const void *ra) {
  const char *ev = ep == ompt_scope_begin ? "work_begin" : "work_end";
  enter(ev);
  out("%s type=%s parallel=%" PRIu64 " task=%" PRIu64 " count=%" PRIu64 " codeptr=%s", ev,
      work_name(wt), par_id(pdata), task_id(tdata), count, sym(ra));
  ompt_data_t *td, *pd;
  if (get_task_info(0, NULL, &td, NULL, &pd, NULL) != 2 || td != tdata || pd != pdata)
    ERROR("%s: task/parallel data are not the current task's", ev);
  if (strict && !ra) ERROR("%s: codeptr_ra NULL", ev);
  if (ep == ompt_scope_begin) {
    if (work_depth < MAXDEPTH) work_stack[work_depth] = wt;
    work_depth++;
  } else if (--work_depth < 0) {
    ERROR("%s without begin", ev);
    work_depth = 0;
  } else if (work_depth < MAXDEPTH && work_stack[work_depth] != (int)wt) {
    ERROR("%s: type %s differs from its begin (%s)", ev, work_name(wt),
          work_name(work_stack[work_depth]));
  }
}

static void on_dispatch(ompt_data_t *pdata, ompt_data_t *tdata, ompt_dispatch_t kind,
                        ompt_data_t instance) {
  enter("dispatch");
  /* it binds to the task that executes the iterations or section, the current one (for a
   * taskloop chunk: the chunk's explicit task, as it starts) */
  ompt_data_t *cur;
  if (get_task_info(0, NULL, &cur, NULL, NULL, NULL) != 2 || cur != tdata)
    ERROR("dispatch: task_data is not the current task's");
  if (kind == ompt_dispatch_section) {
    out("dispatch kind=section parallel=%" PRIu64 " task=%" PRIu64 " section=%" PRIu64,
        par_id(pdata), task_id(tdata), instance.value);
  } else if (kind >= 3 && kind <= 5) { /* 5.2 chunk kinds (spelt out: older headers lack them) */
    struct { uint64_t start, iterations; } *c = instance.ptr;
    out("dispatch kind=%s parallel=%" PRIu64 " task=%" PRIu64 " start=%" PRId64
        " iterations=%" PRIu64,
        kind == 3 ? "ws_loop_chunk" : kind == 4 ? "taskloop_chunk" : "distribute_chunk",
        par_id(pdata), task_id(tdata), (int64_t)c->start, c->iterations);
    if (!c->iterations) ERROR("dispatch: empty chunk");
    if (kind == 3 && !work_depth) ERROR("dispatch outside work");
  } else {
    out("dispatch kind=%d", (int)kind);
  }
}

static void on_task_create(ompt_data_t *enc, const ompt_frame_t *enc_frame, ompt_data_t *tdata,
                           int flags, int has_deps, const void *ra) {
  enter("task_create");
  task_t *t = calloc(1, sizeof *t);
  t->id = __atomic_fetch_add(&next_task, 1, __ATOMIC_RELAXED);
  t->explicit_ = 1;
  if (tdata->ptr) ERROR("task_create: task_data not zeroed");
  tdata->ptr = t;
  __atomic_add_fetch(&tasks_created, 1, __ATOMIC_RELAXED);
  char fl[128];
  flag_names(fl, sizeof fl, flags, task_flag_names, 32);
  out("task_create task=%" PRIu64 " parent=%" PRIu64 " flags=%s deps=%d codeptr=%s", t->id,
      task_id(enc), fl, has_deps, sym(ra));
  ompt_data_t *cur;
  if (get_task_info(0, NULL, &cur, NULL, NULL, NULL) != 2 || cur != enc)
    ERROR("task_create: encountering task is not the current task");
  if (enc_frame) check_frame_flags("task_create", "encountering", enc_frame);
  if (strict) {
    if (!ra) ERROR("task_create: codeptr_ra NULL");
    if (!enc_frame || !enc_frame->enter_frame.ptr)
      ERROR("task_create: encountering task's enter_frame not set");
  }
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t st, ompt_data_t *next) {
  static const char *n[] = {"?", "complete", "yield", "cancel", "detach", "early_fulfill",
                            "late_fulfill", "switch", "taskwait_complete"};
  enter("task_schedule");
  out("task_schedule prior=%" PRIu64 " status=%s next=%" PRIu64, task_id(prior),
      st >= 1 && st <= 8 ? n[st] : "?", task_id(next));
  task_t *t = prior ? prior->ptr : NULL;
  int completes = st == ompt_task_complete || st == ompt_task_cancel ||
                  st == ompt_task_late_fulfill || st == 8 /* ompt_taskwait_complete (5.1) */;
  if (t && t->explicit_ && completes) {
    if (__atomic_add_fetch(&t->completed, 1, __ATOMIC_ACQ_REL) > 1)
      ERROR("task_schedule: task %" PRIu64 " completed twice", t->id);
    __atomic_add_fetch(&tasks_completed, 1, __ATOMIC_RELAXED);
  }
  if (t && st == ompt_task_detach) t->detached = 1;
  if (t && st == ompt_task_late_fulfill && !t->detached)
    ERROR("task_schedule: late_fulfill of task %" PRIu64 " that was not detached", t->id);
  if (next && next->ptr && st != ompt_task_early_fulfill && st != ompt_task_late_fulfill)
    __atomic_store_n(&((task_t *)next->ptr)->started, 1, __ATOMIC_RELAXED);
  if (next && st != ompt_task_early_fulfill && st != ompt_task_late_fulfill) {
    ompt_data_t *cur;
    if (get_task_info(0, NULL, &cur, NULL, NULL, NULL) != 2 || cur != next)
      ERROR("task_schedule: next task is not the current task");
    if (st == ompt_task_switch || st == ompt_task_yield) {
      ompt_frame_t *f;
      int tnum;
      ompt_data_t *pd;
      int size;
      get_task_info(0, NULL, NULL, &f, NULL, &tnum);
      if (get_parallel_info(0, &pd, &size) == 2 && (tnum < 0 || tnum >= size))
        ERROR("task_schedule: thread_num %d outside team of %d", tnum, size);
      if (strict && !f->exit_frame.ptr) ERROR("task_schedule: next task's exit_frame not set");
      check_frame_flags("task_schedule", "next", f);
    }
  }
}

static void on_dependences(ompt_data_t *tdata, const ompt_dependence_t *deps, int n) {
  static const char *k[] = {"?", "in", "out", "inout", "mutexinoutset", "source", "sink",
                            "inoutset"};
  enter("dependences");
  char buf[512] = "";
  for (int i = 0; i < n && strlen(buf) < 400; i++) {
    int t = deps[i].dependence_type;
    /* 34 and 35: 5.2's out_all_memory and inout_all_memory (LLVM 14's header, which this
     * tool is also built against, lacks their names) */
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "",
             t >= 1 && t <= 7 ? k[t]
             : t == 34        ? "out_all_memory"
             : t == 35        ? "inout_all_memory"
                              : "?");
    if (t == ompt_dependence_type_source || t == ompt_dependence_type_sink) /* doacross */
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ":%" PRIu64, deps[i].variable.value);
  }
  out("dependences task=%" PRIu64 " n=%d kinds=%s", task_id(tdata), n, buf);
}

static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) {
  enter("task_dependence");
  out("task_dependence src=%" PRIu64 " sink=%" PRIu64, task_id(src), task_id(sink));
  if (!task_id(src) || !task_id(sink)) ERROR("task_dependence: unknown task");
}

static const char *mutex_name(int k) {
  static const char *n[] = {"?", "lock", "test_lock", "nest_lock", "test_nest_lock", "critical",
                            "atomic", "ordered"};
  return k >= 1 && k <= 7 ? n[k] : "?";
}

/* wait_ids of mutexes are printed as small numbers in order of first sight */
#define MAXIDS 256
static ompt_wait_id_t ids[MAXIDS];
static int nids;
static int wid(ompt_wait_id_t w) {
  static int lock;
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE)) {}
  int i = 0;
  while (i < nids && ids[i] != w) i++;
  if (i == nids && nids < MAXIDS) ids[nids++] = w;
  __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
  return i + 1;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t w,
                             const void *ra) {
  enter("mutex_acquire");
  out("mutex_acquire kind=%s hint=%u impl=%s wait_id=%d codeptr=%s", mutex_name(kind), hint,
      impl ? "set" : "none", wid(w), sym(ra));
  if (strict && !ra) ERROR("mutex_acquire: codeptr_ra NULL");
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t w, const void *ra) {
  enter("mutex_acquired");
  out("mutex_acquired kind=%s wait_id=%d codeptr=%s", mutex_name(kind), wid(w), sym(ra));
  for (int i = 0; i < nheld; i++)
    if (held[i] == w) ERROR("mutex_acquired: wait_id %d already held by this thread", wid(w));
  if (nheld < MAXHELD) held[nheld++] = w;
  int st = get_state(NULL);
  if (st >= ompt_state_wait_mutex && st <= ompt_state_wait_ordered)
    ERROR("mutex_acquired: still in wait state %s", state_name(st));
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t w, const void *ra) {
  enter("mutex_released");
  out("mutex_released kind=%s wait_id=%d codeptr=%s", mutex_name(kind), wid(w), sym(ra));
  int i = 0;
  while (i < nheld && held[i] != w) i++;
  if (i == nheld) ERROR("mutex_released: wait_id %d not acquired by this thread", wid(w));
  else held[i] = held[--nheld];
}

static void on_lock_init(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t w,
                         const void *ra) {
  enter("lock_init");
  out("lock_init kind=%s hint=%u impl=%s wait_id=%d codeptr=%s", mutex_name(kind), hint,
      impl ? "set" : "none", wid(w), sym(ra));
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t w, const void *ra) {
  enter("lock_destroy");
  out("lock_destroy kind=%s wait_id=%d codeptr=%s", mutex_name(kind), wid(w), sym(ra));
}

static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void *ra) {
  enter("nest_lock");
  out("nest_lock_%s wait_id=%d codeptr=%s", ep == ompt_scope_begin ? "begin" : "end", wid(w),
      sym(ra));
  int i = 0;
  while (i < nheld && held[i] != w) i++;
  if (i == nheld) ERROR("nest_lock: wait_id %d not held by this thread", wid(w));
}

static void on_cancel(ompt_data_t *tdata, int flags, const void *ra) {
  static const char *const names[32] = {"parallel", "sections", "loop", "taskgroup",
                                        "activated", "detected", "discarded_task"};
  enter("cancel");
  char fl[128];
  flag_names(fl, sizeof fl, flags, names, 7);
  out("cancel task=%" PRIu64 " flags=%s codeptr=%s", task_id(tdata), fl, sym(ra));
  /* activated / detected: in the encountering task; discarded_task: in the context of the
   * task that discards it (a discarded task never runs) */
  ompt_data_t *cur;
  int discarded = (flags & ompt_cancel_discarded_task) != 0;
  if (get_task_info(0, NULL, &cur, NULL, NULL, NULL) != 2 || (cur == tdata) == discarded)
    ERROR("cancel: %s", discarded ? "the discarded task is the current task"
                                  : "task_data is not the current task's");
  /* a discarded task never started (no task_schedule to it); the event is its only end */
  task_t *t = tdata ? tdata->ptr : NULL;
  if ((flags & ompt_cancel_discarded_task) && t && t->explicit_) {
    if (__atomic_load_n(&t->started, __ATOMIC_RELAXED))
      ERROR("cancel: task %" PRIu64 " discarded after it started", t->id);
    if (__atomic_add_fetch(&t->completed, 1, __ATOMIC_ACQ_REL) > 1)
      ERROR("cancel: task %" PRIu64 " discarded after it completed", t->id);
    __atomic_add_fetch(&tasks_completed, 1, __ATOMIC_RELAXED);
  }
}

/* masked (and master) regions: begin and end in the executing thread, in its current task;
 * they pair and nest per thread */
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *pdata, ompt_data_t *tdata,
                      const void *ra) {
  const char *ev = ep == ompt_scope_begin ? "masked_begin" : "masked_end";
  enter(ev);
  out("%s parallel=%" PRIu64 " task=%" PRIu64 " codeptr=%s", ev, par_id(pdata), task_id(tdata),
      sym(ra));
  ompt_data_t *td, *pd;
  if (get_task_info(0, NULL, &td, NULL, &pd, NULL) != 2 || td != tdata || pd != pdata)
    ERROR("%s: task/parallel data are not the current task's", ev);
  if (strict && !ra) ERROR("%s: codeptr_ra NULL", ev);
  if (ep == ompt_scope_begin)
    masked_depth++;
  else if (--masked_depth < 0) {
    ERROR("masked_end without begin");
    masked_depth = 0;
  }
}

/* a flush construct: the encountering thread's data */
static void on_flush(ompt_data_t *thread_data, const void *ra) {
  enter("flush");
  out("flush codeptr=%s", sym(ra));
  if (thread_data != get_thread_data()) ERROR("flush: thread_data is not the thread's");
  if (strict && !ra) ERROR("flush: codeptr_ra NULL");
}

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pdata,
                         ompt_data_t *tdata, const void *ra) {
  enter("reduction");
  out("reduction_%s kind=%s task=%" PRIu64 " codeptr=%s", ep == ompt_scope_begin ? "begin" : "end",
      sync_name(kind), task_id(tdata), sym(ra));
  (void)pdata;
}

static void on_error(ompt_severity_t sev, const char *msg, size_t len, const void *ra) {
  enter("error");
  out("error severity=%s message=%.*s codeptr=%s", sev == ompt_fatal ? "fatal" : "warning",
      (int)len, msg ? msg : "", sym(ra));
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep, int device,
                          ompt_data_t *tdata, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *ra) {
  static const char *k[] = {"?", "target", "enter_data", "exit_data", "update", "?", "?", "?",
                            "?", "target_nowait", "enter_data_nowait", "exit_data_nowait",
                            "update_nowait"};
  static uint64_t next_target = 1;
  enter("target");
  if (ep == ompt_scope_begin) target_data->value = __atomic_fetch_add(&next_target, 1, __ATOMIC_RELAXED);
  out("target_%s kind=%s device=%d task=%" PRIu64 " target=%" PRIu64 " codeptr=%s",
      ep == ompt_scope_begin ? "begin" : "end", kind <= 12 ? k[kind] : "?", device,
      task_id(tdata), target_data->value, sym(ra));
  (void)target_task_data;
  if (strict && !ra) ERROR("target: codeptr_ra NULL");
}

static const char *const result_names[] = {"error", "never", "impossible", "sometimes",
                                           "sometimes_paired", "always"};

static void reg(ompt_callbacks_t ev, const char *name, ompt_callback_t cb) {
  ompt_set_result_t r = set_callback(ev, cb);
  out("register %s=%s", name, r >= 0 && r <= 5 ? result_names[r] : "?");
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  const char *v = getenv("OMPT_PRINT_STRICT");
  strict = !v || strcmp(v, "0");
  v = getenv("OMPT_PRINT_FINALIZE_ON_END");
  finalize_on_end = v && !strcmp(v, "1");
  out("initialize initial_device_num=%d", initial_device_num);
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  get_state = (ompt_get_state_t)lookup("ompt_get_state");
  get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
  enumerate_states = (ompt_enumerate_states_t)lookup("ompt_enumerate_states");
  if (!set_callback || !get_thread_data || !get_state || !get_parallel_info || !get_task_info ||
      !finalize_tool || !enumerate_states) {
    out("ERROR: a required entry point is missing");
    return 0;
  }
  if (lookup("ompt_no_such_entry_point")) out("ERROR: lookup of an unknown name is not NULL");
#define REG(name, fn) reg(ompt_callback_##name, #name, (ompt_callback_t)(fn))
  REG(thread_begin, on_thread_begin);
  REG(thread_end, on_thread_end);
  REG(parallel_begin, on_parallel_begin);
  REG(parallel_end, on_parallel_end);
  REG(implicit_task, on_implicit_task);
  REG(sync_region, on_sync_region);
  REG(sync_region_wait, on_sync_region_wait);
  REG(work, on_work);
  REG(dispatch, on_dispatch);
  REG(task_create, on_task_create);
  REG(task_schedule, on_task_schedule);
  REG(dependences, on_dependences);
  REG(task_dependence, on_task_dependence);
  REG(mutex_acquire, on_mutex_acquire);
  REG(mutex_acquired, on_mutex_acquired);
  REG(mutex_released, on_mutex_released);
  REG(lock_init, on_lock_init);
  REG(lock_destroy, on_lock_destroy);
  REG(nest_lock, on_nest_lock);
  REG(cancel, on_cancel);
  REG(reduction, on_reduction);
  REG(error, on_error);
  REG(target_emi, on_target_emi);
  REG(masked, on_masked);
  REG(flush, on_flush);
  reg(ompt_callback_target_map_emi, "target_map_emi", NULL);
  v = getenv("OMPT_PRINT_NO_CONTROL");
  if (!v || strcmp(v, "1")) REG(control_tool, on_control_tool);
  tool_data->value = 42;
  v = getenv("OMPT_PRINT_INIT_RESULT");
  int r = !v || strcmp(v, "0");
  out("initialize returns %d", r);
  return r;
}

static void finalize(ompt_data_t *tool_data) {
  if (finalized) ERROR("finalize called twice");
  if (tool_data->value != 42) ERROR("finalize: tool_data lost");
  if (strict && threads_begun != threads_ended)
    ERROR("finalize: %d thread(s) began, %d ended", threads_begun, threads_ended);
  if (strict && tasks_created != tasks_completed)
    ERROR("finalize: %" PRIu64 " explicit task(s) created, %" PRIu64 " completed", tasks_created,
          tasks_completed);
  if (work_depth) ERROR("finalize: %d work region(s) of this thread not ended", work_depth);
  out("finalize errors=%d", __atomic_load_n(&nerrors, __ATOMIC_RELAXED));
  finalized = 1;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  out("ompt_start_tool omp_version=%u runtime=%s", omp_version, runtime_version);
  return &result;
}
