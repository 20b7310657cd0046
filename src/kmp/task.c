/* Explicit tasks of LLVM's ABI: __kmpc_omp_task_alloc then __kmpc_omp_task (or the if(0)
 * pair around a body the compiled code calls itself), taskwait, taskyield, detach.  The
 * layout of a task's area is ktask.h's.
 *
 * Untied tasks.  clang splits an untied task's body at its task scheduling points: there it
 * stores the next part's number in part_id, calls __kmpc_omp_task on the running task itself
 * and returns; the runtime runs the routine again, which continues at that part.  tomp
 * schedules untied tasks as tied ones (OpenMP 5.2, 12.1: any task may be resumed by the
 * thread that suspended it), so it runs the next part at once: the call only sets a flag and
 * whoever ran the routine (tomp_kmp_task_run, or for an if(0) task the __kmpc_omp_task call
 * itself) calls it again, in a loop rather than recursively. */
#include <stddef.h>
#include <string.h>

#include "ktask.h"
#include "runner.h"

/* the routine, again as long as an untied body queues itself.  While a tool listens, a task
 * core runs (exit) gets this frame as its exit frame, the one that calls the compiled code
 * (as the invoker's for a region: invoke.c); never a tail call (the loop).  An if(0) task's
 * keeps the one begin_if0 set (complete_if0 reads it). */
static void run_parts(tomp_kmp_thdr_t *h, kmp_task_t *t, kmp_int32 gtid, bool exit) {
  h->looping = 1;
  if (exit && tomp_listening()) {
    tomp_task_t *ct = tomp_self->task;
    if (ct) ct->frame.exit_frame.ptr = __builtin_frame_address(0);
  }
  do {
    h->again = 0;
    t->routine(gtid, t);
  } while (h->again);
}

void tomp_kmp_task_run(void *area) {
  tomp_kmp_thdr_t *h = area;
  kmp_task_t *t = tomp_kmp_task_of(h);
  kmp_int32 gtid = tomp_kmp_gtid();
  run_parts(h, t, gtid, true);
  if (h->kflags & KMP_TASK_DESTRUCTORS) t->data1.destructors(gtid, t);
}
/* a debugger shows the task routine, not tomp_kmp_task_run, as the task's function (the
 * area starts with the header, then the kmp_task_t: tomp_kmp_task_of) */
TOMP_RUNNER(tomp_kmp_task_run, sizeof(tomp_kmp_thdr_t) + offsetof(kmp_task_t, routine));

static inline size_t round_up(size_t n, size_t a) {
  return (n + a - 1) & ~(a - 1);
}

/* The routine of a task allocated without one: Intel's compilers lower `taskwait depend(...)
 * nowait` to such a task with the dependences (LLVM's kmp_taskwait_nowait.c); libomp runs it
 * as an empty task. */
static kmp_int32 empty_routine(kmp_int32 gtid, void *task) {
  (void)gtid, (void)task;
  return 0;
}

static kmp_task_t *task_alloc(tomp_thread_t *thr, kmp_int32 flags, size_t sizeof_kmp_task_t,
                              size_t sizeof_shareds, kmp_routine_entry_t entry) {
  /* A caller's kmp_task_t may end before data1/data2 (LLVM's tests declare one of 32 bytes, or
   * 28 for an i386 layout; libomp takes any size): the area always holds the whole header,
   * whose data fields the runtime reads only when the flags say they are there. */
  if (sizeof_kmp_task_t < sizeof(kmp_task_t)) sizeof_kmp_task_t = sizeof(kmp_task_t);
  size_t soff = sizeof(tomp_kmp_thdr_t) + round_up(sizeof_kmp_task_t, sizeof(void *));
  size_t total = soff + sizeof_shareds;
  if (total > UINT32_MAX)
    tomp_fatal("__kmpc_omp_task_alloc: task size %zu with %zu bytes of shareds is not a task",
               sizeof_kmp_task_t, sizeof_shareds);
  tomp_kmp_thdr_t *h = NULL;
  if (tomp_likely(!(flags & (KMP_TASK_DETACHABLE | KMP_TASK_PROXY)) &&
                  !(TOMP_LISTENING() | tomp_g.cancellation)))
    h = tomp_kmp_stage_alloc(total);
  if (h) {
    h->core = NULL;
    h->proxy = NULL;
    h->staged = 1;
  }
  if (!h) {
    tomp_kmp_thdr_t hs = {.kflags = (uint32_t)flags, .size = (uint32_t)total};
    tomp_task_spec_t s = tomp_kmp_task_spec(&hs);
    void *area;
    tomp_task_t *ct = tomp_task_alloc(thr, &s, &area);
    h = area;
    h->core = ct;
    h->proxy = (flags & KMP_TASK_PROXY) ? ct : NULL;
    h->staged = 0;
  }
  h->kflags = (uint32_t)flags;
  h->size = (uint32_t)total;
  h->again = h->looping = 0;
  kmp_task_t *t = tomp_kmp_task_of(h);
  memset(t, 0, sizeof *t);
  t->shareds = sizeof_shareds ? (char *)h + soff : NULL;
  t->routine = entry ? entry : empty_routine; /* no code: a task only for its dependences */
  return t;
}

TOMP_EXPORT kmp_task_t *__kmpc_omp_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                              size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                              kmp_routine_entry_t task_entry) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return task_alloc(thr, flags, sizeof_kmp_task_t, sizeof_shareds, task_entry);
}

/* target nowait on the host: the target task is an ordinary task (no devices) */
TOMP_EXPORT kmp_task_t *__kmpc_omp_target_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                                     size_t sizeof_kmp_task_t,
                                                     size_t sizeof_shareds,
                                                     kmp_routine_entry_t task_entry,
                                                     kmp_int64 device_id) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return task_alloc(thr, flags, sizeof_kmp_task_t, sizeof_shareds, task_entry);
}

int tomp_kmp_task_priority(kmp_task_t *task) {
  if (!(tomp_kmp_thdr(task)->kflags & KMP_TASK_PRIORITY)) return 0;
  int p = task->data2.priority, max = tomp_g.max_task_priority;
  return p < 0 ? 0 : p > max ? max : p;
}

void tomp_kmp_task_discard(kmp_task_t *task) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  if (h->kflags & KMP_TASK_DESTRUCTORS) task->data1.destructors(tomp_kmp_gtid(), task);
  if (h->core)
    tomp_task_free_unsubmitted(h->core);
  else if (h->staged)
    tomp_kmp_stage_release(h);
}

/* The running untied task t queued itself again (see the top). */
static void requeue_self(tomp_kmp_thdr_t *h, kmp_task_t *t) {
  if (h->looping) {
    h->again = 1;
    return;
  }
  /* an if(0) task's body, called by the compiled code: run its remaining parts here */
  run_parts(h, t, tomp_kmp_gtid(), false);
  h->looping = 0;
}

void tomp_kmp_task_submit(tomp_thread_t *thr, kmp_task_t *task, const tomp_depend_t *deps,
                          size_t n) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  tomp_task_t *cur = thr->task;
  if ((cur->flags & TOMP_TASK_EXPLICIT) && cur->data == (void *)h) {
    requeue_self(h, task);
    return;
  }
  if (h->staged) {
    /* staged only without cancellation: nothing to discard */
    if (tomp_likely(n == 0) && tomp_kmp_stage_submit(thr, task, false)) return;
    task = tomp_kmp_task_unstage(thr, task, n);
    h = tomp_kmp_thdr(task);
  }
  tomp_task_t *ct = h->core;
  if (!ct) {
    tomp_warn("__kmpc_omp_task: %p is not a task from __kmpc_omp_task_alloc, or was submitted "
              "already; ignored",
              (void *)task);
    return;
  }
  /* no new tasks once the region or the taskgroup is cancelled */
  if (tomp_unlikely(tomp_g.cancellation) && tomp_cancel_point(thr, TOMP_CK_TASKGROUP)) {
    tomp_kmp_task_discard(task);
    return;
  }
  h->core = NULL;
  if (h->kflags & KMP_TASK_PRIORITY) ct->priority = tomp_kmp_task_priority(task);
  tomp_task_submit(thr, ct, deps, n);
}

TOMP_EXPORT kmp_int32 __kmpc_omp_task(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_kmp_task_submit(thr, new_task, NULL, 0);
  return 0; /* TASK_CURRENT_NOT_QUEUED: the caller goes on either way */
}

/* the older name of the same call (libomp keeps it) */
TOMP_EXPORT kmp_int32 __kmpc_omp_task_parts(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_kmp_task_submit(thr, new_task, NULL, 0);
  return 0;
}

static void proxy_completed(kmp_task_t *ptask) {
  tomp_kmp_thdr_t *h = ptask ? tomp_kmp_thdr(ptask) : NULL;
  if (!h || !h->proxy) {
    tomp_warn("__kmpc_proxy_task_completed: %p is not a proxy task; ignored", (void *)ptask);
    return;
  }
  tomp_task_fulfill(h->proxy);
}

TOMP_EXPORT void __kmpc_proxy_task_completed(kmp_int32 gtid, kmp_task_t *ptask) {
  proxy_completed(ptask);
}

/* from a thread outside the team ("out of order") */
TOMP_EXPORT void __kmpc_proxy_task_completed_ooo(kmp_task_t *ptask) {
  proxy_completed(ptask);
}

TOMP_EXPORT void __kmpc_omp_task_begin_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  if (h->staged) h->core = tomp_kmp_stage_included(thr, task);
  if (!h->core) {
    tomp_warn("__kmpc_omp_task_begin_if0: %p is not a task from __kmpc_omp_task_alloc; ignored",
              (void *)task);
    return;
  }
  /* The compiled code calls the body from the encountering task's own frame, right above
   * this entry point's: that boundary is, while the body runs, the encountering task's enter
   * frame (as for a task GOMP_task runs at once), which the entry guard must then leave set
   * (complete_if0 clears it).  The task's exit frame is the caller's own frame, the one that
   * calls the body, as libomp gives it (LLVM's tasks/serialized compares it with the body's
   * __builtin_frame_address(1)). */
  void *fp = TOMP_ENTRY_FRAME();
  tomp_task_begin_included(thr, h->core, tomp_listening() ? tomp_kmp_caller_frame() : fp,
                           &h->saved);
  if (tomp_entry_guard_.thr) {
    tomp_task_t *p = h->core->parent;
    p->frame.enter_frame_flags = ompt_frame_application | ompt_frame_framepointer;
    p->frame.enter_frame.ptr = fp;
    thr->codeptr = tomp_entry_guard_.codeptr;
    tomp_entry_guard_.thr = NULL;
  }
}

TOMP_EXPORT void __kmpc_omp_task_complete_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  tomp_task_t *ct = h->core;
  if (!ct || thr->task != ct) {
    tomp_warn("__kmpc_omp_task_complete_if0: %p is not the current if(0) task; ignored",
              (void *)task);
    return;
  }
  if (h->kflags & KMP_TASK_DESTRUCTORS) task->data1.destructors(gtid, task);
  tomp_included_t saved = h->saved;
  bool staged = h->staged;
  tomp_task_t *p = ct->parent;
  tomp_task_end_included(thr, ct, &saved);
  /* begin_if0's (only it marks an enter frame as the application's) */
  if (p->frame.enter_frame.ptr && (p->frame.enter_frame_flags & ompt_frame_application))
    p->frame.enter_frame.ptr = NULL;
  if (staged) tomp_kmp_stage_release(h); /* core ran the task on it in place */
}

TOMP_EXPORT kmp_int32 __kmpc_omp_taskwait(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskwait(thr);
  return 0;
}

TOMP_EXPORT kmp_int32 __kmpc_omp_taskyield(ident_t *loc, kmp_int32 gtid, int end_part) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskyield(thr);
  return 0;
}

TOMP_EXPORT kmp_int32 __kmpc_omp_reg_task_with_affinity(ident_t *loc, kmp_int32 gtid,
                                                        kmp_task_t *new_task, kmp_int32 naffins,
                                                        void *affin_list) {
  return 0; /* a hint (OpenMP 5.2, 12.5.1): tomp places tasks where threads are idle */
}

/* detach(event): the event handle (clang's omp_event_handle_t, a pointer-sized word) is core's
 * task, which omp_fulfill_event (src/api) hands back to core */
TOMP_EXPORT void *__kmpc_task_allow_completion_event(ident_t *loc, kmp_int32 gtid,
                                                     kmp_task_t *task) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  if (!h->core || !(h->kflags & KMP_TASK_DETACHABLE)) {
    tomp_warn("__kmpc_task_allow_completion_event: %p is not a detachable task being created; "
              "ignored",
              (void *)task);
    return NULL;
  }
  return h->core;
}
