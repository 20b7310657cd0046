/* The OMPT observer's hooks: each turns one event of the core's event layer (core/event.h)
 * into the OMPT callback the tool registered, building its arguments from the core
 * structures.  The event layer calls them only while the OMPT bit is in tomp_listeners;
 * every call into the tool goes through TOMP_OMPT_CALL (finalization quiescence, ompt.h).
 *
 * tomp_ompt_sync_wants keeps the event layer's interest bits (tomp_ev_want) equal to the set
 * of registered callbacks, so an event no callback receives costs its site no call. */
#include <stddef.h>

#include "ompt.h"

#define CB(name) __atomic_load_n(&tomp_ompt_cb.cb.name, __ATOMIC_RELAXED)

/* ---- interest ---------------------------------------------------------------------------- */

/* The callbacks each event of the event layer can deliver. */
static const struct {
  tomp_event_t ev;
  unsigned char cb[2];
} wants[] = {
    {TOMP_EV_PARALLEL, {ompt_callback_parallel_begin, ompt_callback_parallel_end}},
    {TOMP_EV_IMPLICIT_TASK, {ompt_callback_implicit_task}},
    {TOMP_EV_WORK, {ompt_callback_work}},
    {TOMP_EV_DISPATCH, {ompt_callback_dispatch}},
    {TOMP_EV_SYNC, {ompt_callback_sync_region, ompt_callback_sync_region_wait}},
    {TOMP_EV_REDUCTION, {ompt_callback_reduction}},
    {TOMP_EV_TASK_CREATE, {ompt_callback_task_create}},
    {TOMP_EV_TASK_SCHEDULE, {ompt_callback_task_schedule}},
    {TOMP_EV_DEPENDENCES, {ompt_callback_dependences}},
    {TOMP_EV_TASK_DEPENDENCE, {ompt_callback_task_dependence}},
    {TOMP_EV_MUTEX_ACQUIRE, {ompt_callback_mutex_acquire}},
    {TOMP_EV_MUTEX_ACQUIRED, {ompt_callback_mutex_acquired}},
    {TOMP_EV_MUTEX_RELEASED, {ompt_callback_mutex_released}},
    {TOMP_EV_LOCK_INIT, {ompt_callback_lock_init}},
    {TOMP_EV_LOCK_DESTROY, {ompt_callback_lock_destroy}},
    {TOMP_EV_NEST_LOCK, {ompt_callback_nest_lock}},
    {TOMP_EV_CANCEL, {ompt_callback_cancel}},
    {TOMP_EV_MASKED, {ompt_callback_masked}},
    {TOMP_EV_FLUSH, {ompt_callback_flush}},
};

void tomp_ompt_sync_wants(void) {
  for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++) {
    bool on = false;
    for (int k = 0; k < 2; k++)
      if (wants[i].cb[k] && __atomic_load_n(&tomp_ompt_cb.slot[wants[i].cb[k]], __ATOMIC_RELAXED))
        on = true;
    tomp_ev_set_wanted(TOMP_OBS_OMPT, wants[i].ev, on);
  }
}

/* ---- threads ----------------------------------------------------------------------------- */

void tomp_ompt_thread_begin_(tomp_thread_t *thr) {
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
  if (tomp_ompt_call_enter(q) && __atomic_compare_exchange_n(&thr->ompt_life, &begun, 2, false,
                                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    if (thr->ompt_type == ompt_thread_initial) tomp_ompt_initial_task_(thr, ompt_scope_end);
    ompt_callback_thread_end_t f = CB(thread_end);
    if (f) f(&thr->thread_data);
  }
  tomp_ompt_call_leave(q);
}

/* The actual_parallelism argument of an implicit_task callback (OpenMP 5.2, sec. 19.5.2.11,
 * ompt_callback_implicit_task_t, as in 5.0): "For initial tasks, that are not closely nested
 * in a teams construct, this argument is 1. For the implicit-task-end and the
 * initial-task-end events, this argument is 0." */
static unsigned parallelism_at(ompt_scope_endpoint_t ep, unsigned n) {
  return ep == ompt_scope_begin ? n : 0;
}

/* An initial task reports index 1 and actual_parallelism 1 at begin (above).  The spec lets
 * implicit-task-end pass NULL parallel_data, but for an initial task we pass the same
 * implicit-parallel-region object as at begin: LLVM's libomp does so, and tools rely on it
 * (Archer 14 frees the region it attached at begin through it and crashes on NULL). */
void tomp_ompt_initial_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (ep == ompt_scope_end && thr->ev_single) tomp_ev_single_flush_(thr);
  ompt_callback_implicit_task_t f = CB(implicit_task);
  if (f)
    TOMP_OMPT_CALL(f, ep, &thr->implicit_parallel_data, &thr->initial_task.task_data,
                   parallelism_at(ep, 1), 1, ompt_task_initial);
}

/* ---- parallel regions, leagues, implicit and initial tasks ------------------------------- */

static void parallel_begin(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *enc,
                           unsigned requested, int flags) {
  ompt_callback_parallel_begin_t f = CB(parallel_begin);
  if (f)
    TOMP_OMPT_CALL_ON(thr, f, &enc->task_data, &enc->frame, &team->parallel_data, requested, flags,
                      team->codeptr);
}

static void parallel_end(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *enc) {
  ompt_callback_parallel_end_t f = CB(parallel_end);
  if (f)
    TOMP_OMPT_CALL_ON(thr, f, &team->parallel_data, &enc->task_data, team->ev_flags, team->codeptr);
}

static void league(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_task_t *enc,
                   ompt_data_t *pdata, unsigned nteams, const void *ra) {
  int flags = ompt_parallel_league | ompt_parallel_invoker_runtime;
  if (ep == ompt_scope_begin) {
    ompt_callback_parallel_begin_t f = CB(parallel_begin);
    if (f) TOMP_OMPT_CALL(f, &enc->task_data, &enc->frame, pdata, nteams, flags, ra);
  } else {
    ompt_callback_parallel_end_t f = CB(parallel_end);
    if (f) TOMP_OMPT_CALL(f, pdata, &enc->task_data, flags, ra);
  }
}

static void implicit_task(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  ompt_callback_implicit_task_t f = CB(implicit_task);
  tomp_team_t *team = thr->team;
  /* a team of one: its implicit task is undeferred too (as ompt_get_task_info says) */
  int flags = team->nthreads == 1 ? ompt_task_implicit | ompt_task_undeferred : ompt_task_implicit;
  if (f)
    TOMP_OMPT_CALL_ON(thr, f, ep, ep == ompt_scope_begin ? &team->parallel_data : NULL,
                      &thr->task->task_data, parallelism_at(ep, team->nthreads), thr->tid, flags);
}

/* A league's or target region's initial task: its region's parallel_data at end too, as in
 * tomp_ompt_initial_task_ (tool compatibility with LLVM's libomp; Archer dereferences it). */
static void initial_task(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_region_task_t *rt,
                         unsigned index) {
  ompt_callback_implicit_task_t f = CB(implicit_task);
  if (f)
    TOMP_OMPT_CALL(f, ep, &rt->parallel_data, &rt->task.task_data, parallelism_at(ep, rt->size),
                   index, ompt_task_initial);
}

/* ---- synchronisation --------------------------------------------------------------------- */

static ompt_sync_region_t sync_kind(int state) {
  switch (state) {
  case ompt_state_wait_barrier_implicit_parallel:
    return ompt_sync_region_barrier_implicit_parallel;
  case ompt_state_wait_barrier_implicit_workshare:
  case ompt_state_wait_barrier_implicit:
    return ompt_sync_region_barrier_implicit_workshare;
  case ompt_state_wait_barrier_explicit:
    return ompt_sync_region_barrier_explicit;
  case ompt_state_wait_barrier_teams:
    return ompt_sync_region_barrier_teams;
  case ompt_state_wait_taskwait:
    return ompt_sync_region_taskwait;
  case ompt_state_wait_taskgroup:
    return ompt_sync_region_taskgroup;
  default:
    return ompt_sync_region_barrier_implementation;
  }
}

static void sync_region(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep, bool wait,
                        const void *codeptr) {
  ompt_callback_sync_region_t f = wait ? CB(sync_region_wait) : CB(sync_region);
  if (!f) return;
  tomp_task_t *task = thr->task;
  ompt_sync_region_t kind = sync_kind(state);
  /* OpenMP 5.2, sec. 19.5.2.13 (ompt_callback_sync_region_t), parallel_data: "The binding of
   * the parallel_data argument is the current parallel region. For the barrier-end event at
   * the end of a parallel region this argument is NULL."  (sync_region_wait has that type.) */
  ompt_data_t *pdata = ep == ompt_scope_end && kind == ompt_sync_region_barrier_implicit_parallel
                           ? NULL
                           : tomp_ev_parallel_data_of(task);
  /* A worker meets a parallel region's closing barrier in the runtime, after the outlined
   * function returned: no call site of its own.  codeptr_ra "may be NULL" when attribution
   * to source code is impossible or inappropriate; tools written against libomp (which
   * passes NULL there) and LLVM's tests expect NULL, so a worker gets NULL and the primary
   * thread the parallel construct's address. */
  if (kind == ompt_sync_region_barrier_implicit_parallel && thr->tid != 0) codeptr = NULL;
  TOMP_OMPT_CALL_ON(thr, f, kind, ep, pdata, &task->task_data, codeptr);
}

static void reduction(tomp_thread_t *thr, ompt_scope_endpoint_t ep, const void *codeptr) {
  ompt_callback_sync_region_t f = CB(reduction);
  tomp_task_t *t = thr->task;
  if (f)
    TOMP_OMPT_CALL(f, ompt_sync_region_reduction, ep, tomp_ev_parallel_data_of(t), &t->task_data,
                   codeptr);
}

/* OpenMP 5.2 sec. 10.5 (masked construct; 6.0 sec. 12.5, the same words), tool callbacks: "A thread dispatches a registered
 * masked callback with ompt_scope_begin as its endpoint argument for each occurrence of a
 * masked-begin event in that thread" (and ompt_scope_end for masked-end); "These callbacks
 * occur in the context of the task executed by the encountering thread." */
static void masked(tomp_thread_t *thr, ompt_scope_endpoint_t ep, const void *codeptr) {
  ompt_callback_masked_t f = CB(masked);
  tomp_task_t *t = thr->task;
  if (f) TOMP_OMPT_CALL_ON(thr, f, ep, tomp_ev_parallel_data_of(t), &t->task_data, codeptr);
}

/* sec. 15.8.5 (flush construct; 6.0 sec. 17.8.6): "The flush event occurs in a thread that
 * encounters the flush construct" (implied flushes are not events); "A thread dispatches a registered flush callback for each
 * occurrence of a flush event in that thread"; its thread_data is the encountering thread's. */
static void flush(tomp_thread_t *thr, const void *codeptr) {
  ompt_callback_flush_t f = CB(flush);
  if (f) TOMP_OMPT_CALL_ON(thr, f, &thr->thread_data, codeptr);
}

/* ---- worksharing ------------------------------------------------------------------------- */

static void work(tomp_thread_t *thr, tomp_task_t *task, int wstype, ompt_scope_endpoint_t ep,
                 uint64_t count, const void *codeptr) {
  ompt_callback_work_t f = CB(work);
  if (f)
    TOMP_OMPT_CALL_ON(thr, f, (ompt_work_t)wstype, ep, tomp_ev_parallel_data_of(task),
                      &task->task_data, count, codeptr);
}

/* gcc gives no address for a section's block: instance.value is the section's number, 1 for
 * the first section of the construct (see docs/ompt-support.md). */
static void dispatch(tomp_thread_t *thr, tomp_task_t *task, int kind, uint64_t a, uint64_t n) {
  ompt_callback_dispatch_t f = CB(dispatch);
  if (!f) return;
  ompt_dispatch_chunk_t c = {a, n};
  ompt_data_t inst = {.ptr = &c};
  if (kind == ompt_dispatch_section) inst.value = a;
  TOMP_OMPT_CALL_ON(thr, f, tomp_ev_parallel_data_of(task), &task->task_data, (ompt_dispatch_t)kind,
                    inst);
}

/* ---- tasks ------------------------------------------------------------------------------- */

#define TASK_FLAG_MASK 0xf800001fu /* the ompt_task_flag_t bits of task->flags */

static void task_create(tomp_thread_t *thr, tomp_task_t *parent, tomp_task_t *task, bool has_deps,
                        const void *codeptr) {
  ompt_callback_task_create_t f = CB(task_create);
  if (f)
    TOMP_OMPT_CALL_ON(thr, f, parent ? &parent->task_data : NULL, parent ? &parent->frame : NULL,
                      &task->task_data, (int)(task->flags & TASK_FLAG_MASK), has_deps, codeptr);
}

static void task_schedule(tomp_task_t *prior, int status, tomp_task_t *next) {
  ompt_callback_task_schedule_t f = CB(task_schedule);
  if (f)
    TOMP_OMPT_CALL(f, prior ? &prior->task_data : NULL, (ompt_task_status_t)status,
                   next ? &next->task_data : NULL);
}

static void dependences(tomp_task_t *task, const ompt_dependence_t *deps, int n) {
  ompt_callback_dependences_t f = CB(dependences);
  if (f) TOMP_OMPT_CALL(f, &task->task_data, deps, n);
}

static void task_dependence(tomp_task_t *pred, tomp_task_t *succ) {
  ompt_callback_task_dependence_t f = CB(task_dependence);
  if (f) TOMP_OMPT_CALL(f, &pred->task_data, &succ->task_data);
}

/* ---- mutual exclusion -------------------------------------------------------------------- */

static int impl_of(int kind) {
  return kind == ompt_mutex_ordered ? TOMP_MUTEX_IMPL_SPIN : TOMP_MUTEX_IMPL_FUTEX;
}

static void mutex(tomp_thread_t *thr, int which, int kind, unsigned hint, const void *wid,
                  const void *ra) {
  ompt_wait_id_t w = (ompt_wait_id_t)(uintptr_t)wid;
  switch (which) {
  case TOMP_MUTEX_EV_ACQUIRE: {
    ompt_callback_mutex_acquire_t f = CB(mutex_acquire);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, hint, (unsigned)impl_of(kind), w, ra);
    break;
  }
  case TOMP_MUTEX_EV_ACQUIRED: {
    ompt_callback_mutex_t f = CB(mutex_acquired);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, w, ra);
    break;
  }
  case TOMP_MUTEX_EV_RELEASED: {
    ompt_callback_mutex_t f = CB(mutex_released);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, w, ra);
    break;
  }
  case TOMP_MUTEX_EV_LOCK_INIT: {
    ompt_callback_mutex_acquire_t f = CB(lock_init);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, hint, (unsigned)impl_of(kind), w, ra);
    break;
  }
  case TOMP_MUTEX_EV_LOCK_DESTROY: {
    ompt_callback_mutex_t f = CB(lock_destroy);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, w, ra);
    break;
  }
  default: {
    ompt_callback_nest_lock_t f = CB(nest_lock);
    if (f)
      TOMP_OMPT_CALL(f, which == TOMP_MUTEX_EV_NEST_BEGIN ? ompt_scope_begin : ompt_scope_end, w,
                     ra);
    break;
  }
  }
}

/* ---- cancellation, errors, target -------------------------------------------------------- */

static void cancel(tomp_thread_t *thr, tomp_task_t *task, int flags, const void *ra) {
  ompt_callback_cancel_t f = CB(cancel);
  (void)thr;
  if (f) TOMP_OMPT_CALL(f, &task->task_data, flags, ra);
}

static void error(tomp_thread_t *thr, int severity, const char *msg, size_t len, const void *ra) {
  ompt_callback_error_t f = CB(error);
  if (f) TOMP_OMPT_CALL(f, (ompt_severity_t)severity, msg, len, ra);
}

/* A target construct run on the host (tomp has no devices): device_num is the initial device,
 * 0; task is the encountering task.  r->data is the EMI target_data (the tool's), r->id the
 * target_id of the non-EMI callback. */
static void target(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep, tomp_task_t *task,
                   tomp_ev_target_t *r, const void *ra) {
  ompt_callback_target_emi_t fe = CB(target_emi);
  if (fe) TOMP_OMPT_CALL(fe, (ompt_target_t)kind, ep, 0, &task->task_data, NULL, &r->data, ra);
  ompt_callback_target_t f = CB(target);
  if (f) TOMP_OMPT_CALL(f, (ompt_target_t)kind, ep, 0, &task->task_data, r->id, ra);
}

/* ---- the observer ------------------------------------------------------------------------ */

/* A worker, or an initial thread the program created (it reports its end when it exits). */
static void thread_begin(tomp_thread_t *thr) {
  if (thr->ompt_type == ompt_thread_initial)
    tomp_ompt_initial_thread_started_(thr);
  else
    tomp_ompt_thread_begin_(thr);
}

static const tomp_observer_t ompt_observer = {
    .name = "OMPT",
    .start = tomp_ompt_init,
    .control_tool = tomp_ompt_control_tool,
    .thread_begin = thread_begin,
    .thread_end = tomp_ompt_thread_end_,
    .parallel_begin = parallel_begin,
    .parallel_end = parallel_end,
    .league = league,
    .implicit_task = implicit_task,
    .initial_task = initial_task,
    .work = work,
    .dispatch = dispatch,
    .sync_region = sync_region,
    .reduction = reduction,
    .masked = masked,
    .flush = flush,
    .task_create = task_create,
    .task_schedule = task_schedule,
    .dependences = dependences,
    .task_dependence = task_dependence,
    .mutex = mutex,
    .cancel = cancel,
    .error = error,
    .target = target,
};

TOMP_OBSERVER(TOMP_OBS_SLOT_OMPT, ompt_observer);
