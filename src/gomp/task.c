/* GOMP tasking entry points: GOMP_task, taskwait, taskyield, taskgroups (task reductions are
 * task_reduction.c's). */
#include <stdlib.h>
#include <string.h>

#include "gomp.h"
#include "omp.h"
#include "task.h"
#include "internal.h"

#define STACK_DEPS 16

/* The core's kind of a GCC depend object's kind. */
static int depobj_kind(void **obj) {
  uintptr_t k = (uintptr_t)obj[1];
  switch (k) {
  case GOMP_DEPEND_IN:
    return TOMP_DEP_IN;
  case GOMP_DEPEND_OUT:
    return TOMP_DEP_OUT;
  case GOMP_DEPEND_INOUT:
    return TOMP_DEP_INOUT;
  case GOMP_DEPEND_MUTEXINOUTSET:
    return TOMP_DEP_MUTEXINOUTSET;
  case GOMP_DEPEND_INOUTSET:
    return TOMP_DEP_INOUTSET;
  }
  tomp_warn("depend(depobj): the depend object at %p is not initialised (kind %lu); "
            "treating it as inout",
            (void *)obj, (unsigned long)k);
  return TOMP_DEP_INOUT;
}

/* GCC's depend arrays: [n, nout, addr...] (out/inout first, then in), or, when the first
 * word is 0, [0, n, nout, nmutexinoutset, nin, addr...] followed by the depobj entries,
 * each pointing to an omp_depend_t {address, kind}.  Returns the number of dependences;
 * *out is buf or a heap array the caller frees.  gcc puts out and inout in one class, so
 * both are inout here (the same ordering; and what a tool is told: inout is the superset a
 * tool can treat safely, and LLVM's libomp reports gcc's class so too).  gcc 13 and later
 * spell omp_all_memory (allowed with out and inout only) as a NULL address in that class,
 * or in a depend object of kind out or inout: core's all-memory kind, inout for the same
 * reason. */
static inline __attribute__((always_inline)) size_t parse_depend(void **depend, tomp_depend_t *buf,
                                                                 tomp_depend_t **out) {
  size_t n, nout, nmutex = 0, nin;
  void **a;
  if ((uintptr_t)depend[0]) {
    n = (uintptr_t)depend[0];
    nout = (uintptr_t)depend[1];
    nin = n - nout;
    a = depend + 2;
  } else {
    n = (uintptr_t)depend[1];
    nout = (uintptr_t)depend[2];
    nmutex = (uintptr_t)depend[3];
    nin = (uintptr_t)depend[4];
    a = depend + 5;
  }
  tomp_depend_t *d = n <= STACK_DEPS ? buf : tomp_malloc(n * sizeof *d);
  for (size_t i = 0; i < n; i++) {
    if (i < nout) {
      d[i].addr = a[i];
      d[i].kind = a[i] ? TOMP_DEP_INOUT : TOMP_DEP_INOUT_ALL;
    } else if (i < nout + nmutex) {
      d[i].addr = a[i];
      d[i].kind = TOMP_DEP_MUTEXINOUTSET;
    } else if (i < nout + nmutex + nin) {
      d[i].addr = a[i];
      d[i].kind = TOMP_DEP_IN;
    } else {
      void **obj = a[i];
      d[i].addr = obj[0];
      d[i].kind = depobj_kind(obj);
      if (!obj[0] && (d[i].kind == TOMP_DEP_OUT || d[i].kind == TOMP_DEP_INOUT))
        d[i].kind = TOMP_DEP_INOUT_ALL;
    }
  }
  *out = d;
  return n;
}

static inline int task_priority(int priority) {
  int max = tomp_g.max_task_priority;
  return priority < 0 ? 0 : priority > max ? max : priority;
}

/* GOMP_task's general path: create the task (its argument block a copy of data, unless it
 * runs on data in place); with detach, allocate it, put the event handle where the body
 * reads it, copy the block, then submit. */
static void create(tomp_thread_t *thr, void (*fn)(void *), void *data,
                   void (*cpyfn)(void *, void *), long arg_size, long arg_align, unsigned tf,
                   unsigned flags, void **depend, int priority, void *detach) {
  tomp_depend_t buf[STACK_DEPS], *d = NULL;
  size_t nd = 0;
  if ((flags & GOMP_TASK_FLAG_DEPEND) && depend) nd = parse_depend(depend, buf, &d);
  tomp_task_spec_t s = {0};
  s.fn = fn;
  s.arg_size = arg_size > 0 ? (size_t)arg_size : 0;
  s.arg_align = arg_align > 0 ? (size_t)arg_align : 1;
  s.in_place = cpyfn ? NULL : data;
  s.flags = tf;
  if (flags & GOMP_TASK_FLAG_PRIORITY) s.priority = task_priority(priority);
  s.detach = (flags & GOMP_TASK_FLAG_DETACH) != 0;
  s.ndeps = nd;
  s.must_run = cpyfn != NULL; /* C++ objects the body destroys */
  if (!s.detach) {
    s.copy_from = data;
    s.cpyfn = cpyfn;
    tomp_task_create(thr, &s, d);
    if (d && d != buf) free(d);
    return;
  }
  void *args;
  tomp_task_t *t = tomp_task_alloc(thr, &s, &args);
  /* The body reads its event from the argument block, where gcc puts it first and fills it
   * before the call: the handle is stored there before the block is copied (or, for a
   * task run in place, before it runs). */
  if (s.detach) {
    *(void **)detach = t;
    if (s.arg_size >= sizeof(void *)) *(void **)data = t;
  }
  if (args != data && s.arg_size) {
    if (cpyfn)
      cpyfn(args, data);
    else
      memcpy(args, data, s.arg_size);
  }
  tomp_task_submit(thr, t, d, nd);
  if (d && d != buf) free(d);
}

/* GOMP_task comes in two copies, the locks' TOMP_OBSERVED_PATH split: with a tool attached the
 * entry guard opens and the events are emitted (task_observed); without one a task run at once
 * goes through a no-tool copy of the undeferred path (the tiny task, else task_quiet). */
static inline __attribute__((always_inline)) void
task_entry(tomp_thread_t *thr, void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
           long arg_size, long arg_align, bool if_clause, unsigned flags, void **depend,
           int priority, void *detach, const bool observed) {
  /* no new tasks once the region or the taskgroup is cancelled */
  if (tomp_unlikely(tomp_g.cancellation) && tomp_cancel_point(thr, TOMP_CK_TASKGROUP)) return;
  unsigned tf = (if_clause ? 0 : TOMP_TF_UNDEFERRED) |
                ((flags & GOMP_TASK_FLAG_UNTIED) ? TOMP_TF_UNTIED : 0) |
                ((flags & GOMP_TASK_FLAG_FINAL) ? TOMP_TF_FINAL : 0) |
                ((flags & GOMP_TASK_FLAG_MERGEABLE) ? TOMP_TF_MERGEABLE : 0);
  /* the cheap tests first: a tool shown the dependences sends the task to create at once */
  if (!cpyfn && !(flags & GOMP_TASK_FLAG_DETACH) &&
      (!(flags & GOMP_TASK_FLAG_DEPEND) ||
       (!(observed &&
          (TOMP_EV_WANTED(TOMP_EV_DEPENDENCES) || TOMP_EV_WANTED(TOMP_EV_TASK_DEPENDENCE))) &&
        tomp_task_deps_met(thr))) &&
      tomp_task_runs_at_once(thr, tf)) {
    size_t sz = arg_size > 0 ? (size_t)arg_size : 0;
    if (observed)
      tomp_task_undeferred(thr, fn, data, sz, tf);
    else
      tomp_task_undeferred_quiet(thr, fn, data, sz, tf);
    return;
  }
  if (observed && !cpyfn && !(flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH))) {
    /* the tool path's common task, deferred (tomp_task_runs_at_once said no above) */
    tomp_task_defer_observed(thr, fn, data, arg_size > 0 ? (size_t)arg_size : 0,
                             arg_align > 0 ? (size_t)arg_align : 1, tf,
                             (flags & GOMP_TASK_FLAG_PRIORITY) ? task_priority(priority) : 0);
    return;
  }
  create(thr, fn, data, cpyfn, arg_size, arg_align, tf, flags, depend, priority, detach);
}

static TOMP_OBSERVED_TWIN void task_observed(const void *ra, void *fp, void (*fn)(void *), void *data,
                                     void (*cpyfn)(void *, void *), long arg_size,
                                     long arg_align, bool if_clause, unsigned flags,
                                     void **depend, int priority, void *detach) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  task_entry(thr, fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,
             detach, true);
}

/* The general no-tool path, out of line: its frame (the dependence buffer, the spec) is
 * not built for the tiny task. */
static __attribute__((noinline)) void
task_quiet(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
            long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
            void *detach) {
  tomp_thread_t *thr = tomp_thread();
  task_entry(thr, fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,
             detach, false);
}

_Static_assert(GOMP_TASK_FLAG_UNTIED == TOMP_TF_UNTIED && GOMP_TASK_FLAG_FINAL == TOMP_TF_FINAL &&
                   GOMP_TASK_FLAG_MERGEABLE == TOMP_TF_MERGEABLE,
               "tomp_task_tiny takes GCC's low task flags as they are");

TOMP_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach) {
  /* No tool, no copy function, dependences or event, cancellation off: the tiny task
   * (tomp_task_tiny) when it runs at once, else tomp_task_defer.  One test of the flags word
   * covers the clauses, one of both global words the rest.  A thread tomp does not know yet
   * takes the general path. */
  tomp_thread_t *thr = tomp_self;
  if (tomp_likely(thr && !cpyfn && !(flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH)) &&
                  !(TOMP_LISTENING() | tomp_g.cancellation))) {
    size_t sz = arg_size > 0 ? (size_t)arg_size : 0;
    unsigned tf = flags & (GOMP_TASK_FLAG_UNTIED | GOMP_TASK_FLAG_FINAL | GOMP_TASK_FLAG_MERGEABLE);
    if (tomp_task_runs_at_once(thr, if_clause ? 0 : TOMP_TF_UNDEFERRED)) {
      tomp_task_tiny(thr, fn, data, sz, tf);
      return;
    }
    /* out of line: the clock calls stay out of GOMP_task's own code */
    tomp_task_defer_or_short(thr, fn, data, sz, arg_align > 0 ? (size_t)arg_align : 1, tf,
                             (flags & GOMP_TASK_FLAG_PRIORITY) ? task_priority(priority) : 0);
    return;
  }
  TOMP_OBSERVED_PATH(task_observed, fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                 priority, detach);
  task_quiet(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
}

static TOMP_OBSERVED_TWIN void taskwait_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_taskwait(thr);
}

TOMP_EXPORT void GOMP_taskwait(void) {
  TOMP_OBSERVED_PATH_THR(thr, taskwait_observed);
  tomp_taskwait_quiet(thr);
}

TOMP_EXPORT void GOMP_taskwait_depend(void **depend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!depend) return;
  tomp_depend_t buf[STACK_DEPS], *d;
  size_t n = parse_depend(depend, buf, &d);
  tomp_taskwait_deps(thr, d, n);
  if (d != buf) free(d);
}

TOMP_EXPORT void GOMP_taskyield(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskyield(thr);
}

TOMP_EXPORT void GOMP_taskgroup_start(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskgroup_begin(thr);
}

TOMP_EXPORT void GOMP_taskgroup_end(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskgroup_end(thr);
}
