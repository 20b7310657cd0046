/* The event layer's cold halves: each dispatcher runs only when an event site found someone
 * listening (event.h), decides what the event is in OpenMP terms, and hands it to every
 * attached, listening observer in slot order.  Observers do not see one another.
 *
 * The end of a `single`: gcc calls GOMP_single_start and nothing when the executing thread
 * leaves the block (only copyprivate singles call GOMP_single_copy_end).  The executor's
 * work-end is therefore reported when that thread next reaches a point that the OpenMP
 * restrictions forbid inside a single region (a worksharing construct may not be closely
 * nested in a single, nor may a barrier): the next barrier it takes part in, the next
 * worksharing construct it starts, or the end of its implicit task -- whichever comes first.
 * Entry points that may appear inside the single block (task, taskwait, critical, locks, ...)
 * do not close it.  The pending end is remembered per thread with the task it belongs to, so
 * a parallel region nested in the single block leaves it alone. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int tomp_listeners;
uint8_t tomp_ev_want[TOMP_EV_NEVENTS];
static const tomp_observer_t *observers[TOMP_OBS_NSLOTS];

void tomp_observer_attach(int slot, const tomp_observer_t *obs) {
  if (slot < 0 || slot >= TOMP_OBS_NSLOTS || observers[slot])
    tomp_fatal("observer %s: slot %d is taken or out of range", obs->name, slot);
  observers[slot] = obs;
}

void tomp_observers_start(void) {
  for (int i = 0; i < TOMP_OBS_NSLOTS; i++)
    if (observers[i] && observers[i]->start) observers[i]->start();
}

bool tomp_listen(int obs_bit) {
  __atomic_or_fetch(&tomp_listeners, obs_bit, __ATOMIC_RELEASE);
  if (tomp_tool_keys_sync()) return true;
  __atomic_and_fetch(&tomp_listeners, ~obs_bit, __ATOMIC_SEQ_CST);
  return false;
}

void tomp_unlisten(int obs_bit) {
  __atomic_and_fetch(&tomp_listeners, ~obs_bit, __ATOMIC_SEQ_CST);
  tomp_tool_keys_sync();
}

void tomp_ev_set_wanted(int obs_bit, tomp_event_t ev, bool on) {
  if (on)
    __atomic_or_fetch(&tomp_ev_want[ev], (uint8_t)obs_bit, __ATOMIC_RELAXED);
  else
    __atomic_and_fetch(&tomp_ev_want[ev], (uint8_t)~obs_bit, __ATOMIC_RELAXED);
}

/* Every attached observer that listens now and has the hook. */
#define EACH_OBSERVER(hook, ...)                                                                   \
  do {                                                                                             \
    int on_ = __atomic_load_n(&tomp_listeners, __ATOMIC_RELAXED);                                  \
    for (int i_ = 0; i_ < TOMP_OBS_NSLOTS; i_++) {                                                 \
      const tomp_observer_t *o_ = observers[i_];                                                   \
      if (o_ && o_->hook && (on_ & (1 << i_))) o_->hook(__VA_ARGS__);                              \
    }                                                                                              \
  } while (0)

/* ---- the parallel region a task binds to --------------------------------------------- */

static tomp_thread_t *initial_thread_of(tomp_task_t *task) {
  while (task->parent)
    task = task->parent;
  if (!(task->flags & TOMP_TASK_INITIAL) || (task->flags & TOMP_TASK_OWN_REGION)) return NULL;
  return (tomp_thread_t *)((char *)task - offsetof(tomp_thread_t, initial_task));
}

ompt_data_t *tomp_ev_parallel_data_of(tomp_task_t *task) {
  if (task->team) return &task->team->parallel_data;
  tomp_task_t *root = task;
  while (root->parent)
    root = root->parent;
  if (root->flags & TOMP_TASK_OWN_REGION) return &((tomp_region_task_t *)root)->parallel_data;
  tomp_thread_t *it = initial_thread_of(task);
  return it ? &it->implicit_parallel_data : NULL;
}

/* ---- threads ---------------------------------------------------------------------------- */

void tomp_ev_thread_begin_(tomp_thread_t *thr) {
  EACH_OBSERVER(thread_begin, thr);
}
void tomp_ev_thread_end_(tomp_thread_t *thr) {
  EACH_OBSERVER(thread_end, thr);
}
void tomp_ev_idle_(tomp_thread_t *thr, bool begin) {
  EACH_OBSERVER(idle, thr, begin);
}

/* ---- parallel regions, leagues, implicit and initial tasks ------------------------------ */

void tomp_ev_fork_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  int flags = ompt_parallel_team |
              (thr->ev_fork_flags ? thr->ev_fork_flags : ompt_parallel_invoker_runtime);
  unsigned req = thr->ev_requested ? thr->ev_requested : team->nthreads;
  thr->ev_fork_flags = 0;
  thr->ev_requested = 0;
  team->ev_flags = flags;
  EACH_OBSERVER(parallel_begin, thr, team, ptask, req, flags);
}

/* Runs in the encountering task after the closing barrier.  Workers report their
 * implicit-task end right after that barrier too; waiting until each is parked again makes
 * every implicit-task end of the region precede its parallel end. */
void tomp_ev_join_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  for (unsigned i = 1; i < team->nthreads; i++)
    tomp_worker_wait_idle(team->threads[i]);
  EACH_OBSERVER(parallel_end, thr, team, ptask);
}

void tomp_ev_implicit_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (ep == ompt_scope_end && thr->ev_single) tomp_ev_single_flush_(thr);
  EACH_OBSERVER(implicit_task, thr, ep);
  if (ep == ompt_scope_begin && thr->team->ws_initial) tomp_ev_ws_initial(thr);
}

void tomp_ev_league_(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_task_t *enc,
                     ompt_data_t *pdata, unsigned nteams) {
  if (ep == ompt_scope_begin) pdata->value = 0;
  EACH_OBSERVER(league, thr, ep, enc, pdata, nteams, tomp_ev_codeptr(thr));
}

void tomp_ev_region_task_(ompt_scope_endpoint_t ep, tomp_region_task_t *rt, unsigned index) {
  EACH_OBSERVER(initial_task, tomp_self, ep, rt, index);
}

/* ---- barriers and task synchronisation -------------------------------------------------- */

void tomp_ev_barrier_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep, bool wait,
                      const void *codeptr) {
  if (ep == ompt_scope_begin && !wait && thr->ev_single && state != ompt_state_wait_taskwait &&
      state != ompt_state_wait_taskgroup)
    tomp_ev_single_flush_(thr); /* a barrier cannot be inside the single: it has ended */
  EACH_OBSERVER(sync_region, thr, state, ep, wait, codeptr);
}

/* A barrier outside any parallel region binds to the initial task's implicit parallel
 * region, a team of one: it is complete as soon as it starts. */
void tomp_ev_serial_barrier_(tomp_thread_t *thr, const void *codeptr) {
  int st = ompt_state_wait_barrier_explicit, saved = thr->state;
  tomp_ev_barrier_(thr, st, ompt_scope_begin, false, codeptr);
  tomp_set_state(thr, st, 0);
  tomp_ev_barrier_(thr, st, ompt_scope_begin, true, codeptr);
  tomp_ev_barrier_(thr, st, ompt_scope_end, true, codeptr);
  tomp_set_state(thr, saved, 0);
  tomp_ev_barrier_(thr, st, ompt_scope_end, false, codeptr);
}

void tomp_ev_sync_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep) {
  const void *ra = tomp_ev_codeptr(thr);
  if (ep == ompt_scope_begin) {
    tomp_ev_barrier_(thr, state, ompt_scope_begin, false, ra);
    tomp_ev_barrier_(thr, state, ompt_scope_begin, true, ra);
  } else {
    tomp_ev_barrier_(thr, state, ompt_scope_end, true, ra);
    tomp_ev_barrier_(thr, state, ompt_scope_end, false, ra);
  }
}

void tomp_ev_reduction_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  EACH_OBSERVER(reduction, thr, ep, tomp_ev_codeptr(thr));
}

/* ---- worksharing ------------------------------------------------------------------------ */

void tomp_ev_single_flush_(tomp_thread_t *thr) {
  tomp_task_t *t = thr->ev_single;
  if (!t || t != thr->task) return;
  thr->ev_single = NULL;
  EACH_OBSERVER(work, thr, t, ompt_work_single_executor, ompt_scope_end, 1, thr->ev_single_ra);
}

void tomp_ev_work_(tomp_thread_t *thr, int wstype, ompt_scope_endpoint_t ep, uint64_t count) {
  if (ep == ompt_scope_begin && thr->ev_single && wstype != ompt_work_taskloop)
    tomp_ev_single_flush_(thr); /* worksharing cannot nest in the single: it has ended */
  EACH_OBSERVER(work, thr, thr->task, wstype, ep, count, tomp_ev_codeptr(thr));
}

void tomp_ev_single_begin_(tomp_thread_t *thr, bool executor, bool deferred_end) {
  tomp_ev_work_(thr, executor ? ompt_work_single_executor : ompt_work_single_other,
                ompt_scope_begin, 1);
  if (!executor) {
    tomp_ev_work_(thr, ompt_work_single_other, ompt_scope_end, 1);
  } else if (deferred_end) {
    thr->ev_single = thr->task;
    thr->ev_single_ra = tomp_ev_codeptr(thr);
  }
}

/* copyprivate singles do end with a call */
void tomp_ev_single_end_(tomp_thread_t *thr) {
  tomp_ev_work_(thr, ompt_work_single_executor, ompt_scope_end, 1);
}

void tomp_ev_dispatch_(tomp_thread_t *thr, int kind, uint64_t a, uint64_t n) {
  EACH_OBSERVER(dispatch, thr, thr->task, kind, a, n);
}

/* ---- tasks ------------------------------------------------------------------------------ */

void tomp_ev_task_create_(tomp_thread_t *thr, tomp_task_t *parent, tomp_task_t *task,
                          bool has_deps) {
  task->task_data.value = 0;
  EACH_OBSERVER(task_create, thr, parent, task, has_deps, tomp_ev_codeptr(thr));
  if (thr->ev_chunk_pending) {
    /* a taskloop's task: the chunk it will execute, reported in the encountering task */
    thr->ev_chunk_pending = false;
    EACH_OBSERVER(dispatch, thr, task, ompt_dispatch_taskloop_chunk, thr->ev_chunk[0],
                  thr->ev_chunk[1]);
  }
}

void tomp_ev_task_schedule_(tomp_task_t *prior, int status, tomp_task_t *next) {
  EACH_OBSERVER(task_schedule, prior, status, next);
}

void tomp_ev_dependences_(tomp_task_t *task, const ompt_dependence_t *deps, int n) {
  EACH_OBSERVER(dependences, task, deps, n);
}

void tomp_ev_task_dependence_(tomp_task_t *pred, tomp_task_t *succ) {
  EACH_OBSERVER(task_dependence, pred, succ);
}

void tomp_ev_doacross_(tomp_thread_t *thr, int type, const uint64_t *v, unsigned n) {
  if (!TOMP_EV_WANTED(TOMP_EV_DEPENDENCES)) return;
  ompt_dependence_t deps[n];
  for (unsigned i = 0; i < n; i++) {
    deps[i].variable.value = v[i];
    deps[i].dependence_type = (ompt_dependence_type_t)type;
  }
  tomp_ev_dependences_(thr->task, deps, (int)n);
}

/* ---- mutual exclusion, cancellation, errors, target ------------------------------------- */

void tomp_ev_mutex_(int which, tomp_thread_t *thr, int kind, unsigned hint, const void *wid) {
  EACH_OBSERVER(mutex, thr, which, kind, hint, wid, tomp_ev_codeptr(thr));
}

void tomp_ev_cancel_(tomp_thread_t *thr, int flags) {
  EACH_OBSERVER(cancel, thr, flags, tomp_ev_codeptr(thr));
}

void tomp_ev_error_(tomp_thread_t *thr, int severity, const char *msg, size_t len) {
  if (msg && len == (size_t)-1) len = strlen(msg);
  if (!msg) len = 0;
  EACH_OBSERVER(error, thr, severity, msg, len, tomp_ev_codeptr(thr));
}

/* A target construct run on the host: r gets a fresh id at begin. */
void tomp_ev_target_(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep, tomp_task_t *task,
                     tomp_ev_target_t *r) {
  static uint64_t next_id;
  if (ep == ompt_scope_begin) {
    r->data.value = 0;
    r->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
  }
  EACH_OBSERVER(target, thr, kind, ep, task, r, tomp_ev_codeptr(thr));
}
