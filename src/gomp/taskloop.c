/* GOMP_taskloop / GOMP_taskloop_ull.
 *
 * The iteration space [start, end) by step is cut into consecutive chunks, one task each.
 * Every task gets its own copy of the argument block whose first two 8-byte slots hold its
 * chunk's start and end (what gcc's outlined body reads); with REDUCTION the third slot is
 * the task-reduction array, registered on the implicit taskgroup.  Chunk sizes follow the
 * spec: grainsize(g) gives between g and 2g-1 iterations per task (exactly g except the
 * last with the strict modifier), num_tasks(k) gives min(k, iterations) tasks, and without
 * either clause one task per thread of the team. */
#include "gomp.h"
#include "task.h"
#include "internal.h"

struct bounds {
  gomp_ull start, end;
};

static void set_bounds(void *args, void *ctx) {
  struct bounds *b = ctx;
  gomp_ull *a = args;
  a[0] = b->start;
  a[1] = b->end;
}

/* Compiled twice (run_taskloop below): `ompt` is a constant in each copy. */
static inline __attribute__((always_inline)) void
taskloop_body(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
              long arg_align, unsigned flags, unsigned long num_tasks, int priority,
              gomp_ull start, gomp_ull step, gomp_ull n, const bool ompt) {
  tomp_thread_t *thr = tomp_thread();
  if (tomp_unlikely(tomp_g.cancellation) && tomp_cancel_point(thr, TOMP_CK_TASKGROUP)) return;
  bool group = !(flags & GOMP_TASK_FLAG_NOGROUP);
  /* OMPT: the construct runs "as if enclosed in a taskgroup" (OpenMP 5.2 taskloop), so the
   * taskgroup region encloses the taskloop's work region: taskgroup begin, work begin, the
   * tasks, work end, then the taskgroup's wait and end (as libomp reports it). */
  if (group) {
    tomp_taskgroup_begin(thr);
    if ((flags & GOMP_TASK_FLAG_REDUCTION) && data)
      tomp_task_reduction_register(thr, ((uintptr_t **)data)[2]);
  }
  if (ompt) tomp_ev_work_(thr, ompt_work_taskloop, ompt_scope_begin, n);

  gomp_ull ntasks, base, extra;
  if (flags & GOMP_TASK_FLAG_GRAINSIZE) {
    gomp_ull g = num_tasks ? num_tasks : 1;
    if (flags & GOMP_TASK_FLAG_STRICT) {
      ntasks = n / g + (n % g != 0);
      base = g;
      extra = 0;
    } else {
      ntasks = n / g ? n / g : 1;
      if (ntasks > n) ntasks = n;
      base = ntasks ? n / ntasks : 0;
      extra = ntasks ? n % ntasks : 0;
    }
  } else {
    ntasks = num_tasks ? num_tasks : (thr->team ? thr->team->nthreads : 1);
    if (ntasks > n) ntasks = n;
    base = ntasks ? n / ntasks : 0;
    extra = ntasks ? n % ntasks : 0;
  }

  tomp_task_spec_t s = {0};
  s.fn = fn;
  s.data = data;
  s.cpyfn = cpyfn;
  s.arg_size = arg_size > 0 ? (size_t)arg_size : 0;
  s.arg_align = arg_align > 0 ? (size_t)arg_align : 1;
  if (s.arg_size < 2 * sizeof(gomp_ull)) {
    tomp_warn("GOMP_taskloop: argument block of %ld bytes cannot hold the loop bounds", arg_size);
    n = 0;
    ntasks = 0;
  }
  s.flags = ((flags & GOMP_TASK_FLAG_IF) ? 0 : TOMP_TF_UNDEFERRED) |
            ((flags & GOMP_TASK_FLAG_UNTIED) ? TOMP_TF_UNTIED : 0) |
            ((flags & GOMP_TASK_FLAG_FINAL) ? TOMP_TF_FINAL : 0) |
            ((flags & GOMP_TASK_FLAG_MERGEABLE) ? TOMP_TF_MERGEABLE : 0);
  if (flags & GOMP_TASK_FLAG_PRIORITY) {
    int max = tomp_g.max_task_priority;
    s.priority = priority < 0 ? 0 : priority > max ? max : priority;
  }
  struct bounds b;
  s.fixup = set_bounds;
  s.fixup_ctx = &b;
  /* Without a tool, a copy function or cancellation, a deferred chunk takes the short path
   * GOMP_task's plain deferred tasks take (tomp_task_defer); one run at once (team of one,
   * a long queue, if(0), a final task) keeps the general path. */
  bool quick = !s.cpyfn && !ompt && !tomp_g.cancellation;
  unsigned qf = s.flags & (TOMP_TF_UNTIED | TOMP_TF_FINAL | TOMP_TF_MERGEABLE);
  gomp_ull done = 0;
  for (gomp_ull i = 0; i < ntasks; i++) {
    gomp_ull cnt = base + (i < extra);
    if (done + cnt > n) cnt = n - done;
    b.start = start + done * step;
    done += cnt;
    /* gcc's body is a do-while comparing against this exact end (not the loop's end):
     * with unsigned counters, overshooting the loop's end would wrap */
    b.end = start + done * step;
    if (ompt) {
      /* task_create reports it as a taskloop_chunk dispatch of the new task */
      thr->ev_chunk[0] = b.start;
      thr->ev_chunk[1] = cnt;
      thr->ev_chunk_pending = true;
    }
    if (quick && !tomp_task_runs_at_once(thr, s.flags))
      tomp_task_defer(thr, fn, data, s.arg_size, s.arg_align, qf, s.priority, set_bounds, &b);
    else
      tomp_task_create(thr, &s);
  }
  if (ompt) tomp_ev_work_(thr, ompt_work_taskloop, ompt_scope_end, n);
  if (group) tomp_taskgroup_end(thr);
}

static void __attribute__((noinline))
taskloop_tool(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
              long arg_align, unsigned flags, unsigned long num_tasks, int priority,
              gomp_ull start, gomp_ull step, gomp_ull n) {
  taskloop_body(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, step,
                n, true);
}

/* n iterations from start by step (two's complement, so also for negative long steps). */
static void run_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
                         int priority, gomp_ull start, gomp_ull step, gomp_ull n) {
  if (tomp_listening())
    taskloop_tool(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, step,
                  n);
  else
    taskloop_body(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, step,
                  n, false);
}

TOMP_EXPORT void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                               long arg_size, long arg_align, unsigned flags,
                               unsigned long num_tasks, int priority, long start, long end,
                               long step) {
  TOMP_ENTRY(tomp_thread());
  gomp_ull n = 0;
  if (step > 0 && start < end)
    n = ((gomp_ull)end - (gomp_ull)start + (gomp_ull)step - 1) / (gomp_ull)step;
  else if (step < 0 && start > end)
    n = ((gomp_ull)start - (gomp_ull)end + (gomp_ull)(-step) - 1) / (gomp_ull)(-step);
  else if (step == 0 && start != end)
    tomp_warn("GOMP_taskloop: zero step; no iterations run");
  run_taskloop(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, (gomp_ull)start,
               (gomp_ull)step, n);
}

TOMP_EXPORT void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                   long arg_size, long arg_align, unsigned flags,
                                   unsigned long num_tasks, int priority, gomp_ull start,
                                   gomp_ull end, gomp_ull step) {
  TOMP_ENTRY(tomp_thread());
  gomp_ull n = 0;
  if (flags & GOMP_TASK_FLAG_UP) {
    if (start < end && step) n = (end - start + step - 1) / step;
  } else {
    gomp_ull s = -step;
    if (start > end && s) n = (start - end + s - 1) / s;
  }
  run_taskloop(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, step, n);
}
