/* taskloop of LLVM's ABI on core's taskloop (src/core/taskloop.c).  The compiled code fills a
 * pattern task (__kmpc_omp_task_alloc, never submitted) whose privates hold the loop's
 * bounds: lb and ub point at them (inclusive bounds, 64 bits; st the stride).  Each chunk's
 * task starts as a copy of the pattern's area; the fill below points the copy's shareds at
 * its own, writes its bounds where lb and ub sit in the pattern, and calls the compiler's
 * task_dup (firstprivate copies, and the last chunk's lastprivate flag).  The pattern is
 * freed at the end, its privates' destructors run. */
#include "ktask.h"

typedef struct kloop {
  kmp_task_t *pattern;
  size_t lb_off, ub_off; /* from the kmp_task_t */
  kmp_int64 st;
  kmp_task_dup_t dup;
} kloop_t;

static void fill(void *area, void *chunk) {
  const tomp_taskloop_chunk_t *c = chunk;
  const kloop_t *k = c->loop->ctx;
  kmp_task_t *t = tomp_kmp_task_of(area), *p = k->pattern;
  tomp_kmp_task_relocate(area, tomp_kmp_thdr(p));
  kmp_uint64 lo = c->start;
  *(kmp_uint64 *)((char *)t + k->lb_off) = lo;
  *(kmp_uint64 *)((char *)t + k->ub_off) = lo + (c->count - 1) * (kmp_uint64)k->st;
  if (k->dup) k->dup(t, p, c->last);
}

static void taskloop(tomp_thread_t *thr, kmp_task_t *task, kmp_int32 if_val, kmp_uint64 *lb,
                     kmp_uint64 *ub, kmp_int64 st, kmp_int32 nogroup, kmp_int32 sched,
                     kmp_uint64 grainsize, bool strict, void *task_dup) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  if (!h->core && !h->staged) {
    tomp_warn("__kmpc_taskloop: %p is not a task from __kmpc_omp_task_alloc; ignored",
              (void *)task);
    return;
  }
  kmp_uint64 lo = *lb, hi = *ub, n;
  /* the trip count as libomp computes it (the compiled code tests for an empty loop) */
  if (st == 1)
    n = hi - lo + 1;
  else if (st < 0)
    n = (lo - hi) / (kmp_uint64)(-st) + 1;
  else if (st > 0)
    n = (hi - lo) / (kmp_uint64)st + 1;
  else
    n = 1;
  kloop_t k = {.pattern = task,
               .lb_off = (size_t)((char *)lb - (char *)task),
               .ub_off = (size_t)((char *)ub - (char *)task),
               .st = st,
               .dup = (kmp_task_dup_t)task_dup};
  tomp_taskloop_t tl = {0};
  tl.fn = tomp_kmp_task_run;
  tl.arg_size = h->size;
  tl.arg_align = _Alignof(tomp_kmp_thdr_t);
  tl.data = h;
  tl.fill = fill;
  tl.ctx = &k;
  tl.flags = ((h->kflags & KMP_TASK_TIED) ? 0 : TOMP_TF_UNTIED) |
             ((h->kflags & KMP_TASK_FINAL) ? TOMP_TF_FINAL : 0) | (if_val ? 0 : TOMP_TF_UNDEFERRED);
  tl.priority = tomp_kmp_task_priority(task);
  tl.start = lo;
  tl.step = (uint64_t)st;
  tl.n = n;
  tl.sched = sched == 1 ? TOMP_TL_GRAINSIZE : sched == 2 ? TOMP_TL_NUM_TASKS : TOMP_TL_DEFAULT;
  tl.value = grainsize;
  tl.strict = strict && sched == 1;
  tl.nogroup = nogroup != 0;
  tl.no_short_path = task_dup != NULL; /* task_dup is user code (copy constructors) */
  if (n) tomp_taskloop(thr, &tl);
  tomp_kmp_task_discard(task);
}

TOMP_EXPORT void __kmpc_taskloop(ident_t *loc, kmp_int32 gtid, kmp_task_t *task, kmp_int32 if_val,
                                 kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st, kmp_int32 nogroup,
                                 kmp_int32 sched, kmp_uint64 grainsize, void *task_dup) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  taskloop(thr, task, if_val, lb, ub, st, nogroup, sched, grainsize, false, task_dup);
}

/* modifier 1: grainsize(strict: g) (num_tasks(strict:) needs nothing more: the count is exact) */
TOMP_EXPORT void __kmpc_taskloop_5(ident_t *loc, kmp_int32 gtid, kmp_task_t *task, kmp_int32 if_val,
                                   kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st, kmp_int32 nogroup,
                                   kmp_int32 sched, kmp_uint64 grainsize, kmp_int32 modifier,
                                   void *task_dup) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  taskloop(thr, task, if_val, lb, ub, st, nogroup, sched, grainsize, modifier != 0, task_dup);
}
