/* Taskgroups.  A task counts only in its innermost taskgroup: tasks it creates inside a
 * nested taskgroup are waited for at that group's end, which comes before the creator can
 * complete, so the outer group's end still waits for every descendant. */
#include <stdlib.h>

#include "task.h"
#include "internal.h"

/* OMPT: sync_region taskgroup from the group's start to its end, the wait nested at its end */
static inline void ompt_sync_taskgroup(tomp_thread_t *thr, tomp_taskgroup_t *tg, int endpoint) {
  (void)tg;
  if (!tomp_listening() || !TOMP_EV_WANTED(TOMP_EV_SYNC)) return;
  if (endpoint == TOMP_EV_SCOPE_BEGIN)
    tomp_ev_barrier_(thr, ompt_state_wait_taskgroup, ompt_scope_begin, false, thr->codeptr);
  else
    tomp_ev_barrier_(thr, ompt_state_wait_taskgroup, ompt_scope_end, false, thr->codeptr);
}
static inline void ompt_taskgroup_wait(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_SYNC))
    tomp_ev_barrier_(thr, ompt_state_wait_taskgroup, ep, true, thr->codeptr);
}

tomp_taskgroup_t *tomp_taskgroup_begin(tomp_thread_t *thr) {
  tomp_task_t *t = thr->task;
  tomp_taskgroup_t *tg = tomp_calloc(1, sizeof *tg);
  tg->prev = t->taskgroup;
  tg->owner = t;
  tg->reductions = tg->prev ? tg->prev->reductions : NULL;
  t->taskgroup = tg;
  ompt_sync_taskgroup(thr, tg, TOMP_EV_SCOPE_BEGIN);
  return tg;
}

static bool group_done(void *arg) {
  return __atomic_load_n(&((tomp_taskgroup_t *)arg)->count, __ATOMIC_SEQ_CST) == 0;
}

void tomp_taskgroup_end(tomp_thread_t *thr) {
  tomp_task_t *t = thr->task;
  tomp_taskgroup_t *tg = t->taskgroup;
  if (!tg) {
    tomp_warn("taskgroup end without a matching taskgroup start; ignored");
    return;
  }
  ompt_taskgroup_wait(thr, ompt_scope_begin);
  if (thr->team) {
    tomp_team_tasks_t *tt = thr->team->tasks;
    tomp_task_wait_until(thr, tg, group_done, tg, ompt_state_wait_taskgroup,
                         (uint64_t)(uintptr_t)tg);
    /* The last member completes under the lock and may still be waking us: let it leave
     * before the group goes away. */
    tomp_mutex_lock(&tt->lock);
    tomp_mutex_unlock(&tt->lock);
  }
  ompt_taskgroup_wait(thr, ompt_scope_end);
  ompt_sync_taskgroup(thr, tg, TOMP_EV_SCOPE_END);
  t->taskgroup = tg->prev;
  free(tg);
}

tomp_taskgroup_t *tomp_taskgroup_cancel_target(tomp_task_t *t) {
  tomp_taskgroup_t *tg = t->taskgroup;
  if (tg && tg->workshare && tg->prev) tg = tg->prev;
  return tg;
}
