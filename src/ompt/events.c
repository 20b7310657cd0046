/* The cold halves of the construct events: worksharing, dispatch, tasks, synchronisation,
 * mutual exclusion, cancellation, errors and host-fallback target regions.  Every function
 * here runs only when tomp_ompt_on() was true at the event site; each loads its callback once
 * and does nothing if the tool did not register it.
 *
 * codeptr_ra is thr->codeptr: the user's return address recorded by TOMP_ENTRY at the
 * outermost entry point of the current task.
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
#include <string.h>

#include "ompt-events.h"
#include "../collector/collector.h"

#define CB(name) __atomic_load_n(&tomp_ompt_cb.cb.name, __ATOMIC_RELAXED)

static const void *ra_of(tomp_thread_t *thr) {
  if (thr->codeptr) return thr->codeptr;
  return thr->team ? thr->team->codeptr : NULL;
}

/* ---- worksharing ------------------------------------------------------------------------ */

void tomp_ompt_single_flush_(tomp_thread_t *thr) {
  tomp_task_t *t = thr->ompt_single;
  if (!t || t != thr->task) return;
  thr->ompt_single = NULL;
  if (tomp_coll_on()) tomp_coll_event_(thr, OMP_EVENT_THR_END_SINGLE);
  ompt_callback_work_t f = CB(work);
  if (f)
    TOMP_OMPT_CALL(f, ompt_work_single_executor, ompt_scope_end, tomp_ompt_parallel_data_of(t), &t->task_data,
      1, thr->ompt_single_ra);
}

void tomp_ompt_work_(tomp_thread_t *thr, int wstype, ompt_scope_endpoint_t ep, uint64_t count) {
  if (ep == ompt_scope_begin && thr->ompt_single && wstype != ompt_work_taskloop)
    tomp_ompt_single_flush_(thr); /* worksharing cannot nest in the single: it has ended */
  ompt_callback_work_t f = CB(work);
  if (!f) return;
  tomp_task_t *t = thr->task;
  TOMP_OMPT_CALL(f, (ompt_work_t)wstype, ep, tomp_ompt_parallel_data_of(t), &t->task_data, count, ra_of(thr));
}

/* executor: the thread runs the block; deferred_end: its end is reported later (see top). */
void tomp_ompt_single_begin_(tomp_thread_t *thr, bool executor, bool deferred_end) {
  tomp_ompt_work_(thr, executor ? ompt_work_single_executor : ompt_work_single_other,
                  ompt_scope_begin, 1);
  if (executor && tomp_coll_on()) tomp_coll_event_(thr, OMP_EVENT_THR_BEGIN_SINGLE);
  if (!executor) {
    tomp_ompt_work_(thr, ompt_work_single_other, ompt_scope_end, 1);
  } else if (deferred_end) {
    thr->ompt_single = thr->task;
    thr->ompt_single_ra = ra_of(thr);
  }
}

/* copyprivate singles do end with a call */
void tomp_ompt_single_end_(tomp_thread_t *thr) {
  tomp_ompt_work_(thr, ompt_work_single_executor, ompt_scope_end, 1);
  if (tomp_coll_on()) tomp_coll_event_(thr, OMP_EVENT_THR_END_SINGLE);
}

void tomp_ompt_dispatch_chunk_(tomp_thread_t *thr, int kind, uint64_t start, uint64_t iterations) {
  ompt_callback_dispatch_t f = CB(dispatch);
  if (!f) return;
  ompt_dispatch_chunk_t c = {start, iterations};
  ompt_data_t inst = {.ptr = &c};
  tomp_task_t *t = thr->task;
  TOMP_OMPT_CALL(f, tomp_ompt_parallel_data_of(t), &t->task_data, (ompt_dispatch_t)kind, inst);
}

/* gcc gives no address for a section's block: instance.value is the section's number, 1 for
 * the first section of the construct (see docs/ompt-support.md). */
void tomp_ompt_dispatch_section_(tomp_thread_t *thr, uint64_t number) {
  ompt_callback_dispatch_t f = CB(dispatch);
  if (!f) return;
  ompt_data_t inst = {.value = number};
  tomp_task_t *t = thr->task;
  TOMP_OMPT_CALL(f, tomp_ompt_parallel_data_of(t), &t->task_data, ompt_dispatch_section, inst);
}

/* ---- synchronisation regions of tasks ---------------------------------------------------- */

/* state: ompt_state_wait_taskwait / wait_taskgroup (sync_region and sync_region_wait, the
 * wait nested inside), or ompt_state_work_reduction (the reduction callback). */
void tomp_ompt_sync_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep) {
  if (state == ompt_state_work_reduction) {
    ompt_callback_sync_region_t f = CB(reduction);
    tomp_task_t *t = thr->task;
    if (f)
      TOMP_OMPT_CALL(f, ompt_sync_region_reduction, ep, tomp_ompt_parallel_data_of(t), &t->task_data, ra_of(thr));
    return;
  }
  const void *ra = ra_of(thr);
  if (ep == ompt_scope_begin) {
    tomp_ompt_barrier_(thr, state, ompt_scope_begin, false, ra);
    tomp_ompt_barrier_(thr, state, ompt_scope_begin, true, ra);
  } else {
    tomp_ompt_barrier_(thr, state, ompt_scope_end, true, ra);
    tomp_ompt_barrier_(thr, state, ompt_scope_end, false, ra);
  }
}

/* ---- tasks ----------------------------------------------------------------------------- */

#define TASK_FLAG_MASK 0xf800001fu /* the ompt_task_flag_t bits of task->flags */

void tomp_ompt_task_create_(tomp_thread_t *thr, tomp_task_t *parent, tomp_task_t *task,
                            bool has_deps) {
  task->task_data.value = 0;
  ompt_callback_task_create_t f = CB(task_create);
  if (f)
    TOMP_OMPT_CALL(f, parent ? &parent->task_data : NULL, parent ? &parent->frame : NULL, &task->task_data,
      (int)(task->flags & TASK_FLAG_MASK), has_deps, ra_of(thr));
  if (thr->ompt_chunk_pending) {
    /* a taskloop's task: the chunk it will execute, reported in the encountering task */
    thr->ompt_chunk_pending = false;
    ompt_callback_dispatch_t d = CB(dispatch);
    if (d) {
      ompt_dispatch_chunk_t c = {thr->ompt_chunk[0], thr->ompt_chunk[1]};
      ompt_data_t inst = {.ptr = &c};
      TOMP_OMPT_CALL(d, tomp_ompt_parallel_data_of(task), &task->task_data, ompt_dispatch_taskloop_chunk, inst);
    }
  }
}

void tomp_ompt_task_schedule_(tomp_task_t *prior, int status, tomp_task_t *next) {
  ompt_callback_task_schedule_t f = CB(task_schedule);
  if (f)
    TOMP_OMPT_CALL(f, prior ? &prior->task_data : NULL, (ompt_task_status_t)status,
      next ? &next->task_data : NULL);
}

/* ---- mutual exclusion --------------------------------------------------------------------- */

static int impl_of(int kind) {
  return kind == ompt_mutex_ordered ? TOMP_MUTEX_IMPL_SPIN : TOMP_MUTEX_IMPL_FUTEX;
}

void tomp_ompt_mutex_(int which, tomp_thread_t *thr, int kind, unsigned hint, const void *wid) {
  ompt_wait_id_t w = (ompt_wait_id_t)(uintptr_t)wid;
  const void *ra = ra_of(thr);
  if (tomp_coll_on()) tomp_coll_mutex_(thr, which, kind);
  switch (which) {
  case TOMP_OMPT_ACQUIRE: {
    ompt_callback_mutex_acquire_t f = CB(mutex_acquire);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, hint, (unsigned)impl_of(kind), w, ra);
    break;
  }
  case TOMP_OMPT_ACQUIRED: {
    ompt_callback_mutex_t f = CB(mutex_acquired);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, w, ra);
    break;
  }
  case TOMP_OMPT_RELEASED: {
    ompt_callback_mutex_t f = CB(mutex_released);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, w, ra);
    break;
  }
  case TOMP_OMPT_LOCK_INIT: {
    ompt_callback_mutex_acquire_t f = CB(lock_init);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, hint, (unsigned)impl_of(kind), w, ra);
    break;
  }
  case TOMP_OMPT_LOCK_DESTROY: {
    ompt_callback_mutex_t f = CB(lock_destroy);
    if (f) TOMP_OMPT_CALL(f, (ompt_mutex_t)kind, w, ra);
    break;
  }
  default: {
    ompt_callback_nest_lock_t f = CB(nest_lock);
    if (f) TOMP_OMPT_CALL(f, which == TOMP_OMPT_NEST_BEGIN ? ompt_scope_begin : ompt_scope_end, w, ra);
    break;
  }
  }
}

/* ---- doacross ------------------------------------------------------------------------------- */

void tomp_ompt_doacross_(tomp_thread_t *thr, int type, const uint64_t *v, unsigned n) {
  ompt_callback_dependences_t f = CB(dependences);
  if (!f) return;
  ompt_dependence_t deps[n];
  for (unsigned i = 0; i < n; i++) {
    deps[i].variable.value = v[i];
    deps[i].dependence_type = (ompt_dependence_type_t)type;
  }
  TOMP_OMPT_CALL(f, &thr->task->task_data, deps, (int)n);
}

/* ---- cancellation, errors, target ---------------------------------------------------------- */

void tomp_ompt_cancel_(tomp_thread_t *thr, int flags) {
  ompt_callback_cancel_t f = CB(cancel);
  if (f) TOMP_OMPT_CALL(f, &thr->task->task_data, flags, ra_of(thr));
}

void tomp_ompt_error_(tomp_thread_t *thr, int severity, const char *msg, size_t len) {
  ompt_callback_error_t f = CB(error);
  if (!f) return;
  if (msg && len == (size_t)-1) len = strlen(msg);
  if (!msg) len = 0;
  TOMP_OMPT_CALL(f, (ompt_severity_t)severity, msg, len, ra_of(thr));
}

/* A target construct run on the host (tomp has no devices): device_num is the initial device,
 * 0; task is the encountering task.  r->data is the EMI target_data (the tool's), r->id the
 * target_id of the non-EMI callback, assigned at begin. */
void tomp_ompt_target_(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep, tomp_task_t *task,
                       tomp_ompt_target_t *r) {
  static uint64_t next_id;
  const void *ra = ra_of(thr);
  if (ep == ompt_scope_begin) {
    r->data.value = 0;
    r->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
  }
  ompt_callback_target_emi_t fe = CB(target_emi);
  if (fe) TOMP_OMPT_CALL(fe, (ompt_target_t)kind, ep, 0, &task->task_data, NULL, &r->data, ra);
  ompt_callback_target_t f = CB(target);
  if (f) TOMP_OMPT_CALL(f, (ompt_target_t)kind, ep, 0, &task->task_data, r->id, ra);
}

void tomp_ompt_league_(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_task_t *enc,
                       ompt_data_t *pdata, unsigned nteams) {
  int flags = ompt_parallel_league | ompt_parallel_invoker_runtime;
  if (ep == ompt_scope_begin) {
    pdata->value = 0;
    ompt_callback_parallel_begin_t f = CB(parallel_begin);
    if (f) TOMP_OMPT_CALL(f, &enc->task_data, &enc->frame, pdata, nteams, flags, ra_of(thr));
  } else {
    ompt_callback_parallel_end_t f = CB(parallel_end);
    if (f) TOMP_OMPT_CALL(f, pdata, &enc->task_data, flags, ra_of(thr));
  }
}

/* Initial tasks get their region's parallel_data at end too, as in tomp_ompt_initial_task_
 * (tool compatibility with LLVM's libomp; Archer dereferences it). */
void tomp_ompt_region_task_(ompt_scope_endpoint_t ep, tomp_region_task_t *rt, unsigned index) {
  ompt_callback_implicit_task_t f = CB(implicit_task);
  if (f) TOMP_OMPT_CALL(f, ep, &rt->parallel_data, &rt->task.task_data, rt->size, index, ompt_task_initial);
}
