/* Tool discovery and the tool's lifecycle (OpenMP 5.2 sec. 19.2).
 *
 * At library start-up (tomp_init, after the ICVs and the initial thread exist) tomp reads
 * OMP_TOOL, OMP_TOOL_LIBRARIES and OMP_TOOL_VERBOSE_INIT and looks for ompt_start_tool:
 * first a definition elsewhere in the address space (the executable if it exports one, a
 * preloaded library, any library loaded before or after tomp), then each library of
 * OMP_TOOL_LIBRARIES in order.  The first ompt_start_tool that returns non-NULL is the tool;
 * its initialize runs before any OpenMP construct can start, and only if it returns nonzero
 * does tomp emit events.  The tool is finalized exactly once: by ompt_finalize_tool or at
 * process exit (an atexit handler, so before any library destructor, the tool's included).
 *
 * The OMP_TOOL_VERBOSE_INIT log's format is the implementation's (the variable only asks for
 * a log of tool initialization); tomp writes the lines LLVM's libomp writes, which tool writers and
 * LLVM's loadtool tests match (the search, one line per step, between its START and END
 * lines), then what only tomp says (its initialize's result, a dormant tool) after END. */
#include <ctype.h>
#include <dlfcn.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/membarrier.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ompt.h"
#include "omp.h"

tomp_ompt_callbacks_t tomp_ompt_cb;

static ompt_start_tool_result_t *tool;
static int tool_initialized; /* initialize returned nonzero */
static int finalize_started;
/* The tool registered a callback or looked up an entry point that reads tool-path records
 * (tomp_ompt_want_path).  A tool that did neither by the end of its initialize stays
 * attached (its finalize runs, omp_control_tool answers "no callback") but leaves
 * TOMP_OBS_OMPT clear: nothing it could observe differs, so it pays what no tool pays. */
static int path_wanted;
static FILE *vlog;
static pthread_key_t initial_key;
static tomp_thread_t *main_thr;
int tomp_ompt_fence;

/* tomp's own ompt_start_tool: found only when no tool defines one.  Exported (OMP_5.0) and
 * weak, so a tool linked statically with tomp, or any definition earlier in the dynamic
 * search order, takes its place. */
static ompt_start_tool_result_t *no_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  return NULL;
}
TOMP_EXPORT extern __typeof__(ompt_start_tool) ompt_start_tool
    __attribute__((weak, alias("no_tool")));

typedef ompt_start_tool_result_t *(*start_tool_fn)(unsigned int, const char *);

/* fmt has its own newlines: a step that calls the tool's ompt_start_tool logs "...  " before
 * the call and its outcome after it, on the same line unless the tool printed one. */
static void vlogf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void vlogf(const char *fmt, ...) {
  if (!vlog) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(vlog, fmt, ap);
  va_end(ap);
  fflush(vlog);
}

#define LOG_START "----- START LOGGING OF TOOL REGISTRATION -----\n"
#define LOG_END "----- END LOGGING OF TOOL REGISTRATION -----\n"

static const char *trimmed(const char *s, char *buf, size_t n) {
  while (isspace((unsigned char)*s)) s++;
  size_t len = strlen(s);
  while (len && isspace((unsigned char)s[len - 1])) len--;
  if (len >= n) len = n - 1;
  memcpy(buf, s, len);
  buf[len] = 0;
  return buf;
}

static void open_verbose_log(void) {
  const char *v = getenv("OMP_TOOL_VERBOSE_INIT");
  if (!v) return;
  char buf[4096];
  trimmed(v, buf, sizeof buf);
  if (!buf[0] || !strcasecmp(buf, "disabled")) return;
  if (!strcasecmp(buf, "stdout")) vlog = stdout;
  else if (!strcasecmp(buf, "stderr")) vlog = stderr;
  else if (getauxval(AT_SECURE)) /* a set-user-ID program writes no file the user names */
    tomp_warn("OMP_TOOL_VERBOSE_INIT='%s' ignored: secure-execution mode (set-user-ID or "
              "similar) opens no file a variable names; only stdout and stderr are honoured",
              buf);
  else if (!(vlog = fopen(buf, "w")))
    tomp_warn("OMP_TOOL_VERBOSE_INIT: cannot open '%s' for writing; not logging tool "
              "initialization", buf);
}

static void close_verbose_log(void) {
  if (vlog && vlog != stdout && vlog != stderr) fclose(vlog);
  vlog = NULL;
}

static ompt_start_tool_result_t *try_start(start_tool_fn f) {
  return f(TOMP_OMPT_OMP_VERSION, "tomp " TOMP_VERSION);
}

/* A definition of ompt_start_tool that is not tomp's own: the global search order finds the
 * executable's (if exported) and preloaded ones first; RTLD_NEXT covers libraries that come
 * after tomp in that order. */
static start_tool_fn find_in_address_space(void) {
  void *p = dlsym(RTLD_DEFAULT, "ompt_start_tool");
  if (!p || p == (void *)no_tool) p = dlsym(RTLD_NEXT, "ompt_start_tool");
  if (!p || p == (void *)no_tool) return NULL;
  return (start_tool_fn)p;
}

static ompt_start_tool_result_t *search_libraries(void) {
  const char *libs = getenv("OMP_TOOL_LIBRARIES");
  if (!libs || !*libs) {
    vlogf("No OMP_TOOL_LIBRARIES defined.\n...searching tool libraries failed.\n");
    return NULL;
  }
  if (getauxval(AT_SECURE)) {
    vlogf("OMP_TOOL_LIBRARIES ignored: secure-execution mode (set-user-ID or similar).\n"
          "...searching tool libraries failed.\n");
    return NULL;
  }
  vlogf("Searching tool libraries...\n");
  vlogf("OMP_TOOL_LIBRARIES = %s\n", libs);
  char *copy = strdup(libs);
  if (!copy) return NULL;
  ompt_start_tool_result_t *r = NULL;
  char *save = NULL;
  for (char *lib = strtok_r(copy, ":", &save); lib && !r; lib = strtok_r(NULL, ":", &save)) {
    vlogf("Opening %s... ", lib);
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
      const char *e = dlerror();
      vlogf("Failed: %s\n", e ? e : "unknown error");
      continue;
    }
    vlogf("Success.\n");
    vlogf("Searching for ompt_start_tool in %s... ", lib);
    dlerror();
    void *f = dlsym(h, "ompt_start_tool");
    if (!f || f == (void *)no_tool) { /* tomp's own: found through the library's needs */
      const char *e = f ? NULL : dlerror();
      if (e)
        vlogf("Failed: %s\n", e);
      else
        vlogf("Failed: %s: undefined symbol: ompt_start_tool\n", lib);
      dlclose(h);
      continue;
    }
    r = try_start((start_tool_fn)f);
    if (r) {
      vlogf("Success.\n");
    } else {
      vlogf("Found but not using the OMPT interface.\n");
      vlogf("Continuing search...\n");
      dlclose(h);
    }
  }
  free(copy);
  if (!r) vlogf("...searching tool libraries failed.\n");
  return r;
}

/* The membarrier that pairs with tomp_ompt_call_enter's compiler fence: after it, every
 * thread either has its ompt_in_cb increment visible here or sees the OMPT bit clear. */
static void membarrier_setup(void) {
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0)
    tomp_ompt_fence = 1;
}

static void initial_thread_exit(void *p) {
  tomp_thread_t *thr = p;
  if (tomp_listening()) tomp_ompt_thread_end_(thr);
}

static void finalize_at_exit(void) { tomp_ompt_finalize(); }

/* The tool path on: the bit, then the code (toolkey.c).  false when the code cannot be
 * rewritten: the bit goes again and the tool stays attached without events (the key code
 * said why). */
static bool path_on(void) {
  return tomp_listen(TOMP_OBS_OMPT);
}

void tomp_ompt_init(void) {
  open_verbose_log();
  vlogf(LOG_START);
#ifdef TOMP_NO_OMPT
  vlogf("tomp was built with NO_OMPT=1: no tool support, not looking for a tool.\n" LOG_END);
  close_verbose_log();
  return;
#endif
  const char *v = getenv("OMP_TOOL");
  char buf[64];
  if (v) {
    trimmed(v, buf, sizeof buf);
    if (!strcasecmp(buf, "disabled")) {
      vlogf("OMP tool disabled by OMP_TOOL=disabled.\n" LOG_END);
      close_verbose_log();
      return;
    }
    if (strcasecmp(buf, "enabled")) {
      tomp_warn("OMP_TOOL='%s' is neither 'enabled' nor 'disabled'; tool support is off", v);
      vlogf("OMP_TOOL has an invalid value: not looking for a tool.\n" LOG_END);
      close_verbose_log();
      return;
    }
  }
  vlogf("Search for OMP tool in current address space... ");
  start_tool_fn f = find_in_address_space();
  if (f) tool = try_start(f);
  vlogf(tool ? "Success.\n" : "Failed.\n");
  if (!tool) tool = search_libraries();
  if (tool && !tool->initialize) {
    vlogf("The tool has no initialize function: not using it.\n");
    tool = NULL;
  }
  if (!tool) {
    vlogf("No OMP tool loaded.\n" LOG_END);
    close_verbose_log();
    return;
  }
  vlogf("Tool was started and is using the OMPT interface.\n" LOG_END);
  /* initial_device_num is omp_get_initial_device(): the number of non-host devices, 0. */
  if (!tool->initialize(tomp_ompt_lookup, 0, &tool->tool_data)) {
    vlogf("The tool's initialize returned 0: tool deactivated, OMPT interface "
          "inactive.\n");
    memset(&tomp_ompt_cb, 0, sizeof tomp_ompt_cb);
    tomp_ompt_sync_wants();
    path_wanted = 0;
    tool = NULL;
    close_verbose_log();
    return;
  }
  vlogf("The tool's initialize returned 1: OMPT interface active.\n");
  membarrier_setup();
  pthread_key_create(&initial_key, initial_thread_exit);
  atexit(finalize_at_exit);
  main_thr = tomp_self;
  __atomic_store_n(&tool_initialized, 1, __ATOMIC_SEQ_CST);
  bool path = __atomic_load_n(&path_wanted, __ATOMIC_SEQ_CST);
  if (!path)
    vlogf("The tool registered no callback and looked up no entry point that reads "
          "runtime records: tool path off until it does (tomp then pays what it pays without "
          "a tool).\n");
  close_verbose_log();
  if (!path || !path_on()) return;
  if (main_thr) tomp_ompt_thread_begin_(main_thr);
}

/* During initialize only recorded (tomp_ompt_init turns the path on when it returns).  Later
 * (a tool that registers a callback from a thread of its own, or looks an entry point up
 * late) the path starts at once: events from then on, the thread_begin/thread_end pair only
 * for threads that start afterwards (ompt_life), and a construct under way may report its
 * end without its begin. */
void tomp_ompt_want_path(void) {
  if (__atomic_exchange_n(&path_wanted, 1, __ATOMIC_SEQ_CST)) return;
  if (__atomic_load_n(&tool_initialized, __ATOMIC_SEQ_CST) &&
      !__atomic_load_n(&finalize_started, __ATOMIC_ACQUIRE))
    path_on();
}

/* An initial thread the program created: it reports thread_end when it exits. */
void tomp_ompt_initial_thread_started_(tomp_thread_t *thr) {
  if (!tool_initialized) return; /* tools word set by a Collector API session only */
  tomp_ompt_thread_begin_(thr);
  pthread_setspecific(initial_key, thr);
}

static double now(void) { return (double)tomp_now_ns() * 1e-9; }

/* The threads finalize walks: core's thread table (thread_table.h), every live thread. */
#define FOR_EACH_THREAD(t) for (uint32_t gtid_ = 0; ((t) = tomp_thread_next(&gtid_)) != NULL;)

/* Is worker w leaving its last region: at the closing barrier (waiting there or leaving it),
 * or past its end events but not parked yet (idle, and the park request just failed)?  At
 * exit its barrier end events may be still to come: the join waits for them only when
 * parallel or implicit-task events are wanted, and then not for the worker to park
 * (core/event.h, tomp_ev_join_wait). */
static bool at_closing_barrier(tomp_thread_t *w) {
  int st = __atomic_load_n(&w->state, __ATOMIC_RELAXED);
  return st == ompt_state_idle || (__atomic_load_n(&w->team_busy, __ATOMIC_ACQUIRE) &&
                                   st == ompt_state_wait_barrier_implicit_parallel);
}

/* Parked workers that reported thread_begin report thread_end on their own threads (the
 * callback should run there).  A worker still at a region's closing barrier is given time
 * (2 s at most for all) to report the barrier's end and park: its end events are the pair
 * of begins a tool already has (issue 17 B3, tests/ompt_exit_events.c). */
static void workers_report_end(void) {
  tomp_thread_t *w;
  double limit = now() + 2.0;
  FOR_EACH_THREAD(w) {
    if (w->ompt_type != ompt_thread_worker) continue;
    while (__atomic_load_n(&w->ompt_life, __ATOMIC_ACQUIRE) == 1 &&
           !tomp_worker_request_thread_end(w) && at_closing_barrier(w) && now() < limit)
      sched_yield();
  }
  FOR_EACH_THREAD(w) {
    while (__atomic_load_n(&w->ompt_end_req, __ATOMIC_ACQUIRE) && now() < limit) sched_yield();
  }
}

/* Callbacks in flight on other threads finish before the tool is finalized.  Bounded: a
 * callback that blocks (or waits for this thread) must not hang the process at exit. */
static void quiesce(tomp_thread_t *self) {
  if (!tomp_ompt_fence && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    tomp_warn("OMPT: membarrier failed; a callback may still start during finalization");
  double limit = now() + 10.0;
  tomp_thread_t *t;
  FOR_EACH_THREAD(t) {
    if (t == self) continue; /* a callback of ours may be what called ompt_finalize_tool */
    while (__atomic_load_n(&t->ompt_in_cb, __ATOMIC_SEQ_CST)) {
      if (now() > limit) {
        tomp_warn("OMPT: a tool callback still runs on another thread after 10 s; "
                  "finalizing the tool anyway");
        return;
      }
      sched_yield();
    }
  }
}

/* thread_end for t, made on the finalizing thread: t is busy in a region (or exited its
 * region through exit()) and cannot make it itself; thread_data identifies it. */
static void end_on_behalf(tomp_thread_t *t, ompt_callback_thread_end_t f) {
  uint32_t begun = 1;
  if (__atomic_compare_exchange_n(&t->ompt_life, &begun, 2, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_RELAXED) && f)
    f(&t->thread_data);
}

/* Order: parked workers end themselves; events stop (no callback starts once tomp_listeners
 * is 0) and the ones in flight finish; the threads that could not end themselves get their
 * thread_end here, the finalizing thread last (its initial task ends first if it is outside
 * any region); then the tool's finalize.  After that tomp never calls the tool again. */
void tomp_ompt_finalize(void) {
  if (!tool_initialized || __atomic_exchange_n(&finalize_started, 1, __ATOMIC_ACQ_REL)) return;
  tomp_thread_t *self = tomp_self;
  workers_report_end();
  ompt_callback_thread_end_t te = __atomic_load_n(&tomp_ompt_cb.cb.thread_end, __ATOMIC_RELAXED);
  ompt_callback_implicit_task_t it =
      __atomic_load_n(&tomp_ompt_cb.cb.implicit_task, __ATOMIC_RELAXED);
  tomp_listen_epoch_bump(); /* a join forked meanwhile falls back (core/event.c) */
  __atomic_and_fetch(&tomp_listeners, ~TOMP_OBS_OMPT, __ATOMIC_SEQ_CST);
  quiesce(self);         /* the walk sees workers started meanwhile too */
  tomp_tool_keys_sync(); /* the no-tool path costs nothing again (a Collector may keep it) */
  tomp_listen_epoch_bump();
  tomp_thread_t *t;
  FOR_EACH_THREAD(t) {
    if (t != self) end_on_behalf(t, te);
  }
  if (self && __atomic_load_n(&self->ompt_life, __ATOMIC_RELAXED) == 1) {
    if (self->ompt_type == ompt_thread_initial && !self->team && it) {
      if (self->ev_single) tomp_ev_single_flush_(self);
      /* initial-task-end: actual_parallelism 0 (hooks.c, parallelism_at) */
      it(ompt_scope_end, &self->implicit_parallel_data, &self->initial_task.task_data, 0, 1,
         ompt_task_initial);
    }
    end_on_behalf(self, te);
    if (self != main_thr) pthread_setspecific(initial_key, NULL);
  }
  for (int i = 0; i < TOMP_OMPT_NSLOTS; i++)
    __atomic_store_n(&tomp_ompt_cb.slot[i], NULL, __ATOMIC_RELAXED);
  tomp_ompt_sync_wants();
  if (tool->finalize) tool->finalize(&tool->tool_data);
}

bool tomp_ompt_active(void) {
  return __atomic_load_n(&tool, __ATOMIC_RELAXED) != NULL;
}

/* omp_control_tool (src/api/tool.c) reaches the tool through the event layer: ra and fp are
 * the API routine's return address and frame. */
int tomp_ompt_control_tool(int command, int modifier, void *arg, const void *ra, void *fp) {
  if (!(__atomic_load_n(&tomp_listeners, __ATOMIC_RELAXED) & TOMP_OBS_OMPT))
    return tomp_load_acq(&tool_initialized) && !tomp_load_acq(&finalize_started)
               ? omp_control_tool_nocallback /* attached, path off: it registered nothing */
               : omp_control_tool_notool;
  ompt_callback_control_tool_t f = __atomic_load_n(&tomp_ompt_cb.cb.control_tool, __ATOMIC_RELAXED);
  if (!f) return omp_control_tool_nocallback;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  int r = omp_control_tool_notool;
  if (tomp_ompt_call_enter(thr)) r = f((uint64_t)command, (uint64_t)modifier, arg, ra);
  tomp_ompt_call_leave(thr);
  return r;
}
