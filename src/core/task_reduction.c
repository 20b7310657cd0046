/* Task reductions (taskgroup task_reduction, reduction(task, ...) on parallel and
 * worksharing constructs, in_reduction on tasks), on core's ABI-neutral description of a
 * registration, tomp_redset_t (task.h).
 *
 * The runtime only provides zeroed storage and address translation: each set of a
 * registration gets one block of `size` bytes per thread of the team, and the front-end's
 * compiled code initialises the private copies lazily and combines them after the construct,
 * for thread numbers 0..nthreads-1.  The front-end owns the descriptors (it builds them from
 * its compiler's layout and frees them after unregistering); core owns the blocks.  Where the
 * compiled code reads the blocks' base from a layout of its own, the front-end names that word
 * in `base_out` and core stores the base there as soon as it exists, before any task of the
 * registration can run (gcc's taskloop bodies read it without calling the runtime).
 *
 * A taskgroup's `reductions` is the innermost registration visible in it; each registration
 * links its sets through `next` and the enclosing registration through `outer`. */
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

static inline uintptr_t item_word(const tomp_redset_t *s, size_t j, size_t off) {
  return *(const uintptr_t *)(s->items + j * s->stride + off);
}

/* Allocate (or, for a worksharing construct's later threads, share first's) storage for
 * every set of r's registration and link it in front of outer. */
static void reg(tomp_redset_t *r, tomp_redset_t *outer, const tomp_redset_t *first,
                unsigned nthreads) {
  for (tomp_redset_t *s = r; s; s = s->next) {
    if (first) {
      s->base = first->base;
      s->end = first->end;
      first = first->next;
    } else {
      size_t sz = s->size * nthreads;
      s->base = zalloc_aligned(s->align, sz);
      s->end = s->base + sz;
    }
    if (s->base_out) *s->base_out = (uintptr_t)s->base;
  }
  r->outer = outer;
}

bool tomp_task_reduction_register(tomp_thread_t *thr, tomp_redset_t *r) {
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  if (!tg) {
    tomp_warn("task reduction registered outside a taskgroup; ignored");
    return false;
  }
  ompt_reduction(thr, TOMP_EV_SCOPE_BEGIN);
  reg(r, tg->reductions, NULL, thr->team ? thr->team->nthreads : 1);
  tg->reductions = r;
  ompt_reduction(thr, TOMP_EV_SCOPE_END);
  return true;
}

void tomp_task_reduction_unregister(tomp_redset_t *r) {
  for (tomp_redset_t *s = r; s; s = s->next) {
    free(s->base);
    s->base = s->end = NULL;
  }
}

void tomp_parallel_reduction_register(tomp_redset_t *r, unsigned nthreads, tomp_taskgroup_t *tg) {
  reg(r, NULL, NULL, nthreads);
  tg->reductions = r;
}

void tomp_ws_task_reduction_begin(tomp_thread_t *thr, tomp_redset_t *r,
                                  const tomp_redset_t *first) {
  tomp_taskgroup_t *tg = tomp_taskgroup_begin(thr);
  tg->workshare = true;
  reg(r, tg->reductions, first, thr->team ? thr->team->nthreads : 1);
  tg->reductions = r;
}

tomp_redset_t *tomp_ws_task_reduction_end(tomp_thread_t *thr, bool cancelled) {
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  if (!tg || !tg->workshare) {
    tomp_warn("worksharing task reduction ended without being started; ignored");
    return NULL;
  }
  tomp_redset_t *r = tg->reductions;
  tomp_taskgroup_end(thr);
  /* every thread's sets share thread 0's storage (or the first thread's, the same) */
  if (!thr->team || thr->tid == 0) tomp_task_reduction_unregister(r);
  if (!cancelled && thr->team)
    tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
  return r;
}

/* p is an original list item (first search) or a pointer into some thread's private block
 * (second search, for a task that was handed a private copy). */
static inline __attribute__((always_inline)) void *remap_one(const tomp_redset_t *head,
                                                             uintptr_t id, void *p, void **orig) {
  uintptr_t a = (uintptr_t)p;
  for (const tomp_redset_t *r = head; r; r = r->outer)
    for (const tomp_redset_t *s = r; s; s = s->next) {
      const char *it = s->items;
      for (size_t j = 0; j < s->nitems; j++, it += s->stride)
        if (*(const uintptr_t *)(it + s->addr_off) == a) {
          if (orig) *orig = p;
          return s->base + id * s->size + *(const uintptr_t *)(it + s->priv_off);
        }
    }
  for (const tomp_redset_t *r = head; r; r = r->outer)
    for (const tomp_redset_t *s = r; s; s = s->next) {
      if ((char *)p < s->base || (char *)p >= s->end) continue;
      uintptr_t off = (uintptr_t)((char *)p - s->base) % s->size;
      if (orig) {
        *orig = NULL;
        for (size_t j = 0; j < s->nitems; j++)
          if (item_word(s, j, s->priv_off) == off) *orig = (void *)item_word(s, j, s->addr_off);
      }
      return s->base + id * s->size + off;
    }
  tomp_fatal("in_reduction: %p is not a reduction item of any enclosing taskgroup or "
             "reduction with the task modifier",
             p);
}

void tomp_task_reduction_remap(tomp_thread_t *thr, size_t n, void **ptrs, size_t norig,
                               void **origs) {
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  const tomp_redset_t *head = tg ? tg->reductions : NULL;
  uintptr_t id = thr->team ? thr->tid : 0;
  if (norig > n) norig = n;
  /* two loops, so that each inlined copy knows whether it reports the original */
  for (size_t i = 0; i < norig; i++)
    ptrs[i] = remap_one(head, id, ptrs[i], &origs[i]);
  for (size_t i = norig; i < n; i++)
    ptrs[i] = remap_one(head, id, ptrs[i], NULL);
}
