/* GOMP_taskloop / GOMP_taskloop_ull: GCC's arguments decoded into core's taskloop
 * (src/core/taskloop.c), which cuts the loop into chunks and creates their tasks.
 *
 * Every chunk task gets its own copy of the argument block whose first two 8-byte slots
 * hold its chunk's start and end (what gcc's outlined body reads); with REDUCTION the third
 * slot is the task-reduction array, registered on the implicit taskgroup. */
#include <string.h>

#include "gomp.h"
#include "task.h"
#include "internal.h"

struct gomp_taskloop {
  void *data;
  void (*cpyfn)(void *, void *);
};

/* tomp_taskloop_t.fill: the chunk's bounds where gcc's body reads them (core copied the
 * block: tomp_taskloop_t.data) */
static void fill_bounds(void *args, void *chunk) {
  const tomp_taskloop_chunk_t *c = chunk;
  gomp_ull *a = args;
  a[0] = c->start;
  /* gcc's body is a do-while comparing against this exact end (not the loop's end) */
  a[1] = c->end;
}

/* the same with a copy function: the user's copy of gcc's block, then the bounds */
static void fill_chunk(void *args, void *chunk) {
  const tomp_taskloop_chunk_t *c = chunk;
  const tomp_taskloop_t *tl = c->loop;
  const struct gomp_taskloop *g = tl->ctx;
  g->cpyfn(args, g->data);
  gomp_ull *a = args;
  a[0] = c->start;
  /* gcc's body is a do-while comparing against this exact end (not the loop's end) */
  a[1] = c->end;
}

/* n iterations from start by step (two's complement, so also for negative long steps). */
static void run_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
                         int priority, gomp_ull start, gomp_ull step, gomp_ull n) {
  tomp_thread_t *thr = tomp_thread();
  struct gomp_taskloop g = {data, cpyfn};
  tomp_taskloop_t tl = {0};
  tl.fn = fn;
  tl.arg_size = arg_size > 0 ? (size_t)arg_size : 0;
  tl.arg_align = arg_align > 0 ? (size_t)arg_align : 1;
  tl.data = cpyfn ? NULL : data;
  tl.fill = cpyfn ? fill_chunk : fill_bounds;
  tl.ctx = &g;
  tl.flags = ((flags & GOMP_TASK_FLAG_IF) ? 0 : TOMP_TF_UNDEFERRED) |
             ((flags & GOMP_TASK_FLAG_UNTIED) ? TOMP_TF_UNTIED : 0) |
             ((flags & GOMP_TASK_FLAG_FINAL) ? TOMP_TF_FINAL : 0) |
             ((flags & GOMP_TASK_FLAG_MERGEABLE) ? TOMP_TF_MERGEABLE : 0);
  if (flags & GOMP_TASK_FLAG_PRIORITY) {
    int max = tomp_g.max_task_priority;
    tl.priority = priority < 0 ? 0 : priority > max ? max : priority;
  }
  tl.start = start;
  tl.step = step;
  tl.n = n;
  if (tl.arg_size < 2 * sizeof(gomp_ull)) {
    tomp_warn("GOMP_taskloop: argument block of %ld bytes cannot hold the loop bounds", arg_size);
    tl.n = 0;
  }
  tl.sched = (flags & GOMP_TASK_FLAG_GRAINSIZE) ? TOMP_TL_GRAINSIZE : TOMP_TL_NUM_TASKS;
  tl.value = num_tasks;
  tl.strict = (flags & GOMP_TASK_FLAG_STRICT) != 0;
  tl.nogroup = (flags & GOMP_TASK_FLAG_NOGROUP) != 0;
  tl.no_short_path = cpyfn != NULL;
  tl.must_run = cpyfn != NULL; /* C++ objects the body destroys */
  if ((flags & GOMP_TASK_FLAG_REDUCTION) && data)
    tl.reduction = tomp_gomp_redset(((uintptr_t **)data)[2]);
  tomp_taskloop(thr, &tl);
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
