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
uint32_t tomp_listen_epoch;
uint8_t tomp_ev_want[TOMP_EV_NEVENTS];
static const tomp_observer_t *observers[TOMP_OBS_NSLOTS];

/* The observers' registrations (TOMP_OBSERVER), collected by the linker.  Weak: a build with
 * no observer has no such section. */
extern const tomp_observer_reg_t __start_tomp_observers[] TOMP_HIDDEN __attribute__((weak));
extern const tomp_observer_reg_t __stop_tomp_observers[] TOMP_HIDDEN __attribute__((weak));

/* observers[] from the section; idempotent (the section never changes). */
static void collect(void) {
  for (const tomp_observer_reg_t *r = __start_tomp_observers; r < __stop_tomp_observers; r++) {
    if (r->slot < 0 || r->slot >= TOMP_OBS_NSLOTS ||
        (observers[r->slot] && observers[r->slot] != r->obs))
      tomp_fatal("observer %s: slot %d is taken or out of range", r->obs->name, r->slot);
    observers[r->slot] = r->obs;
  }
}

void tomp_observers_start(void) {
  collect();
  for (int i = 0; i < TOMP_OBS_NSLOTS; i++)
    if (observers[i] && observers[i]->start) observers[i]->start();
}

int tomp_ev_control_tool(int command, int modifier, void *arg, const void *ra, void *fp) {
  collect();
  for (int i = 0; i < TOMP_OBS_NSLOTS; i++)
    if (observers[i] && observers[i]->control_tool)
      return observers[i]->control_tool(command, modifier, arg, ra, fp);
  return -2; /* omp_control_tool_notool */
}

/* Every change of the word bumps tomp_listen_epoch before it and again once the code sites
 * follow it (event.h, tomp_ev_join_wait): the sites are patched one at a time, so while they
 * are, a fork may see its site on while a worker still sees its own off; such a fork took
 * the first bump and its join sees the second one, and falls back.  A worker that saw the
 * change (in the word, or in the keys rewritten after it) is ordered after the first bump. */
void tomp_listen_epoch_bump(void) {
  __atomic_add_fetch(&tomp_listen_epoch, 1, __ATOMIC_SEQ_CST);
}

bool tomp_listen(int obs_bit) {
  tomp_listen_epoch_bump();
  __atomic_or_fetch(&tomp_listeners, obs_bit, __ATOMIC_SEQ_CST);
  bool ok = tomp_tool_keys_sync();
  tomp_listen_epoch_bump();
  if (ok) return true;
  __atomic_and_fetch(&tomp_listeners, ~obs_bit, __ATOMIC_SEQ_CST);
  tomp_tool_keys_sync(); /* the hooks follow the word again */
  tomp_listen_epoch_bump();
  return false;
}

void tomp_unlisten(int obs_bit) {
  tomp_listen_epoch_bump();
  __atomic_and_fetch(&tomp_listeners, ~obs_bit, __ATOMIC_SEQ_CST);
  tomp_tool_keys_sync();
  tomp_listen_epoch_bump();
}

void tomp_ev_join_wait(tomp_team_t *team) {
  uint32_t *w = &team->ev_left;
  if (!team->ev_join || team->ev_epoch != __atomic_load_n(&tomp_listen_epoch, __ATOMIC_SEQ_CST)) {
    /* listening, or the events wanted, changed during the region: some worker may not count
     * itself */
    for (unsigned i = 1; i < team->nthreads; i++) tomp_worker_wait_idle(team->threads[i]);
    return;
  }
  /* The workers mostly need a moment, or (threads outnumbering CPUs) our CPU: poll the way
   * every wait does (oversubscribed, each poll yields), then sleep until the last one wakes
   * us, instead of polling each worker's state with yields and, on a busy machine, 50 us
   * sleeps (session 13: 66 us per region at 4 threads on 2 CPUs). */
  unsigned long n = tomp_spins();
  for (unsigned long i = 0; i < n; i++) {
    if (!(tomp_load_acq(w) & ~TOMP_EV_LEFT_WAITER)) return;
    tomp_wait_pause();
  }
  uint32_t v;
  while ((v = tomp_load_acq(w)) & ~TOMP_EV_LEFT_WAITER) {
    if (!(v & TOMP_EV_LEFT_WAITER) &&
        !__atomic_compare_exchange_n(w, &v, v | TOMP_EV_LEFT_WAITER, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST))
      continue;
    tomp_futex_wait(w, v | TOMP_EV_LEFT_WAITER);
  }
}

void tomp_ev_set_wanted(int obs_bit, tomp_event_t ev, bool on) {
  if (on)
    __atomic_or_fetch(&tomp_ev_want[ev], (uint8_t)obs_bit, __ATOMIC_RELAXED);
  else
    __atomic_and_fetch(&tomp_ev_want[ev], (uint8_t)~obs_bit, __ATOMIC_RELAXED);
}

/* Per hook, for when no listening observer handles it: nothing. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define NOHOOK_(name, params, args)                                                                \
  static void nohook_##name params {}
TOMP_OBSERVER_HOOKS(NOHOOK_)
#undef NOHOOK_
#pragma GCC diagnostic pop

/* The hooks events go to now (tomp_observers_sync); written under the keys' lock, read with
 * one relaxed load per event.  A reader may call an observer that has just stopped listening:
 * each observer checks its own state before it reaches its client (OMPT: TOMP_OMPT_CALL). */
#define NOHOOK_INIT_(name, params, args) .name = nohook_##name,
tomp_observer_t tomp_hooks = {TOMP_OBSERVER_HOOKS(NOHOOK_INIT_)};
#undef NOHOOK_INIT_

/* Per hook, for when several observers listen: each of them, in slot order. */
#define FANOUT_(name, params, args)                                                                \
  static void fanout_##name params {                                                               \
    int on_ = __atomic_load_n(&tomp_listeners, __ATOMIC_RELAXED);                                  \
    for (int i_ = 0; i_ < TOMP_OBS_NSLOTS; i_++) {                                                 \
      const tomp_observer_t *o_ = observers[i_];                                                   \
      if (o_ && o_->name && (on_ & (1 << i_))) o_->name args;                                      \
    }                                                                                              \
  }
TOMP_OBSERVER_HOOKS(FANOUT_)
#undef FANOUT_

void tomp_observers_sync(void) {
  collect(); /* an observer may listen before tomp_init ran (a Collector API client's preinit) */
  int on = __atomic_load_n(&tomp_listeners, __ATOMIC_SEQ_CST);
#define PICK_(name, params, args)                                                                  \
  {                                                                                                \
    int n_ = 0;                                                                                    \
    __typeof__(tomp_hooks.name) f_ = NULL;                                                         \
    for (int i_ = 0; i_ < TOMP_OBS_NSLOTS; i_++)                                                   \
      if (observers[i_] && observers[i_]->name && (on & (1 << i_)))                                \
        n_++, f_ = observers[i_]->name;                                                            \
    __atomic_store_n(&tomp_hooks.name,                                                             \
                     n_ > 1 ? fanout_##name                                                        \
                     : f_   ? f_                                                                   \
                            : nohook_##name,                                                         \
                     __ATOMIC_RELAXED);                                                            \
  }
  TOMP_OBSERVER_HOOKS(PICK_)
#undef PICK_
}


/* ---- the parallel region a task binds to --------------------------------------------- */

static tomp_thread_t *initial_thread_of(tomp_task_t *task) {
  while (task->parent)
    task = task->parent;
  if (!(task->flags & TOMP_TASK_INITIAL) || (task->flags & TOMP_TASK_OWN_REGION)) return NULL;
  return (tomp_thread_t *)((char *)task - offsetof(tomp_thread_t, initial_task));
}

ompt_data_t *tomp_ev_parallel_data_outside_(tomp_task_t *task) {
  tomp_task_t *root = task;
  while (root->parent)
    root = root->parent;
  if (root->flags & TOMP_TASK_OWN_REGION) return &((tomp_region_task_t *)root)->parallel_data;
  tomp_thread_t *it = initial_thread_of(task);
  return it ? &it->implicit_parallel_data : NULL;
}

/* ---- threads ---------------------------------------------------------------------------- */

void tomp_ev_thread_begin_(tomp_thread_t *thr) {
  TOMP_EV_CALL(thread_begin, thr);
}
void tomp_ev_thread_end_(tomp_thread_t *thr) {
  TOMP_EV_CALL(thread_end, thr);
}
void tomp_ev_idle_(tomp_thread_t *thr, bool begin) {
  TOMP_EV_CALL(idle, thr, begin);
}

/* ---- parallel regions, leagues, implicit and initial tasks ------------------------------ */

void tomp_ev_league_(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_task_t *enc,
                     ompt_data_t *pdata, unsigned nteams) {
  if (ep == ompt_scope_begin) pdata->value = 0;
  TOMP_EV_CALL(league, thr, ep, enc, pdata, nteams, tomp_ev_codeptr(thr));
}

void tomp_ev_region_task_(ompt_scope_endpoint_t ep, tomp_region_task_t *rt, unsigned index) {
  TOMP_EV_CALL(initial_task, tomp_self, ep, rt, index);
}

/* ---- barriers and task synchronisation -------------------------------------------------- */

/* A barrier outside any parallel region binds to the initial task's implicit parallel
 * region, a team of one: it is complete as soon as it starts. */
void tomp_ev_serial_barrier_(tomp_thread_t *thr, int st, const void *codeptr) {
  int saved = thr->state;
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
  TOMP_EV_CALL(reduction, thr, ep, tomp_ev_codeptr(thr));
}

void tomp_ev_masked_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  TOMP_EV_CALL(masked, thr, ep, tomp_ev_codeptr(thr));
}

void tomp_ev_flush_(tomp_thread_t *thr) {
  TOMP_EV_CALL(flush, thr, tomp_ev_codeptr(thr));
}

/* ---- worksharing ------------------------------------------------------------------------ */

void tomp_ev_single_flush_(tomp_thread_t *thr) {
  tomp_task_t *t = thr->ev_single;
  if (!t || t != thr->task) return;
  thr->ev_single = NULL;
  TOMP_EV_CALL(work, thr, t, ompt_work_single_executor, ompt_scope_end, 1, thr->ev_single_ra);
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

/* ---- tasks ------------------------------------------------------------------------------ */

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

void tomp_ev_error_(tomp_thread_t *thr, int severity, const char *msg, size_t len) {
  if (msg && len == (size_t)-1) len = strlen(msg);
  if (!msg) len = 0;
  TOMP_EV_CALL(error, thr, severity, msg, len, tomp_ev_codeptr(thr));
}

/* A target construct run on the host: r gets a fresh id at begin. */
void tomp_ev_target_(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep, tomp_task_t *task,
                     tomp_ev_target_t *r) {
  static uint64_t next_id;
  if (ep == ompt_scope_begin) {
    r->data.value = 0;
    r->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
  }
  TOMP_EV_CALL(target, thr, kind, ep, task, r, tomp_ev_codeptr(thr));
}
