/* Tool discovery and the tool's lifecycle (OpenMP 5.2 sec. 19.2).
 *
 * At library start-up (tomp_init, after the ICVs and the initial thread exist) tomp reads
 * OMP_TOOL, OMP_TOOL_LIBRARIES and OMP_TOOL_VERBOSE_INIT and looks for ompt_start_tool:
 * first a definition elsewhere in the address space (the executable if it exports one, a
 * preloaded library, any library loaded before or after tomp), then each library of
 * OMP_TOOL_LIBRARIES in order.  The first ompt_start_tool that returns non-NULL is the tool;
 * its initialize runs before any OpenMP construct can start, and only if it returns nonzero
 * does tomp emit events.  The tool is finalized exactly once: by ompt_finalize_tool or at
 * process exit (an atexit handler, so before any library destructor, the tool's included). */
#include <ctype.h>
#include <dlfcn.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/auxv.h>
#include <time.h>

#include "ompt-events.h"
#include "omp.h"

tomp_ompt_callbacks_t tomp_ompt_cb;

static ompt_start_tool_result_t *tool;
static int tool_initialized; /* initialize returned nonzero */
static int finalize_started;
static FILE *vlog;
static pthread_key_t initial_key;
static tomp_thread_t *main_thr;
static tomp_thread_t *workers; /* every worker that reported thread_begin */

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

static void vlogf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void vlogf(const char *fmt, ...) {
  if (!vlog) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(vlog, fmt, ap);
  va_end(ap);
  fputc('\n', vlog);
  fflush(vlog);
}

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
  else if (!(vlog = fopen(buf, "w")))
    tomp_warn("OMP_TOOL_VERBOSE_INIT: cannot open '%s' for writing; not logging tool "
              "initialization", buf);
}

static void close_verbose_log(void) {
  if (vlog && vlog != stdout && vlog != stderr) fclose(vlog);
  vlog = NULL;
}

static const char *object_of(void *fn) {
  Dl_info info;
  if (dladdr(fn, &info) && info.dli_fname && info.dli_fname[0]) return info.dli_fname;
  return "the executable";
}

static ompt_start_tool_result_t *try_start(start_tool_fn f, const char *where) {
  const char *rv = "tomp " TOMP_VERSION;
  vlogf("  calling ompt_start_tool(%d, \"%s\") of %s", TOMP_OMPT_OMP_VERSION, rv, where);
  ompt_start_tool_result_t *r = f(TOMP_OMPT_OMP_VERSION, rv);
  vlogf(r ? "  ompt_start_tool returned a tool" : "  ompt_start_tool returned NULL: no tool");
  return r;
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
    vlogf("OMP_TOOL_LIBRARIES is not set: no tool libraries to search");
    return NULL;
  }
  if (getauxval(AT_SECURE)) {
    vlogf("OMP_TOOL_LIBRARIES ignored: secure-execution mode (set-user-ID or similar)");
    return NULL;
  }
  vlogf("Searching OMP_TOOL_LIBRARIES=%s", libs);
  char *copy = strdup(libs);
  if (!copy) return NULL;
  ompt_start_tool_result_t *r = NULL;
  char *save = NULL;
  for (char *lib = strtok_r(copy, ":", &save); lib && !r; lib = strtok_r(NULL, ":", &save)) {
    vlogf("Opening %s", lib);
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
      const char *e = dlerror();
      vlogf("  cannot load it: %s", e ? e : "unknown error");
      continue;
    }
    void *f = dlsym(h, "ompt_start_tool");
    if (!f || f == (void *)no_tool) {
      vlogf("  it does not define ompt_start_tool");
      dlclose(h);
      continue;
    }
    r = try_start((start_tool_fn)f, lib);
    if (!r) dlclose(h);
  }
  free(copy);
  return r;
}

static void initial_thread_exit(void *p) {
  tomp_thread_t *thr = p;
  if (tomp_ompt_on()) tomp_ompt_thread_end_(thr);
}

static void finalize_at_exit(void) { tomp_ompt_finalize(); }

void tomp_ompt_init(void) {
  open_verbose_log();
  vlogf("----- tomp: tool initialization -----");
  const char *v = getenv("OMP_TOOL");
  char buf[64];
  if (v) {
    trimmed(v, buf, sizeof buf);
    if (!strcasecmp(buf, "disabled")) {
      vlogf("OMP_TOOL=disabled: not looking for a tool");
      close_verbose_log();
      return;
    }
    if (strcasecmp(buf, "enabled")) {
      tomp_warn("OMP_TOOL='%s' is neither 'enabled' nor 'disabled'; tool support is off", v);
      vlogf("OMP_TOOL has an invalid value: not looking for a tool");
      close_verbose_log();
      return;
    }
  }
  vlogf("Searching the address space for ompt_start_tool");
  start_tool_fn f = find_in_address_space();
  if (f) tool = try_start(f, object_of((void *)f));
  else vlogf("  none found (only tomp's own, which returns NULL)");
  if (!tool) tool = search_libraries();
  if (!tool) {
    vlogf("No tool found: OMPT interface inactive");
    close_verbose_log();
    return;
  }
  if (!tool->initialize) {
    vlogf("The tool has no initialize function: OMPT interface inactive");
    tool = NULL;
    close_verbose_log();
    return;
  }
  vlogf("Calling the tool's initialize");
  /* initial_device_num is omp_get_initial_device(): the number of non-host devices, 0. */
  if (!tool->initialize(tomp_ompt_lookup, 0, &tool->tool_data)) {
    vlogf("initialize returned 0: tool deactivated, OMPT interface inactive");
    memset(&tomp_ompt_cb, 0, sizeof tomp_ompt_cb);
    tool = NULL;
    close_verbose_log();
    return;
  }
  vlogf("Tool initialized: OMPT interface active");
  vlogf("----- tomp: end of tool initialization -----");
  close_verbose_log();
  tool_initialized = 1;
  pthread_key_create(&initial_key, initial_thread_exit);
  atexit(finalize_at_exit);
  main_thr = tomp_self;
  __atomic_or_fetch(&tomp_ompt_enabled, TOMP_TOOL_OMPT, __ATOMIC_RELEASE);
  if (main_thr) tomp_ompt_thread_begin_(main_thr);
}

/* An initial thread the program created: it reports thread_end when it exits. */
void tomp_ompt_initial_thread_started_(tomp_thread_t *thr) {
  if (!tool_initialized) return; /* tools word set by a Collector API session only */
  tomp_ompt_thread_begin_(thr);
  pthread_setspecific(initial_key, thr);
}

void tomp_ompt_worker_registered_(tomp_thread_t *thr) {
  if (!tool_initialized) return;
  tomp_thread_t *head = __atomic_load_n(&workers, __ATOMIC_ACQUIRE);
  do thr->ompt_next = head;
  while (!__atomic_compare_exchange_n(&workers, &head, thr, true, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE));
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Parked workers report thread_end on their own threads (the callback must run there);
 * a worker busy in a region cannot, and is skipped. */
static void workers_report_end(void) {
  tomp_thread_t *list = __atomic_load_n(&workers, __ATOMIC_ACQUIRE);
  for (tomp_thread_t *w = list; w; w = w->ompt_next) tomp_worker_request_thread_end(w);
  double limit = now() + 2.0;
  for (tomp_thread_t *w = list; w; w = w->ompt_next)
    while (__atomic_load_n(&w->ompt_end_req, __ATOMIC_ACQUIRE) && now() < limit) sched_yield();
}

void tomp_ompt_finalize(void) {
  if (!tool_initialized || __atomic_exchange_n(&finalize_started, 1, __ATOMIC_ACQ_REL)) return;
  tomp_thread_t *thr = tomp_self;
  workers_report_end();
  if (thr && thr->ompt_type == ompt_thread_initial && !thr->team) {
    tomp_ompt_thread_end_(thr);
    if (thr != main_thr) pthread_setspecific(initial_key, NULL);
  }
  __atomic_and_fetch(&tomp_ompt_enabled, ~TOMP_TOOL_OMPT, __ATOMIC_RELEASE);
  for (int i = 0; i < TOMP_OMPT_NSLOTS; i++)
    __atomic_store_n(&tomp_ompt_cb.slot[i], NULL, __ATOMIC_RELAXED);
  if (tool->finalize) tool->finalize(&tool->tool_data);
}

TOMP_EXPORT int omp_control_tool(int command, int modifier, void *arg) {
  const void *ra = __builtin_return_address(0);
  if (!(__atomic_load_n(&tomp_ompt_enabled, __ATOMIC_RELAXED) & TOMP_TOOL_OMPT))
    return omp_control_tool_notool;
  ompt_callback_control_tool_t f = __atomic_load_n(&tomp_ompt_cb.cb.control_tool, __ATOMIC_RELAXED);
  if (!f) return omp_control_tool_nocallback;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return f((uint64_t)command, (uint64_t)modifier, arg, ra);
}
