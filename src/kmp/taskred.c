/* Task reductions of LLVM's ABI (taskgroup task_reduction, taskloop reduction, in_reduction,
 * reduction(task, ...) on parallel and worksharing constructs) on core's registrations
 * (tomp_redset_t, src/core/task_reduction.c).
 *
 * Unlike gcc's code, clang's leaves the private copies to the runtime: each item comes with
 * its initialiser, combiner and finaliser (kmp_taskred_input_t; the older kmp_task_red_input_t
 * has no original's address).  The front-end keeps one record per item (kred_item_t: the
 * shared item's address and its offset in a thread's block are the words core reads),
 * initialises every thread's copies right after core allocated them (libomp does so for all
 * items it does not allocate lazily; tomp allocates none lazily), and at the end of the
 * registering construct combines every thread's copy into the shared item and finalises it.
 *
 * With the task modifier every thread of the team registers its own items (the shared item is
 * that thread's private copy of the construct's reduction) on storage that all share: the
 * first thread allocates it and publishes its registration in team->task_red_first, the
 * others share it (tomp_ws_task_reduction_begin); the last thread to end combines every
 * copy into its own shared item, frees the storage and resets the team's words, and the
 * construct's own reduction then combines the threads' items as usual. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ktask.h"

typedef struct kred_item {
  uintptr_t shar; /* core reads: the shared item's address */
  uintptr_t off;  /* core reads: the private copy's offset in a thread's block */
  void *orig;
  size_t size;
  void *init, *fini, *comb;
  bool with_orig; /* init(priv, orig), else init(priv) */
} kred_item_t;

typedef struct kred {
  tomp_redset_t set; /* first: a registration of this front-end is a kred_t */
  unsigned nthreads; /* blocks allocated */
  size_t n;
  kred_item_t item[];
} kred_t;

#define ITEM_ALIGN TOMP_CACHELINE
#define BLOCK_ALIGN TOMP_CACHELINE

static kred_t *build(kmp_int32 num, const void *data, bool new_form) {
  size_t n = num > 0 ? (size_t)num : 0, off = 0;
  kred_t *r = tomp_calloc(1, sizeof *r + n * sizeof(kred_item_t));
  r->n = n;
  for (size_t i = 0; i < n; i++) {
    kred_item_t *it = &r->item[i];
    if (new_form) {
      const kmp_taskred_input_t *in = (const kmp_taskred_input_t *)data + i;
      it->shar = (uintptr_t)in->reduce_shar;
      it->orig = in->reduce_orig ? in->reduce_orig : in->reduce_shar;
      it->size = in->reduce_size;
      it->init = in->reduce_init;
      it->fini = in->reduce_fini;
      it->comb = in->reduce_comb;
      it->with_orig = true;
    } else {
      const kmp_task_red_input_t *in = (const kmp_task_red_input_t *)data + i;
      it->shar = (uintptr_t)in->reduce_shar;
      it->orig = in->reduce_shar;
      it->size = in->reduce_size;
      it->init = in->reduce_init;
      it->fini = in->reduce_fini;
      it->comb = in->reduce_comb;
    }
    /* Each copy gets whole cache lines, as in libomp: clang 14 passes an array section's
     * element size, not the section's, and its initialiser and combiner go over the whole
     * section, which then fits as long as it is no longer than a line (larger ones overrun
     * libomp's copies too). */
    it->off = off;
    off += ((it->size ? it->size : 1) + ITEM_ALIGN - 1) & ~(size_t)(ITEM_ALIGN - 1);
  }
  tomp_redset_t *s = &r->set;
  s->nitems = n;
  s->size = off ? off : ITEM_ALIGN;
  s->align = BLOCK_ALIGN;
  s->items = (const char *)r->item;
  s->stride = sizeof(kred_item_t);
  s->addr_off = offsetof(kred_item_t, shar);
  s->priv_off = offsetof(kred_item_t, off);
  s->init_off = offsetof(kred_item_t, init);
  s->combine_off = offsetof(kred_item_t, comb); /* also marks the registration as ours */
  return r;
}

static inline void *priv(const kred_t *r, unsigned j, const kred_item_t *it) {
  return r->set.base + j * r->set.size + it->off;
}

/* core zeroed the blocks: items without an initialiser start at zero, as in libomp */
static void init_privs(kred_t *r) {
  for (unsigned j = 0; j < r->nthreads; j++)
    for (size_t i = 0; i < r->n; i++) {
      kred_item_t *it = &r->item[i];
      if (!it->init) continue;
      if (it->with_orig)
        ((void (*)(void *, void *))it->init)(priv(r, j, it), it->orig);
      else
        ((void (*)(void *))it->init)(priv(r, j, it));
    }
}

/* every thread's copy into the shared items of r (whose storage is s's) */
static void combine(const kred_t *r, const kred_t *s) {
  for (size_t i = 0; i < r->n; i++) {
    const kred_item_t *it = &r->item[i];
    for (unsigned j = 0; j < s->nthreads; j++) {
      void *p = priv(s, j, &s->item[i]);
      if (it->comb) ((void (*)(void *, void *))it->comb)((void *)it->shar, p);
      if (it->fini) ((void (*)(void *))it->fini)(p);
    }
  }
}

static inline unsigned team_size(tomp_thread_t *thr) {
  return thr->team ? thr->team->nthreads : 1;
}

static void *taskred_init(tomp_thread_t *thr, kmp_int32 num, void *data, bool new_form) {
  kred_t *r = build(num, data, new_form);
  r->nthreads = team_size(thr);
  if (!tomp_task_reduction_register(thr, &r->set)) {
    free(r);
    return NULL;
  }
  init_privs(r);
  return r;
}

TOMP_EXPORT void *__kmpc_taskred_init(kmp_int32 gtid, kmp_int32 num, void *data) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return taskred_init(thr, num, data, true);
}

TOMP_EXPORT void *__kmpc_task_reduction_init(kmp_int32 gtid, kmp_int32 num, void *data) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return taskred_init(thr, num, data, false);
}

static inline bool ours(const tomp_redset_t *s) {
  return s->combine_off != TOMP_REDSET_NONE;
}

tomp_redset_t *tomp_kmp_taskred_own(tomp_taskgroup_t *tg) {
  tomp_redset_t *r = tg->reductions;
  const tomp_redset_t *stop = tg->prev ? tg->prev->reductions : NULL;
  return r != stop ? r : NULL;
}

void tomp_kmp_taskred_finish(tomp_thread_t *thr, tomp_redset_t *r, const tomp_redset_t *stop) {
  (void)thr;
  while (r && r != stop) {
    tomp_redset_t *outer = r->outer;
    if (ours(r)) {
      kred_t *k = (kred_t *)r;
      combine(k, k);
      tomp_task_reduction_unregister(r);
      free(k);
    }
    r = outer;
  }
}

/* ---- the task modifier ------------------------------------------------------------------ */

#define SLOT_BUSY ((void *)1)

static void *modifier_init(tomp_thread_t *thr, kmp_int32 is_ws, kmp_int32 num, void *data,
                           bool new_form) {
  tomp_team_t *team = thr->team;
  kred_t *r = build(num, data, new_form);
  r->nthreads = team_size(thr);
  if (!team || team->nthreads == 1) {
    tomp_ws_task_reduction_begin(thr, &r->set, NULL);
    init_privs(r);
    return r;
  }
  void *volatile *slot = &team->task_red_first[is_ws ? 1 : 0];
  void *cur = NULL;
  if (__atomic_compare_exchange_n(slot, &cur, SLOT_BUSY, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    tomp_ws_task_reduction_begin(thr, &r->set, NULL);
    init_privs(r);
    __atomic_store_n(slot, (void *)r, __ATOMIC_RELEASE);
    return r;
  }
  while ((cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE)) == SLOT_BUSY)
    tomp_cpu_relax();
  tomp_ws_task_reduction_begin(thr, &r->set, &((kred_t *)cur)->set);
  return r;
}

TOMP_EXPORT void *__kmpc_taskred_modifier_init(ident_t *loc, kmp_int32 gtid, kmp_int32 is_ws,
                                               kmp_int32 num, void *data) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return modifier_init(thr, is_ws, num, data, true);
}

TOMP_EXPORT void *__kmpc_task_reduction_modifier_init(ident_t *loc, kmp_int32 gtid, kmp_int32 is_ws,
                                                      kmp_int32 num, void *data) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return modifier_init(thr, is_ws, num, data, false);
}

TOMP_EXPORT void __kmpc_task_reduction_modifier_fini(ident_t *loc, kmp_int32 gtid,
                                                     kmp_int32 is_ws) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  if (!tg || !tg->workshare || !tg->reductions || !ours(tg->reductions)) {
    tomp_warn("__kmpc_task_reduction_modifier_fini without its modifier_init; ignored");
    return;
  }
  kred_t *r = (kred_t *)tg->reductions;
  tomp_taskgroup_end(thr);
  tomp_team_t *team = thr->team;
  if (!team || team->nthreads == 1) {
    combine(r, r);
    tomp_task_reduction_unregister(&r->set);
    free(r);
    return;
  }
  unsigned k = is_ws ? 1 : 0;
  kred_t *first = __atomic_load_n(&team->task_red_first[k], __ATOMIC_ACQUIRE);
  /* every thread's tasks are complete once all have ended their taskgroups */
  if (__atomic_add_fetch(&team->task_red_done[k], 1, __ATOMIC_ACQ_REL) != team->nthreads) {
    if (r != first) free(r); /* the first's registration stays for late modifier_inits */
    return;
  }
  combine(r, first);
  tomp_task_reduction_unregister(&first->set);
  if (first != r) free(first);
  free(r);
  __atomic_store_n(&team->task_red_done[k], 0, __ATOMIC_RELAXED);
  __atomic_store_n(&team->task_red_first[k], NULL, __ATOMIC_RELEASE);
}

/* in_reduction (and the bodies of taskloop reduction and task-modifier reductions): the
 * calling thread's copy of data, an item of a registration visible in the current taskgroup
 * or some thread's copy of one.  tg, the handle the registration returned, names the same
 * registration core finds. */
TOMP_EXPORT void *__kmpc_task_reduction_get_th_data(kmp_int32 gtid, void *tg, void *data) {
  tomp_thread_t *thr = tomp_thread();
  void *p = data;
  tomp_task_reduction_remap(thr, 1, &p, 0, NULL);
  return p;
}
