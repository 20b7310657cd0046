/* OMPT emission helpers for the rest of tomp.
 *
 * Every helper starts with a tool key (TOMP_OMPT_ENABLED(), internal.h), so a run without a
 * tool pays one no-op per event site.  The cold part lives out of line
 * (emit.c) so the hot paths keep their registers.
 *
 * For events without a dedicated helper, use TOMP_OMPT_EMIT(name, args...): it calls the
 * registered callback tomp_ompt_cb.cb.name with the callback's own argument list, e.g.
 *   TOMP_OMPT_EMIT(work, ompt_work_loop_dynamic, ompt_scope_begin, pdata, tdata, n, ra);
 * and TOMP_OMPT_WANT(name) when arguments are expensive to compute. */
#ifndef TOMP_OMPT_EVENTS_H
#define TOMP_OMPT_EVENTS_H

#include "ompt.h"
#include "../collector/collector.h"

static inline bool tomp_ompt_on(void) {
  return tomp_unlikely(TOMP_OMPT_ENABLED() != 0);
}

#define TOMP_OMPT_WANT(name)                                                                       \
  (tomp_ompt_on() && __atomic_load_n(&tomp_ompt_cb.cb.name, __ATOMIC_RELAXED) != NULL)

#define TOMP_OMPT_SLOT(name) (__atomic_load_n(&tomp_ompt_cb.cb.name, __ATOMIC_RELAXED) != NULL)

/* Any receiver of a taskwait/taskgroup sync region: its callbacks or a Collector session. */
#define TOMP_OMPT_SYNC_WANTED()                                                                    \
  (TOMP_OMPT_SLOT(sync_region) || TOMP_OMPT_SLOT(sync_region_wait) || tomp_coll_on())

#define TOMP_OMPT_EMIT(name, ...)                                                                  \
  do {                                                                                             \
    if (tomp_ompt_on()) {                                                                          \
      __typeof__(tomp_ompt_cb.cb.name) f_ = __atomic_load_n(&tomp_ompt_cb.cb.name, __ATOMIC_RELAXED); \
      if (f_) TOMP_OMPT_CALL(f_, __VA_ARGS__);                                                     \
    }                                                                                              \
  } while (0)

/* A worker thread starts (thread_begin, ompt_thread_worker) or an initial thread the program
 * created itself first calls tomp (thread_begin, ompt_thread_initial, then its initial task
 * begins). */
static inline void tomp_ompt_thread_begin(tomp_thread_t *thr) {
  if (tomp_ompt_on()) tomp_ompt_thread_begin_(thr);
}
static inline void tomp_ompt_thread_end(tomp_thread_t *thr) {
  if (tomp_ompt_on()) tomp_ompt_thread_end_(thr);
}

/* A worker parks in the pool (begin) or leaves it (end): the Collector API's idle events. */
static inline void tomp_ompt_idle(tomp_thread_t *thr, bool begin) {
  if (tomp_ompt_on()) tomp_ompt_idle_(thr, begin);
}

/* tomp_fork, after the team is set up and before any worker starts: parallel_begin in the
 * encountering task. */
static inline void tomp_ompt_fork(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  if (!tomp_ompt_on()) return;
  /* fork, implicit task and join test their slots here: a tool that registered none of
   * these callbacks pays no call */
  if (TOMP_OMPT_SLOT(parallel_begin) || TOMP_OMPT_SLOT(parallel_end) || tomp_coll_on()) {
    tomp_ompt_fork_(thr, team, ptask);
  } else {
    thr->ompt_fork_flags = 0;
    thr->ompt_requested = 0;
  }
}

/* Each thread, in its implicit task: begin before the task body, end after the region's
 * closing barrier (the thread still belongs to the team). */
static inline void tomp_ompt_implicit_task(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (tomp_ompt_on() && (TOMP_OMPT_SLOT(implicit_task) || thr->ompt_single ||
                         (ep == ompt_scope_begin && thr->team->ws_initial)))
    tomp_ompt_implicit_task_(thr, ep);
}

/* tomp_join, back in the encountering task: parallel_end. */
static inline void tomp_ompt_join(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  /* with implicit_task registered, join still waits for the workers' implicit-task-end,
   * which reads the team */
  if (tomp_ompt_on() && (TOMP_OMPT_SLOT(parallel_end) || TOMP_OMPT_SLOT(implicit_task) ||
                         tomp_coll_on()))
    tomp_ompt_join_(thr, team, ptask);
}

/* Barriers: whether tomp_ompt_barrier_ has anything to do at this barrier (given a tool is
 * attached): a sync-region callback to call, a pending single end to close (the out-of-line
 * part does that), or a Collector API session.  Tested once per barrier, so a tool without
 * these callbacks pays no call. */
static inline bool tomp_ompt_barrier_wanted(tomp_thread_t *thr) {
  return thr->ompt_single || TOMP_OMPT_SYNC_WANTED();
}

/* The frame through which the runtime calls a task body: set just before the call, cleared
 * when it returns.  fp is __builtin_frame_address(0) of the calling runtime function. */
static inline void tomp_ompt_exit_frame(tomp_task_t *task, void *fp) {
  if (tomp_ompt_on()) {
    task->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    task->frame.exit_frame.ptr = fp;
  }
}

#endif
