/* Task reductions (taskgroup task_reduction, reduction(task, ...) on parallel and
 * worksharing constructs, in_reduction on tasks).
 *
 * The compiler describes the reduction items in an array whose layout is libgomp's ABI:
 *   d[0] number of items, d[1] bytes of one thread's private block,
 *   d[2] alignment in, base of the nthreads private blocks out,
 *   d[3] allocator (-1: default), d[4] next array of the same registration (0 ends it; the
 *   runtime links the last one to the enclosing registration), d[5], d[6] runtime use,
 *   then per item: address of the original, offset in a private block, runtime use.
 * The runtime only provides zeroed storage and address translation; the compiler
 * initialises private copies lazily and combines them after the construct, for thread
 * numbers 0..nthreads-1.  Here d[5] marks the first array of a registration (so
 * unregistering knows where the enclosing one starts) and d[6] is the end of the storage. */
#include <stdlib.h>
#include <string.h>

#include "task.h"
#include "internal.h"

/* OMPT: the runtime's part of a task reduction (registration): ompt_callback_reduction */
static inline void ompt_reduction(tomp_thread_t *thr, int endpoint) {
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_REDUCTION))
    tomp_ev_reduction_(thr, (ompt_scope_endpoint_t)endpoint);
}

static void *zalloc_aligned(size_t align, size_t sz) {
  if (align < sizeof(void *)) align = sizeof(void *);
  if (align & (align - 1)) {
    tomp_warn("task reduction: alignment %zu is not a power of two; using %zu", align,
              (size_t)TOMP_CACHELINE);
    align = TOMP_CACHELINE;
  }
  void *p = NULL;
  if (posix_memalign(&p, align, sz ? sz : 1)) tomp_fatal("out of memory for task reductions");
  memset(p, 0, sz);
  return p;
}

/* Allocate (or, for a worksharing construct's later threads, share first's) storage for
 * every array of data's registration and link it in front of old. */
static void reg(uintptr_t *data, uintptr_t *old, uintptr_t *first, unsigned nthreads) {
  uintptr_t *d = data;
  for (;;) {
    if (first) {
      d[2] = first[2];
      d[6] = first[6];
      first = (uintptr_t *)first[4];
    } else {
      size_t sz = d[1] * nthreads;
      uintptr_t p = (uintptr_t)zalloc_aligned(d[2], sz);
      d[2] = p;
      d[6] = p + sz;
    }
    d[5] = 0;
    if (!d[4]) {
      d[4] = (uintptr_t)old;
      break;
    }
    d = (uintptr_t *)d[4];
  }
  data[5] = 1;
}

void tomp_task_reduction_register(tomp_thread_t *thr, uintptr_t *data) {
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  if (!tg) {
    tomp_warn("task reduction registered outside a taskgroup; ignored");
    return;
  }
  ompt_reduction(thr, TOMP_EV_SCOPE_BEGIN);
  reg(data, tg->reductions, NULL, thr->team ? thr->team->nthreads : 1);
  tg->reductions = data;
  ompt_reduction(thr, TOMP_EV_SCOPE_END);
}

void tomp_task_reduction_unregister(uintptr_t *data) {
  uintptr_t *d = data;
  do {
    free((void *)d[2]);
    d = (uintptr_t *)d[4];
  } while (d && !d[5]);
}

void tomp_parallel_reduction_register(uintptr_t *data, unsigned nthreads, tomp_taskgroup_t *tg) {
  reg(data, NULL, NULL, nthreads);
  tg->reductions = data;
}

void tomp_ws_task_reduction_begin(tomp_thread_t *thr, uintptr_t *reductions, uintptr_t *first) {
  tomp_taskgroup_t *tg = tomp_taskgroup_begin(thr);
  tg->workshare = true;
  reg(reductions, tg->reductions, first, thr->team ? thr->team->nthreads : 1);
  tg->reductions = reductions;
}

void tomp_ws_task_reduction_end(tomp_thread_t *thr, bool cancelled) {
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  if (!tg || !tg->workshare) {
    tomp_warn("worksharing task reduction ended without being started; ignored");
    return;
  }
  uintptr_t *data = tg->reductions;
  tomp_taskgroup_end(thr);
  /* every thread's array shares thread 0's storage (or the first thread's, the same) */
  if (!thr->team || thr->tid == 0) tomp_task_reduction_unregister(data);
  if (!cancelled && thr->team)
    tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
}

/* The private copy of the current thread for ptrs[i], which is an original list item or a
 * pointer into some thread's private block; for i < cntorig also the original's address. */
void tomp_task_reduction_remap(tomp_thread_t *thr, size_t cnt, size_t cntorig, void **ptrs) {
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  uintptr_t *data = tg ? tg->reductions : NULL;
  uintptr_t id = thr->team ? thr->tid : 0;
  for (size_t i = 0; i < cnt; i++) {
    uintptr_t p = (uintptr_t)ptrs[i];
    bool found = false;
    for (uintptr_t *d = data; d && !found; d = (uintptr_t *)d[4])
      for (uintptr_t j = 0; j < d[0]; j++)
        if (d[7 + 3 * j] == p) {
          ptrs[i] = (void *)(d[2] + id * d[1] + d[7 + 3 * j + 1]);
          if (i < cntorig) ptrs[cnt + i] = (void *)p;
          found = true;
          break;
        }
    for (uintptr_t *d = data; d && !found; d = (uintptr_t *)d[4]) {
      if (p < d[2] || p >= d[6]) continue;
      uintptr_t off = (p - d[2]) % d[1];
      ptrs[i] = (void *)(d[2] + id * d[1] + off);
      found = true;
      if (i < cntorig) {
        ptrs[cnt + i] = NULL;
        for (uintptr_t j = 0; j < d[0]; j++)
          if (d[7 + 3 * j + 1] == off) ptrs[cnt + i] = (void *)d[7 + 3 * j];
      }
    }
    if (!found)
      tomp_fatal("in_reduction: %p is not a reduction item of any enclosing taskgroup or "
                 "reduction with the task modifier",
                 (void *)p);
  }
}
