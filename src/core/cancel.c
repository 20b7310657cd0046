/* Cancellation (OpenMP cancel / cancellation point), active only when cancel-var is true.
 *
 * parallel: a team bit, checked at cancellation points and by cancellable barriers (which
 *   the barrier module wakes); queued tasks of the team are then discarded, not run.
 * for / sections: a flag on the construct's worksharing descriptor (ws.c); a cancelled
 *   parallel region also counts at their cancellation points, as in libgomp.  A static
 *   construct whose share the compiled code computes (clang's loops and sections) gets a
 *   descriptor from its front-end while cancellation is on (tomp_ws_static_begin, below).  Cancelling
 *   the region also wakes the worksharing waits (ordered, doacross, ring slots), which give
 *   up: the threads they wait for may have left for the region's end.
 * taskgroup: a flag on the innermost taskgroup of the current task (a worksharing
 *   reduction's implicit group does not count); its tasks that have not started yet are
 *   discarded -- still counted as complete -- and its running tasks see it at cancellation
 *   points. */
#include "task.h"
#include "ws.h"
#include "internal.h"

/* OMPT: cancel, activated by `cancel` or detected at a cancellation point.  `for` and
 * `sections` share one kind in the core; the current worksharing construct tells which. */
static void ompt_cancel_(tomp_thread_t *thr, int kind, bool activated) {
  int flags = activated ? ompt_cancel_activated : ompt_cancel_detected;
  switch (kind) {
  case TOMP_CK_PARALLEL: flags |= ompt_cancel_parallel; break;
  case TOMP_CK_TASKGROUP: flags |= ompt_cancel_taskgroup; break;
  default: {
    tomp_ws_t *d = tomp_ws_cur(thr);
    flags |= d && d->kind == TOMP_WS_SECTIONS ? ompt_cancel_sections : ompt_cancel_loop;
    break;
  }
  }
  tomp_ev_cancel_(thr, flags);
  tomp_task_t *t = thr->task;
  if (kind != TOMP_CK_WS && t && (t->flags & TOMP_TASK_EXPLICIT))
    t->flags |= TOMP_TASK_CANCELLED_END;
}

static inline void ompt_cancel(tomp_thread_t *thr, int kind, bool activated) {
  if (tomp_listening()) ompt_cancel_(thr, kind, activated);
}

/* The descriptor only carries the construct's kind and its cancellation: the compiled code
 * takes no chunk from it.  Every thread enters it (a worksharing construct is encountered by
 * all threads of the team), so the ring positions stay those of the other constructs. */
void tomp_ws_static_enter(tomp_thread_t *thr, int kind, uint64_t n) {
  bool first;
  tomp_ws_t *d = tomp_ws_enter(thr, &first);
  if (!first) return;
  d->kind = kind;
  d->sched = TOMP_WS_STATIC;
  d->n = n;
  d->compiled = true;
  tomp_ws_publish(d);
}

void tomp_ws_static_leave(tomp_thread_t *thr) {
  const tomp_ws_t *d = thr->ws_cur;
  if (d && d->compiled) tomp_ws_leave(thr);
}

bool tomp_cancel_activate(tomp_thread_t *thr, int kind) {
  if (!tomp_g.cancellation) return false;
  tomp_team_t *team = thr->team;
  switch (kind) {
  case TOMP_CK_PARALLEL:
    if (team) {
      __atomic_fetch_or(&team->cancelled, TOMP_CANCEL_PARALLEL, __ATOMIC_SEQ_CST);
      tomp_barrier_cancel(team);
      tomp_team_ws_cancel(team);
    }
    break;
  case TOMP_CK_WS:
    /* No current construct: a static loop gcc inlined, first of its region (later ones find
     * the ring slot of the construct before, as every thread does: tomp_ws_cur).  The team
     * holds the request until the construct's barrier releases (barrier.c). */
    if (!tomp_ws_cancel(thr) && team)
      __atomic_fetch_or(&team->cancelled, TOMP_CANCEL_WS, __ATOMIC_SEQ_CST);
    break;
  case TOMP_CK_TASKGROUP: {
    tomp_taskgroup_t *tg = tomp_taskgroup_cancel_target(thr->task);
    if (tg) tomp_store_rel(&tg->cancelled, 1);
    break;
  }
  default:
    return false;
  }
  ompt_cancel(thr, kind, true);
  return true;
}

bool tomp_cancel_point(tomp_thread_t *thr, int kind) {
  if (!tomp_g.cancellation) return false;
  tomp_team_t *team = thr->team;
  bool hit = false;
  switch (kind) {
  case TOMP_CK_WS:
    hit = tomp_ws_cancel_point(thr);
    break;
  case TOMP_CK_TASKGROUP: {
    tomp_taskgroup_t *tg = tomp_taskgroup_cancel_target(thr->task);
    if (tg && tomp_load_acq(&tg->cancelled)) {
      hit = true;
      break;
    }
    /* cancelling the parallel region also cancels its explicit tasks */
    __attribute__((fallthrough));
  }
  case TOMP_CK_PARALLEL:
    hit = team && (tomp_load_acq(&team->cancelled) & TOMP_CANCEL_PARALLEL);
    break;
  default:
    break;
  }
  if (hit) ompt_cancel(thr, kind, false);
  return hit;
}
