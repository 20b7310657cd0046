/* OMPD's runtime side: OMP_DEBUG, the library list a debugger reads, and the breakpoint
 * functions (OpenMP 5.2 chapter 20), called by an observer of the event layer.
 *
 * Cost.  With OMP_DEBUG unset or disabled this observer never listens: nothing runs, the
 * event sites stay no-ops (tool keys).  With OMP_DEBUG=enabled it listens (so core keeps
 * the frames, return addresses and team functions that only a listener gets, and takes no
 * no-tool shortcut such as the tiny task) and wants the parallel, implicit-task and
 * task-schedule events, each of which costs one call of an empty breakpoint function.
 *
 * What a debugger reads does not depend on this observer: thread states, teams and tasks
 * are current in core's structures, found through tomp_thread_table and tomp_ompd_layout
 * (ompd_layout.h), with or without OMP_DEBUG. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ompd_rt.h"

/* ---- What the specification names ------------------------------------------------------- */

/* The OMPD libraries a debugger may load, NULL-terminated; set before
 * ompd_dll_locations_valid is called. */
TOMP_EXPORT const char **ompd_dll_locations;

/* A debugger puts a breakpoint in each; the empty asm keeps every call and every function
 * distinct (identical bodies must not be folded into one address). */
#define TOMP_OMPD_BP(name)                                                                         \
  TOMP_EXPORT __attribute__((noinline, used)) void name(void) {                                    \
    __asm__ volatile("" ::"r"(#name));                                                             \
  }
TOMP_OMPD_BP(ompd_dll_locations_valid)
TOMP_OMPD_BP(ompd_bp_parallel_begin)
TOMP_OMPD_BP(ompd_bp_parallel_end)
TOMP_OMPD_BP(ompd_bp_task_begin)
TOMP_OMPD_BP(ompd_bp_task_end)
TOMP_OMPD_BP(ompd_bp_thread_begin)
TOMP_OMPD_BP(ompd_bp_thread_end)
/* tomp offloads to no device: never called */
TOMP_OMPD_BP(ompd_bp_device_begin)
TOMP_OMPD_BP(ompd_bp_device_end)

/* ---- The library list -------------------------------------------------------------------- */

static const char *dll_list[3];
static char dll_path[PATH_MAX + 16];

/* libtompd.so by name (the loader's search path), then beside libtomp itself (the real
 * file: a program loads tomp through a libgomp.so.1 or libomp.so.5 link in another
 * directory). */
static void dll_locations_set(void) {
  int n = 0;
  dll_list[n++] = "libtompd.so";
  Dl_info info;
  char real[PATH_MAX];
  if (dladdr(&tomp_ompd_layout, &info) && info.dli_fname && realpath(info.dli_fname, real)) {
    char *slash = strrchr(real, '/');
    if (slash) {
      *slash = 0;
      snprintf(dll_path, sizeof dll_path, "%s/libtompd.so", real);
      dll_list[n++] = dll_path;
    }
  }
  dll_list[n] = NULL;
  __atomic_store_n(&ompd_dll_locations, dll_list, __ATOMIC_RELEASE);
}

/* ---- The observer ------------------------------------------------------------------------ */

static uint64_t region_serial;

static void on_thread_begin(tomp_thread_t *thr) {
  ompd_bp_thread_begin();
}
static void on_thread_end(tomp_thread_t *thr) {
  ompd_bp_thread_end();
}

/* OpenMP 5.2 (ompd_bp_parallel_begin/end): in the breakpoint, the current parallel region is
 * the one beginning or ending and the current task the encountering task; core calls these
 * hooks while the thread is still (or again) in the encountering task, so the thread's
 * ompd_bp_team word names the region for the debugger meanwhile.
 * Each region instance gets a number (team->ompd_id, core's word for OMPD): a parallel
 * handle the debugger kept from an earlier region of the same (cached) team struct is then
 * seen to be stale. */
static void on_parallel_begin(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *enc,
                              unsigned requested, int flags) {
  __atomic_store_n(&team->ompd_id, __atomic_add_fetch(&region_serial, 1, __ATOMIC_RELAXED),
                   __ATOMIC_RELAXED);
  thr->ompd_bp_team = team;
  ompd_bp_parallel_begin();
  thr->ompd_bp_team = NULL;
}
static void on_parallel_end(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *enc) {
  thr->ompd_bp_team = team;
  ompd_bp_parallel_end();
  thr->ompd_bp_team = NULL;
}
/* ompd_bp_task_begin/end: the current task is the one beginning or ending (an implicit task's
 * thread is in it at both events) */
static void on_implicit_task(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  thr->ompd_bp_task = thr->task;
  if (ep == ompt_scope_begin)
    ompd_bp_task_begin();
  else
    ompd_bp_task_end();
  thr->ompd_bp_task = NULL;
}
/* An explicit task begins when it is switched to (status switch, next = the task) and ends
 * when its body is over (complete, cancel, detach: prior = the task; core has already put the
 * thread back in the task below, so ompd_bp_task names the one ending); the other statuses (a
 * suspended task resumed, fulfil events, taskwait) begin or end nothing. */
static void on_task_schedule(tomp_task_t *prior, int status, tomp_task_t *next) {
  tomp_thread_t *thr = tomp_self;
  if (status == ompt_task_switch) {
    thr->ompd_bp_task = next;
    ompd_bp_task_begin();
    thr->ompd_bp_task = NULL;
  } else if (status == ompt_task_complete || status == ompt_task_cancel ||
             status == ompt_task_detach) {
    thr->ompd_bp_task = prior;
    ompd_bp_task_end();
    thr->ompd_bp_task = NULL;
  }
}

static void ompd_start(void) {
  if (!tomp_g.debug) return;
  dll_locations_set();
  ompd_dll_locations_valid();
  tomp_ev_set_wanted(TOMP_OBS_OMPD, TOMP_EV_PARALLEL, true);
  tomp_ev_set_wanted(TOMP_OBS_OMPD, TOMP_EV_IMPLICIT_TASK, true);
  tomp_ev_set_wanted(TOMP_OBS_OMPD, TOMP_EV_TASK_SCHEDULE, true);
  if (!tomp_listen(TOMP_OBS_OMPD)) {
    tomp_warn("OMP_DEBUG=enabled: cannot turn the debugger's breakpoints on; a debugger can "
              "still read the program's state");
    tomp_ev_set_wanted(TOMP_OBS_OMPD, TOMP_EV_PARALLEL, false);
    tomp_ev_set_wanted(TOMP_OBS_OMPD, TOMP_EV_IMPLICIT_TASK, false);
    tomp_ev_set_wanted(TOMP_OBS_OMPD, TOMP_EV_TASK_SCHEDULE, false);
    return;
  }
  /* the initial thread began before any observer started */
  ompd_bp_thread_begin();
}

static const tomp_observer_t ompd_ops = {
    .name = "ompd",
    .start = ompd_start,
    .thread_begin = on_thread_begin,
    .thread_end = on_thread_end,
    .parallel_begin = on_parallel_begin,
    .parallel_end = on_parallel_end,
    .implicit_task = on_implicit_task,
    .task_schedule = on_task_schedule,
};
TOMP_OBSERVER(TOMP_OBS_SLOT_OMPD, ompd_ops);
