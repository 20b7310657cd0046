/* The cold halves of the OMPT emission helpers (ompt-events.h): build each callback's
 * arguments from the core structures and call the tool. */
#include <stddef.h>

#include "ompt-events.h"
#include "../collector/collector.h"

void tomp_worker_wait_idle(tomp_thread_t *t) TOMP_HIDDEN;

#define CB(name) __atomic_load_n(&tomp_ompt_cb.cb.name, __ATOMIC_RELAXED)

static tomp_thread_t *initial_thread_of(tomp_task_t *task) {
  while (task->parent) task = task->parent;
  if (!(task->flags & TOMP_TASK_INITIAL) || (task->flags & TOMP_TASK_OWN_REGION)) return NULL;
  return (tomp_thread_t *)((char *)task - offsetof(tomp_thread_t, initial_task));
}

ompt_data_t *tomp_ompt_parallel_data_of(tomp_task_t *task) {
  if (task->team) return &task->team->parallel_data;
  tomp_task_t *root = task;
  while (root->parent) root = root->parent;
  if (root->flags & TOMP_TASK_OWN_REGION) return &((tomp_region_task_t *)root)->parallel_data;
  tomp_thread_t *it = initial_thread_of(task);
  return it ? &it->ompt_implicit_parallel_data : NULL;
}

void tomp_ompt_thread_begin_(tomp_thread_t *thr) {
  tomp_ompt_thread_registered_(thr);
  tomp_thread_t *q = tomp_self;
  if (tomp_ompt_call_enter(q)) {
    /* begun only if the callback could be made: finalize ends exactly the begun threads */
    __atomic_store_n(&thr->ompt_life, 1, __ATOMIC_RELAXED);
    ompt_callback_thread_begin_t f = CB(thread_begin);
    if (f) f((ompt_thread_t)thr->ompt_type, &thr->thread_data);
  }
  tomp_ompt_call_leave(q);
  if (thr->ompt_type == ompt_thread_initial) tomp_ompt_initial_task_(thr, ompt_scope_begin);
}

/* A thread reports its own end (worker exit or finalize request, program thread exit).  The
 * 1 -> 2 step of ompt_life makes it exactly once: finalize takes the same step for threads
 * that did not get here (tomp_ompt_finalize). */
void tomp_ompt_thread_end_(tomp_thread_t *thr) {
  tomp_thread_t *q = tomp_self;
  uint32_t begun = 1;
  if (tomp_ompt_call_enter(q) &&
      __atomic_compare_exchange_n(&thr->ompt_life, &begun, 2, false, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED)) {
    if (thr->ompt_type == ompt_thread_initial) tomp_ompt_initial_task_(thr, ompt_scope_end);
    ompt_callback_thread_end_t f = CB(thread_end);
    if (f) f(&thr->thread_data);
  }
  tomp_ompt_call_leave(q);
}

/* OpenMP 5.2 sec. 12.8: an initial task reports actual_parallelism 1 and index 1.  The spec
 * lets implicit-task-end pass NULL parallel_data, but for an initial task we pass the same
 * implicit-parallel-region object as at begin: LLVM's libomp does so, and tools rely on it
 * (Archer 14 frees the region it attached at begin through it and crashes on NULL). */
void tomp_ompt_initial_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (ep == ompt_scope_end && thr->ompt_single) tomp_ompt_single_flush_(thr);
  ompt_callback_implicit_task_t f = CB(implicit_task);
  if (f)
    TOMP_OMPT_CALL(f, ep, &thr->ompt_implicit_parallel_data, &thr->initial_task.task_data, 1, 1,
      ompt_task_initial);
}

void tomp_ompt_fork_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  int flags = ompt_parallel_team | (thr->ompt_fork_flags ? thr->ompt_fork_flags
                                                         : ompt_parallel_invoker_runtime);
  unsigned req = thr->ompt_requested ? thr->ompt_requested : team->nthreads;
  thr->ompt_fork_flags = 0;
  thr->ompt_requested = 0;
  team->ompt_flags = flags;
  ompt_callback_parallel_begin_t f = CB(parallel_begin);
  if (f) TOMP_OMPT_CALL(f, &ptask->task_data, &ptask->frame, &team->parallel_data, req, flags, team->codeptr);
  if (tomp_coll_on()) tomp_coll_fork_(thr, team);
}

void tomp_ompt_implicit_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (ep == ompt_scope_end && thr->ompt_single) tomp_ompt_single_flush_(thr);
  ompt_callback_implicit_task_t f = CB(implicit_task);
  tomp_team_t *team = thr->team;
  if (f)
    TOMP_OMPT_CALL(f, ep, ep == ompt_scope_begin ? &team->parallel_data : NULL, &thr->task->task_data,
      team->nthreads, thr->tid, ompt_task_implicit);
  if (ep == ompt_scope_begin && team->ws_initial) tomp_ompt_ws_initial(thr);
}

/* Runs in the encountering task after the closing barrier.  Workers report their
 * implicit-task-end right after that barrier too; waiting until each is parked again makes
 * every implicit-task-end of the region precede its parallel-end. */
void tomp_ompt_join_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  for (unsigned i = 1; i < team->nthreads; i++) tomp_worker_wait_idle(team->threads[i]);
  ompt_callback_parallel_end_t f = CB(parallel_end);
  if (f) TOMP_OMPT_CALL(f, &team->parallel_data, &ptask->task_data, team->ompt_flags, team->codeptr);
  if (tomp_coll_on()) tomp_coll_event_(thr, OMP_EVENT_JOIN);
}

/* OMPT 5.x has no idle callback: only the Collector API reports it. */
void tomp_ompt_idle_(tomp_thread_t *thr, bool begin) {
  if (tomp_coll_on())
    tomp_coll_event_(thr, begin ? OMP_EVENT_THR_BEGIN_IDLE : OMP_EVENT_THR_END_IDLE);
}

static ompt_sync_region_t sync_kind(int state) {
  switch (state) {
  case ompt_state_wait_barrier_implicit_parallel: return ompt_sync_region_barrier_implicit_parallel;
  case ompt_state_wait_barrier_implicit_workshare:
  case ompt_state_wait_barrier_implicit: return ompt_sync_region_barrier_implicit_workshare;
  case ompt_state_wait_barrier_explicit: return ompt_sync_region_barrier_explicit;
  case ompt_state_wait_barrier_teams: return ompt_sync_region_barrier_teams;
  case ompt_state_wait_taskwait: return ompt_sync_region_taskwait;
  case ompt_state_wait_taskgroup: return ompt_sync_region_taskgroup;
  default: return ompt_sync_region_barrier_implementation;
  }
}

void tomp_ompt_barrier_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep, bool wait,
                        const void *codeptr) {
  if (ep == ompt_scope_begin && !wait && thr->ompt_single && state != ompt_state_wait_taskwait &&
      state != ompt_state_wait_taskgroup)
    tomp_ompt_single_flush_(thr); /* a barrier cannot be inside the single: it has ended */
  if (wait && tomp_coll_on()) tomp_coll_barrier_(thr, state, ep);
  ompt_callback_sync_region_t f = wait ? CB(sync_region_wait) : CB(sync_region);
  if (!f) return;
  tomp_task_t *task = thr->task;
  TOMP_OMPT_CALL(f, sync_kind(state), ep, tomp_ompt_parallel_data_of(task), &task->task_data, codeptr);
}

/* A barrier outside any parallel region binds to the initial task's implicit parallel
 * region, a team of one: it is complete as soon as it starts. */
void tomp_ompt_serial_barrier_(tomp_thread_t *thr, const void *codeptr) {
  int st = ompt_state_wait_barrier_explicit, saved = thr->state;
  tomp_ompt_barrier_(thr, st, ompt_scope_begin, false, codeptr);
  tomp_set_state(thr, st, 0);
  tomp_ompt_barrier_(thr, st, ompt_scope_begin, true, codeptr);
  tomp_ompt_barrier_(thr, st, ompt_scope_end, true, codeptr);
  tomp_set_state(thr, saved, 0);
  tomp_ompt_barrier_(thr, st, ompt_scope_end, false, codeptr);
}
