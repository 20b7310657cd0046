/* GCC's task reductions onto core's (src/core/task_reduction.c).
 *
 * gcc describes a registration in an array whose layout is libgomp's ABI:
 *   d[0] number of items, d[1] bytes of one thread's private block,
 *   d[2] alignment in, base of the nthreads private blocks out,
 *   d[3] allocator (-1: default), d[4] next array of the same registration (0 ends it),
 *   d[5], d[6] runtime use,
 *   then per item three words: address of the original, offset in a private block, runtime use.
 * gcc's code reads d[2] (directly, also in taskloop bodies that never call the runtime) and
 * nothing else the runtime writes; it remaps in_reduction items through
 * GOMP_task_reduction_remap and unregisters after combining.
 *
 * Each array gets one core descriptor (tomp_redset_t): the items are the array's triples,
 * d[2] is the descriptor's base_out, so core stores the base there as soon as the blocks
 * exist.  The descriptors of one registration are a single malloc'd block whose address is
 * kept in its first array's d[5] (and each array's d[5] points at its own descriptor), freed
 * by the unregister entry points; d[4] and d[6] are left as gcc wrote them (core links
 * registrations itself). */
#include <stdlib.h>

#include "gomp.h"
#include "task.h"
#include "internal.h"

tomp_redset_t *tomp_gomp_redset_new(uintptr_t *data) {
  size_t n = 1;
  for (uintptr_t *d = data; d[4]; d = (uintptr_t *)d[4])
    n++;
  tomp_redset_t *r = calloc(n, sizeof *r);
  if (!r) tomp_fatal("out of memory for task reductions");
  uintptr_t *d = data;
  for (size_t i = 0; i < n; i++, d = (uintptr_t *)d[4]) {
    tomp_redset_t *s = &r[i];
    s->nitems = d[0];
    s->size = d[1];
    s->align = d[2];
    s->items = (const char *)&d[7];
    s->stride = 3 * sizeof(uintptr_t);
    s->addr_off = 0;
    s->priv_off = sizeof(uintptr_t);
    s->init_off = s->combine_off = TOMP_REDSET_NONE;
    s->base_out = &d[2];
    s->next = i + 1 < n ? &r[i + 1] : NULL;
    d[5] = (uintptr_t)s;
  }
  return r;
}

TOMP_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t *data) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  /* not registered (outside a taskgroup: core warned): unregister frees the descriptor */
  tomp_task_reduction_register(thr, tomp_gomp_redset_new(data));
}

TOMP_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t *data) {
  TOMP_ENTRY(tomp_thread());
  tomp_redset_t *r = (tomp_redset_t *)data[5];
  tomp_task_reduction_unregister(r);
  free(r);
}

/* ptrs[0..cnt): original list items or pointers into a thread's private block, replaced by
 * the calling thread's private copies; for i < cntorig, ptrs[cnt + i] gets the original. */
TOMP_EXPORT void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_task_reduction_remap(thr, cnt, ptrs, cntorig, ptrs + cnt);
}

TOMP_EXPORT void GOMP_workshare_task_reduction_unregister(bool cancelled) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  free(tomp_ws_task_reduction_end(thr, cancelled));
}

/* parallel with reduction(task, ...): data's first word is the reductions array.  Every
 * implicit task starts inside one taskgroup that holds the registration; the caller
 * combines the nthreads private copies (we return nthreads) and unregisters. */
struct par_red {
  tomp_redset_t *r;
  tomp_taskgroup_t *tg;
};

static void par_red_prep(tomp_team_t *team, void *arg) {
  struct par_red *pr = arg;
  tomp_parallel_reduction_register(pr->r, team->nthreads, pr->tg);
  pr->tg->owner = &team->implicit[0];
  for (unsigned i = 0; i < team->nthreads; i++)
    team->implicit[i].taskgroup = pr->tg;
}

TOMP_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                              unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskgroup_t tg = {0};
  struct par_red pr = {tomp_gomp_redset_new(*(uintptr_t **)data), &tg};
  unsigned n = tomp_team_size(thr, num_threads, true);
  tomp_fork(fn, data, n, flags & GOMP_PARALLEL_BIND_MASK, par_red_prep, &pr);
  n = thr->team->nthreads;
  fn(data);
  tomp_join();
  return n;
}
