/* The taskloop construct, for every front-end: the chunks, their tasks and the implicit
 * taskgroup.  The front-end decodes its entry point's arguments into a tomp_taskloop_t and
 * writes each chunk's argument area (its bounds live where its compiler put them). */
#include <string.h>

#include "task.h"
#include "internal.h"

/* How many tasks, and how many iterations each: base, and one more for the first extra
 * tasks.  grainsize(g) gives between g and 2g-1 iterations per task (exactly g except the
 * last with the strict modifier), num_tasks(k) min(k, iterations) tasks, and neither clause
 * one task per thread of the team. */
static inline uint64_t chunking(const tomp_taskloop_t *tl, tomp_thread_t *thr, uint64_t *base,
                                uint64_t *extra) {
  uint64_t n = tl->n, ntasks;
  if (tl->sched == TOMP_TL_GRAINSIZE && tl->strict) {
    uint64_t g = tl->value ? tl->value : 1;
    *base = g;
    *extra = 0;
    return n / g + (n % g != 0);
  }
  if (tl->sched == TOMP_TL_GRAINSIZE) {
    uint64_t g = tl->value ? tl->value : 1;
    ntasks = n / g ? n / g : 1;
  } else {
    ntasks = tl->sched == TOMP_TL_NUM_TASKS && tl->value ? tl->value
             : thr->team                                 ? thr->team->nthreads
                                                         : 1;
  }
  if (ntasks > n) ntasks = n;
  *base = ntasks ? n / ntasks : 0;
  *extra = ntasks ? n % ntasks : 0;
  return ntasks;
}

/* A chunk run at once without a tool (a team of one, if(0), a final task, a long queue):
 * its argument area is on this stack for the task's whole life, so no block is allocated
 * and no submit decides what is already decided. */
#define AT_ONCE_ARGS 1024
#define AT_ONCE_ALIGN 64
static void __attribute__((noinline))
chunk_at_once(tomp_thread_t *thr, const tomp_taskloop_t *tl, tomp_taskloop_chunk_t *c,
              const tomp_task_spec_t *s) {
  char buf[AT_ONCE_ARGS] __attribute__((aligned(AT_ONCE_ALIGN)));
  if (tl->data) memcpy(buf, tl->data, s->arg_size);
  tl->fill(buf, c);
  tomp_task_undeferred_quiet(thr, s->fn, buf, s->arg_size, s->flags);
}

/* One chunk's task: without a tool or cancellation, tomp_task_defer's short path for a task
 * that does not run at once and chunk_at_once for a small one that does; else the general
 * allocate and submit. */
static inline __attribute__((always_inline)) void
chunk_task(tomp_thread_t *thr, const tomp_taskloop_t *tl, tomp_taskloop_chunk_t *c,
           const tomp_task_spec_t *s, bool quick) {
  if (quick) {
    if (!tomp_task_runs_at_once(thr, s->flags)) {
      tomp_task_defer(thr, s->fn, (void *)tl->data, s->arg_size, s->arg_align,
                      s->flags & (TOMP_TF_UNTIED | TOMP_TF_FINAL | TOMP_TF_MERGEABLE), s->priority,
                      tl->fill, c);
      return;
    }
    if (s->arg_size <= AT_ONCE_ARGS && s->arg_align <= AT_ONCE_ALIGN) {
      chunk_at_once(thr, tl, c, s);
      return;
    }
  }
  tomp_task_create(thr, s, NULL); /* s fills the area from tl and c (taskloop_body) */
}

/* Compiled twice (tomp_taskloop below): `observed` is a constant in each copy. */
static inline __attribute__((always_inline)) void
taskloop_body(tomp_thread_t *thr, const tomp_taskloop_t *tl, const bool observed) {
  if (tomp_unlikely(tomp_g.cancellation) && tomp_cancel_point(thr, TOMP_CK_TASKGROUP)) return;
  /* OMPT: the construct runs "as if enclosed in a taskgroup" (OpenMP 5.2 taskloop), so the
   * taskgroup region encloses the taskloop's work region: taskgroup begin, work begin, the
   * tasks, work end, then the taskgroup's wait and end (as libomp reports it). */
  if (!tl->nogroup) {
    tomp_taskgroup_begin(thr);
    if (tl->reduction) tomp_task_reduction_register(thr, tl->reduction);
  }
  /* tested once: a tool without the work or dispatch callback pays no call per chunk */
  bool ev_work = observed && TOMP_EV_WANTED(TOMP_EV_WORK);
  bool ev_chunk = observed && TOMP_EV_WANTED(TOMP_EV_DISPATCH);
  if (ev_work) tomp_ev_work_(thr, ompt_work_taskloop, ompt_scope_begin, tl->n);

  uint64_t base, extra, ntasks = chunking(tl, thr, &base, &extra);
  tomp_task_spec_t s = {0};
  s.fn = tl->fn;
  s.arg_size = tl->arg_size;
  s.arg_align = tl->arg_align;
  s.flags = tl->flags;
  s.priority = tl->priority;
  s.must_run = tl->must_run;
  tomp_taskloop_chunk_t c = {.loop = tl};
  bool quick = !tl->no_short_path && !observed && !tomp_g.cancellation;
  if (!quick) {
    s.copy_from = tl->data;
    s.fill = tl->fill;
    s.fill_ctx = &c;
  }
  uint64_t done = 0;
  for (uint64_t i = 0; i < ntasks; i++) {
    uint64_t cnt = base + (i < extra);
    if (done + cnt > tl->n) cnt = tl->n - done;
    c.start = tl->start + done * tl->step;
    done += cnt;
    /* the chunk's own end, not the loop's: with unsigned counters, overshooting the loop's
     * end would wrap */
    c.end = tl->start + done * tl->step;
    c.count = cnt;
    c.last = i + 1 == ntasks;
    if (ev_chunk) {
      /* task_create reports it as a taskloop_chunk dispatch of the new task */
      thr->ev_chunk[0] = c.start;
      thr->ev_chunk[1] = cnt;
      thr->ev_chunk_pending = true;
    }
    chunk_task(thr, tl, &c, &s, quick);
  }
  if (ev_work) tomp_ev_work_(thr, ompt_work_taskloop, ompt_scope_end, tl->n);
  if (!tl->nogroup) tomp_taskgroup_end(thr);
}

static void __attribute__((noinline))
taskloop_observed(tomp_thread_t *thr, const tomp_taskloop_t *tl) {
  taskloop_body(thr, tl, true);
}

/* Out of line too, so that tomp_taskloop is only the test: the observed copy does not pay
 * this one's frame. */
static void __attribute__((noinline))
taskloop_quiet(tomp_thread_t *thr, const tomp_taskloop_t *tl) {
  taskloop_body(thr, tl, false);
}

void tomp_taskloop(tomp_thread_t *thr, const tomp_taskloop_t *tl) {
  if (tomp_listening())
    taskloop_observed(thr, tl);
  else
    taskloop_quiet(thr, tl);
}
