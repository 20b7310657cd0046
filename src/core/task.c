/* Explicit tasks: allocation, the ready lists, running, completion and waiting.
 * The design is described in task.h. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>


#include "count.h"
#include "runner.h"
#include "task.h"
#include "internal.h"

/* ---- OMPT event points (empty until the tools layer hooks them) ------------------------ */

static inline void ompt_task_create(tomp_thread_t *thr, tomp_task_t *parent, tomp_xtask_t *x,
                                    bool has_deps) {
  if (tomp_listening()) {
    /* the slot is tested here: a tool without task_create pays no call */
    if (TOMP_EV_WANTED(TOMP_EV_TASK_CREATE))
      tomp_ev_task_create_(thr, parent, &x->t, has_deps);
    else
      x->t.task_data.value = 0;
  }
}

/* prior_status is ompt_task_switch when a task starts on top of a suspended one, and
 * ompt_task_complete / ompt_task_detach / ompt_task_cancel when it ends. */
static inline void ompt_task_schedule(tomp_task_t *prior, int prior_status, tomp_task_t *next) {
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_TASK_SCHEDULE))
    tomp_ev_task_schedule_(prior, prior_status, next);
}

/* The status of a task's end: ompt_task_cancel for one that left its region at a cancel
 * or cancellation point of its taskgroup or region (OpenMP 5.2 ompt_task_status_t; LLVM's
 * cancel/cancel_taskgroup wants it), else ompt_task_complete. */
static inline int end_status(const tomp_task_t *t) {
  return (t->flags & TOMP_TASK_CANCELLED_END) ? TOMP_EV_TASK_CANCEL : TOMP_EV_TASK_COMPLETE;
}

/* sync_region and sync_region_wait of kind taskwait */
static inline void ompt_sync_taskwait(tomp_thread_t *thr, tomp_task_t *t, int endpoint) {
  (void)t;
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_SYNC))
    tomp_ev_sync_(thr, ompt_state_wait_taskwait, (ompt_scope_endpoint_t)endpoint);
}

static size_t pow2_at_least_(size_t a) {
  size_t p = 1;
  while (p < a) p <<= 1;
  return p;
}

/* ---- Allocation ------------------------------------------------------------------------ */

/* Blocks come from per-thread free lists by size class.  A block freed by another thread
 * (the usual case: one thread creates, others run) goes back to its allocating thread
 * through a lock-free stack per class that the owner empties in one exchange when its own
 * list runs dry, so a producer keeps recycling its blocks instead of calling malloc. */
#define CLS_BYTES TOMP_CLS_BYTES
#define NCLS TOMP_NCLS
/* Bytes of blocks a thread keeps per class when it frees its own.  Not a few hundred
 * blocks: in a recursive task program the blocks live at once follow the recursion's depth,
 * which swings by more than that (BOTS uts: every block beyond 256 went back to malloc and
 * came again, a third of the run at 1 and 2 threads); 1 MiB is 3,276 plain blocks. */
#define FREE_BYTES (1u << 20)

typedef tomp_task_ctx_t task_ctx_t;

/* May c keep one more block of class cls? */
static inline bool keep_free(const task_ctx_t *c, unsigned cls) {
  return c->nfree[cls] * cls < FREE_BYTES / CLS_BYTES;
}

static task_ctx_t *ctx_of(tomp_thread_t *thr) {
  task_ctx_t *c = thr->task_ctx;
  if (tomp_unlikely(!c)) {
    /* never freed: blocks of this thread may be on their way back to it */
    c = aligned_alloc(TOMP_CACHELINE, sizeof *c);
    if (!c) tomp_fatal("out of memory for task free lists");
    memset(c, 0, sizeof *c);
    thr->task_ctx = c;
  }
  return c;
}

/* Fields every path reads; list links are set on insertion and dependence nodes by
 * tomp_dep_register, the creator sets the rest. */
static inline __attribute__((always_inline)) void xtask_init(tomp_xtask_t *x, task_ctx_t *c,
                                                              size_t cls) {
  x->cls = (uint16_t)cls;
  x->owner = c;
  x->t.parent = NULL;
  x->t.team = NULL;
  x->t.flags = 0;
  x->t.thread_num = 0;
  x->t.frame.exit_frame.ptr = NULL;
  x->t.frame.enter_frame.ptr = NULL;
  x->t.frame.exit_frame_flags = 0;
  x->t.frame.enter_frame_flags = 0;
  x->t.task_data.value = 0;
  x->t.sched_parent = NULL; /* NULL at rest too: the tiny task (no tool) leaves it so */
  x->t.fn = NULL;
  x->t.data = NULL;
  x->t.children = 0;
  x->t.taskwait_word = 0;
  x->t.taskgroup = NULL;
  x->t.ext = &x->pinfo;
  x->t.priority = 0;
  x->t.in_final = 0;
  x->pinfo.waiting = 0;
  x->pinfo.deps = NULL;
  x->refs = 0;
  x->pending = 0;
  x->npred = 0;
  x->state = 0;
  x->done = 0;
  x->hold = 0;
  x->detached = 0;
  x->has_mutex = 0;
  x->pref = 0;
  x->must_run = 0;
  x->chunk_pending = 0;
  x->ndeps = 0;
  x->dep_room = 0;
  x->arg_size = 0;
  x->deps = (tomp_depnode_t *)(x + 1);
  x->succ = x->succ_inline;
  x->nsucc = 0;
  x->capsucc = sizeof x->succ_inline / sizeof x->succ_inline[0];
}

static inline uint32_t arg_size32(size_t n) { return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n; }

bool tomp_task_memory(const tomp_task_t *t, void **addr, size_t *size) {
  if (!t || !(t->flags & TOMP_TASK_EXPLICIT)) return false;
  const tomp_xtask_t *x = (const tomp_xtask_t *)t;
  if (!x->arg_size || !t->data) return false;
  *addr = t->data;
  *size = x->arg_size;
  return true;
}

/* One block: header, ndeps dependence nodes, the argument block at its alignment.  With
 * at_rest, a block from a free list is returned as it rests there (see tomp_task_tiny) and
 * *fresh says whether it was initialised instead. */
static inline __attribute__((always_inline)) tomp_xtask_t *
xtask_alloc_(tomp_thread_t *thr, size_t ndeps, size_t arg_size, size_t arg_align, void **args,
             const bool at_rest, bool *fresh) {
  size_t hdr = sizeof(tomp_xtask_t) + ndeps * sizeof(tomp_depnode_t);
  size_t off, total, cls;
  tomp_xtask_t *x;
  task_ctx_t *c = ctx_of(thr);
  size_t a = CLS_BYTES; /* block alignment */
  if (tomp_likely(arg_align <= CLS_BYTES)) {
    /* any power of two up to the class size: blocks are CLS_BYTES-aligned */
    size_t align = arg_align ? arg_align : 1;
    if (align & (align - 1)) align = CLS_BYTES;
    off = (hdr + align - 1) & ~(align - 1);
    total = off + arg_size;
    cls = (total + CLS_BYTES - 1) / CLS_BYTES;
  } else {
    a = pow2_at_least_(arg_align);
    off = (hdr + a - 1) & ~(a - 1);
    total = off + arg_size;
    cls = 0;
  }
  if (tomp_likely(cls && cls <= NCLS)) {
    x = c->free[cls];
    if (tomp_unlikely(!x) && tomp_load_rlx(&c->remote[cls]))
      x = __atomic_exchange_n(&c->remote[cls], NULL, __ATOMIC_ACQUIRE);
    if (tomp_likely(x != NULL)) {
      c->free[cls] = x->lq.next;
      if (c->nfree[cls]) c->nfree[cls]--;
      if (at_rest) {
        *fresh = false;
        *args = (char *)x + off;
        return x;
      }
    } else {
      x = aligned_alloc(CLS_BYTES, cls * CLS_BYTES);
    }
  } else {
    cls = 0;
    x = aligned_alloc(a, (total + a - 1) & ~(a - 1));
  }
  if (tomp_unlikely(!x)) tomp_fatal("out of memory for a task (%zu bytes)", total);
  xtask_init(x, c, cls);
  if (at_rest) *fresh = true;
  *args = (char *)x + off;
  return x;
}

static tomp_xtask_t *xtask_alloc(tomp_thread_t *thr, size_t ndeps, size_t arg_size,
                                 size_t arg_align, void **args) {
  return xtask_alloc_(thr, ndeps, arg_size, arg_align, args, false, NULL);
}

static void xtask_free_block(tomp_xtask_t *x) {
  if (tomp_unlikely(x->pinfo.deps != NULL)) tomp_dep_table_free(&x->pinfo);
  if (tomp_unlikely(x->succ != x->succ_inline)) {
    free(x->succ);
    x->succ = x->succ_inline; /* a block at rest has its inline array: see tomp_task_tiny */
  }
  unsigned cls = x->cls;
  if (tomp_unlikely(!cls)) {
    free(x);
    return;
  }
  task_ctx_t *c = x->owner;
  tomp_thread_t *thr = tomp_self;
  if (thr && thr->task_ctx == c) {
    if (tomp_likely(keep_free(c, cls))) {
      x->lq.next = c->free[cls];
      c->free[cls] = x;
      c->nfree[cls]++;
      return;
    }
    free(x);
    return;
  }
  tomp_xtask_t *h = tomp_load_rlx(&c->remote[cls]);
  do
    x->lq.next = h;
  while (!__atomic_compare_exchange_n(&c->remote[cls], &h, x, true, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED));
}

/* Free x and drop its reference on its parent, which may free the parent in turn (a loop,
 * not recursion: chains can be deep). */
static void xtask_free(tomp_xtask_t *x) {
  while (x) {
    tomp_xtask_t *up = x->pref ? tomp_xtask(x->t.parent) : NULL;
    xtask_free_block(x);
    x = up && __atomic_sub_fetch(&up->refs, 1, __ATOMIC_ACQ_REL) == 0 ? up : NULL;
  }
}

static void xtask_unref(tomp_xtask_t *x) {
  if (__atomic_sub_fetch(&x->refs, 1, __ATOMIC_ACQ_REL) == 0) xtask_free(x);
}

/* Whether the caller's reference on x is its last, asked once nobody can take a new one (x's
 * body, which alone makes children, has ended; each caller says why): then a load tells, and
 * x is freed without an RMW on its count. */
static inline bool xtask_last_ref(tomp_xtask_t *x) {
  return __atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) == 1;
}

/* The encountering thread is done with undeferred task x.  Deferred children may still
 * reference it; they can outlive its parent's body, so x then takes a reference on its
 * parent (still suspended, hence live) to keep the ancestor chain of those children live. */
static void undeferred_release(tomp_xtask_t *x) {
  if (tomp_likely(xtask_last_ref(x))) {
    xtask_free(x);
    return;
  }
  tomp_task_t *p = x->t.parent;
  if (p->flags & TOMP_TASK_EXPLICIT) {
    __atomic_add_fetch(&tomp_xtask(p)->refs, 1, __ATOMIC_RELAXED);
    x->pref = 1;
  }
  xtask_unref(x);
}

/* Only the thread running t creates its pinfo; others read it under the team lock or, for
 * a taskgroup owner, possibly while it is being created, hence the atomics. */
tomp_pinfo_t *tomp_task_pinfo(tomp_task_t *t) {
  tomp_pinfo_t *pi = tomp_load_acq(&t->ext);
  if (tomp_unlikely(!pi)) {
    pi = tomp_calloc(1, sizeof(tomp_pinfo_t));
    tomp_store_rel(&t->ext, (void *)pi);
  }
  return pi;
}

/* ---- Ready tasks: the deques and the shared list --------------------------------------- */

/* Shared list: insert after the last task of equal or higher priority (FIFO within a
 * priority).  Team lock held. */
static void lq_insert(tomp_tlist_t *l, tomp_xtask_t *x) {
  tomp_xtask_t *after = l->tail;
  while (after && after->t.priority < x->t.priority) after = after->lq.prev;
  x->lq.prev = after;
  x->lq.next = after ? after->lq.next : l->head;
  if (x->lq.next)
    x->lq.next->lq.prev = x;
  else
    l->tail = x;
  if (after)
    after->lq.next = x;
  else
    l->head = x;
}

static void lq_remove(tomp_tlist_t *l, tomp_xtask_t *x) {
  if (x->lq.prev)
    x->lq.prev->lq.next = x->lq.next;
  else
    l->head = x->lq.next;
  if (x->lq.next)
    x->lq.next->lq.prev = x->lq.prev;
  else
    l->tail = x->lq.prev;
  x->lq.next = x->lq.prev = NULL;
}

#define DQ_MASK (TOMP_DQ_SIZE - 1)

/* A thread's deque is made when it first queues a task (dq_make): until then its entry in
 * the team's table is this one, empty for every reader and full for its owner's push, which
 * then comes to dq_make.  A team that runs no task costs no 4 KiB per thread (an idle team
 * of 32 was 5 KiB per worker above libgomp's footprint, docs/benchmarks.md "Memory").  Never
 * written: its owner's push stops at the full test. */
static tomp_deque_t dq_none = {.top_seen = -TOMP_DQ_SIZE};

/* Owner only.  The bottom store is sequentially consistent: the pusher then reads the
 * barrier's sleepers, a sleeper registers and then reads bottom (tomp_task_nready). */
static bool dq_push(tomp_deque_t *d, tomp_xtask_t *x) {
  int64_t b = tomp_load_rlx(&d->bottom);
  if (tomp_unlikely(b - d->top_seen >= TOMP_DQ_SIZE)) {
    if (d == &dq_none) return false;
    d->top_seen = tomp_load_acq(&d->top);
    if (b - d->top_seen >= TOMP_DQ_SIZE) return false;
  }
  tomp_dqslot_t *sl = &d->slot[b & DQ_MASK];
  tomp_store_rlx(&sl->x, x);
  tomp_store_rlx(&sl->parent, x->t.parent);
  TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1); /* a sequentially consistent store: an exchange */
  __atomic_store_n(&d->bottom, b + 1, __ATOMIC_SEQ_CST);
  return true;
}

/* Owner only: the newest task, or NULL.  The last task is raced for with thieves on top. */
static tomp_xtask_t *dq_pop(tomp_deque_t *d) {
  int64_t b = tomp_load_rlx(&d->bottom);
  if (tomp_load_rlx(&d->top) >= b) return NULL; /* top only grows: empty stays empty */
  b--;
  __atomic_store_n(&d->bottom, b, __ATOMIC_SEQ_CST);
  int64_t t = __atomic_load_n(&d->top, __ATOMIC_SEQ_CST);
  tomp_xtask_t *x = NULL;
  if (t <= b) {
    x = tomp_load_rlx(&d->slot[b & DQ_MASK].x);
    if (t < b) {
      d->top_seen = t;
      return x;
    }
    if (!__atomic_compare_exchange_n(&d->top, &t, t + 1, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_RELAXED))
      x = NULL;
  }
  tomp_store_rel(&d->bottom, b + 1);
  d->top_seen = b + 1;
  return x;
}

/* Owner only: undo dq_pop (x was the bottom task and nobody could take its slot). */
static void dq_unpop(tomp_deque_t *d, tomp_xtask_t *x) {
  if (!dq_push(d, x)) tomp_fatal("task deque: cannot return a task"); /* cannot happen */
}

/* Thief: the oldest task, if want is NULL or is the task's parent; NULL when empty, not
 * wanted or lost to another taker (the caller polls again). */
static tomp_xtask_t *dq_steal(tomp_deque_t *d, tomp_task_t *want) {
  int64_t t = __atomic_load_n(&d->top, __ATOMIC_SEQ_CST);
  int64_t b = __atomic_load_n(&d->bottom, __ATOMIC_SEQ_CST);
  if (t >= b) return NULL;
  tomp_dqslot_t *sl = &d->slot[t & DQ_MASK];
  tomp_xtask_t *x = tomp_load_rlx(&sl->x);
  if (want && tomp_load_rlx(&sl->parent) != want) return NULL;
  /* success also proves the slot was not reused while we read it */
  TOMP_COUNT_ADD(TOMP_CNT_STEAL, RMW, 1);
  if (!__atomic_compare_exchange_n(&d->top, &t, t + 1, false, __ATOMIC_SEQ_CST,
                                   __ATOMIC_RELAXED))
    return NULL;
  TOMP_COUNT_ADD(TOMP_CNT_STEAL, EPISODE, 1);
  TOMP_COUNT_ADD(TOMP_CNT_STEAL, WRITE, 1); /* claim() writes the task's state: its creator's line */
  return x;
}

static inline uint32_t dq_size(tomp_deque_t *d) {
  int64_t t = __atomic_load_n(&d->top, __ATOMIC_SEQ_CST);
  int64_t b = __atomic_load_n(&d->bottom, __ATOMIC_SEQ_CST);
  return b > t ? (uint32_t)(b - t) : 0;
}

uint32_t tomp_task_nready(tomp_team_t *team) {
  tomp_team_tasks_t *tt = team->tasks;
  if (!tt) return 0;
  uint32_t n = __atomic_load_n(&tt->nready, __ATOMIC_SEQ_CST);
  unsigned nd = team->nthreads < tt->ndq ? team->nthreads : tt->ndq;
  for (unsigned i = 0; i < nd; i++) n += dq_size(tomp_load_acq(&tt->dq[i]));
  return n;
}

void tomp_task_poke(tomp_task_t *t) {
  tomp_pinfo_t *pi = t ? tomp_load_acq(&t->ext) : NULL;
  if (!pi || !__atomic_load_n(&pi->waiting, __ATOMIC_SEQ_CST)) return;
  uint32_t old = tomp_xchg(&pi->waiting, 0);
  __atomic_add_fetch(&t->taskwait_word, 1, __ATOMIC_SEQ_CST);
  if (old == 2) tomp_futex_wake(&t->taskwait_word, 0x7fffffff);
}

/* May a thread waiting in task me (for taskgroup tg, if any) start x?  Only descendants of
 * me (task scheduling constraint 2), or members of tg.  x's ancestors are live (pref). */
static bool allowed(tomp_xtask_t *x, tomp_task_t *me, tomp_taskgroup_t *tg) {
  for (tomp_task_t *a = x->t.parent; a; a = a->parent) {
    if (a == me) return true;
    if (!(a->flags & TOMP_TASK_EXPLICIT)) break;
  }
  for (tomp_taskgroup_t *g = x->t.taskgroup; tg && g; g = g->prev)
    if (g == tg) return true;
  return false;
}

/* thr may be NULL: omp_fulfill_event from a thread tomp does not know */
static inline bool in_barrier(tomp_thread_t *thr) {
  return thr && (tomp_load_rlx(&thr->state) & ~0xf) == ompt_state_wait_barrier;
}

/* dq_push(d, x) failed: if d is dq_none, thread tid's first push, make its deque and push
 * x there (the deque, else NULL).  Only the owner writes its entry; thieves read entries
 * with acquire loads, so they see the deque's indices initialised. */
static __attribute__((noinline)) tomp_deque_t *dq_make(tomp_team_tasks_t *tt, unsigned tid,
                                                       tomp_deque_t *d, tomp_xtask_t *x) {
  if (d != &dq_none) return NULL;
  d = aligned_alloc(TOMP_CACHELINE, sizeof(tomp_deque_t));
  if (!d) tomp_fatal("out of memory for a task deque");
  /* the indices only: a slot is written before it is read */
  memset(d, 0, offsetof(tomp_deque_t, slot));
  tomp_store_rel(&tt->dq[tid], d);
  return dq_push(d, x) ? d : NULL;
}

static void shared_put(tomp_team_tasks_t *tt, tomp_xtask_t *x) {
  lq_insert(&tt->ready, x);
  /* sequentially consistent: see dq_push */
  __atomic_store_n(&tt->nready, tt->nready + 1, __ATOMIC_SEQ_CST);
}

/* post()'s answer for a task its creator runs now (POST_FULL): no deque is this one. */
#define POST_FULL (&dq_none)

/* x is ready.  It goes to thr's own deque when thr is a thread of x's team and x has no
 * priority; on the release path (locked: a predecessor completed, or an event was
 * fulfilled) only when x descends from thr's current task or thr is in a barrier, so that
 * whatever a thread's deque holds above the point where a task started descends from that
 * task (a waiting thread stops at the first task it may not start).  Otherwise x goes to
 * the shared list.  Then x's parent and taskgroup owner are poked: both are live, as the
 * creator's own task or, when locked, because x (which has dependences) cannot complete
 * before the lock is released.  Returns whether anything was queued for the barrier.
 *
 * A task its creating thread (not locked) finds no room for in its full deque is not
 * queued: POST_FULL, and the creator runs it now (post_created).  The shared list would
 * take it under the team lock (and every thief after it, the list being looked at first),
 * which is where one producer feeding 8 or more threads used to end up: 256 tasks already
 * wait for the others, so running one is as good as queueing it, costs no lock and keeps
 * the pending tasks (and their memory) bounded per producer, as libomp does when its
 * deque is full.  x is a child of the creator's current task, so any thread may run it
 * there, tied or not. */
static tomp_deque_t *post(tomp_thread_t *thr, tomp_team_tasks_t *tt, tomp_xtask_t *x,
                          bool locked) {
  tomp_task_t *p = x->t.parent;
  tomp_taskgroup_t *tg = x->t.taskgroup;
  tomp_task_t *owner = tg && tg->owner != p ? tg->owner : NULL;
  tomp_store_rlx(&x->state, TOMP_XS_QUEUED);
  tomp_deque_t *d = NULL;
  if (tomp_likely(x->t.priority == 0 && thr && thr->team == x->t.team && thr->tid < tt->ndq) &&
      (!locked || in_barrier(thr) || allowed(x, thr->task, NULL))) {
    d = tt->dq[thr->tid];
    if (!dq_push(d, x)) {
      /* KMP_ENABLE_TASK_THROTTLING=0 (env_kmp.c): to the shared list instead, however many */
      if (!locked && d != &dq_none && tomp_likely(tomp_g.task_throttling)) return POST_FULL;
      d = dq_make(tt, thr->tid, d, x);
    }
  }
  if (!d) {
    TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, locked ? 1 : 3); /* the lock and nready's store */
    if (!locked) tomp_mutex_lock(&tt->lock);
    shared_put(tt, x);
    if (!locked) tomp_mutex_unlock(&tt->lock);
  }
  tomp_task_poke(p);
  if (owner) tomp_task_poke(owner);
  return d;
}

/* After post() from the creating thread: wake a barrier sleeper unless none sleeps or the
 * deque still held another task after ours was published (a sleeper that scanned before
 * our push saw that one and did not sleep, and whoever made the deque non-empty woke one,
 * so an awake thread is already at it).  Reading top only when someone sleeps keeps the
 * thieves' line out of the producer's way. */
static void post_wake(tomp_team_t *team, tomp_deque_t *d) {
  if (!__atomic_load_n(&team->bar.sleepers, __ATOMIC_SEQ_CST)) return;
  if (d && tomp_load_rlx(&d->bottom) - __atomic_load_n(&d->top, __ATOMIC_SEQ_CST) >= 2) return;
  tomp_barrier_tasks_posted(team);
}

bool tomp_task_make_ready(tomp_team_tasks_t *tt, tomp_xtask_t *x) {
  if (x->hold) {
    tomp_store_rel(&x->state, TOMP_XS_GO);
    tomp_task_poke(x->t.parent);
    return false;
  }
  post(tomp_self, tt, x, true);
  return true; /* released tasks wake sleepers (complete() decides) */
}

bool tomp_task_discarded(tomp_xtask_t *x) {
  if (!tomp_g.cancellation || x->must_run) return false;
  tomp_team_t *team = x->t.team;
  if (team && (tomp_load_acq(&team->cancelled) & TOMP_CANCEL_PARALLEL)) return true;
  tomp_taskgroup_t *tg = x->t.taskgroup;
  if (tg && tg->workshare && tg->prev) tg = tg->prev;
  return tg && tomp_load_acq(&tg->cancelled);
}

/* x was taken from a queue: acquire its mutexinoutset dependences, or it is parked on a
 * holder (and queued again when that completes). */
static bool claim(tomp_team_tasks_t *tt, tomp_xtask_t *x, bool locked) {
  if (tomp_unlikely(x->has_mutex) && !tomp_task_discarded(x)) {
    if (!locked) tomp_mutex_lock(&tt->lock);
    bool ok = tomp_dep_mutex_acquire(x);
    if (!locked) tomp_mutex_unlock(&tt->lock);
    if (!ok) return false;
  }
  tomp_store_rlx(&x->state, TOMP_XS_RUNNING);
  return true;
}

/* The first startable task of the shared list (lock held). */
static tomp_xtask_t *shared_take(tomp_team_tasks_t *tt, tomp_task_t *me, tomp_taskgroup_t *tg) {
  tomp_xtask_t *x = tt->ready.head;
  while (x) {
    tomp_xtask_t *next = x->lq.next;
    if (!me || allowed(x, me, tg)) {
      lq_remove(&tt->ready, x);
      tomp_store_rlx(&tt->nready, tt->nready - 1);
      if (claim(tt, x, true)) return x;
    }
    x = next;
  }
  return NULL;
}

/* Take a task thr may start: any (me NULL: thr waits in a barrier), else one that
 * descends from me or belongs to tg.  Shared list first (priorities), then the bottom of
 * thr's deque, then the tops of the others'. */
static tomp_xtask_t *take(tomp_thread_t *thr, tomp_team_tasks_t *tt, tomp_task_t *me,
                          tomp_taskgroup_t *tg, bool steal) {
  tomp_xtask_t *x;
  if (tomp_load_rlx(&tt->nready)) {
    TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 2);
    tomp_mutex_lock(&tt->lock);
    x = shared_take(tt, me, tg);
    tomp_mutex_unlock(&tt->lock);
    if (x) return x;
  }
  unsigned n = thr->team->nthreads, self = thr->tid;
  if (tomp_unlikely(n > tt->ndq || self >= n)) return NULL;
  tomp_deque_t *own = tt->dq[self];
  while ((x = dq_pop(own))) {
    if (me && !allowed(x, me, tg)) {
      dq_unpop(own, x);
      break;
    }
    if (claim(tt, x, false)) return x;
  }
  for (unsigned i = 1; steal && i < n; i++) {
    unsigned v = self + i < n ? self + i : self + i - n;
    tomp_deque_t *d = tomp_load_acq(&tt->dq[v]);
    x = dq_steal(d, me);
    if (x && claim(tt, x, false)) {
      /* A poster wakes a sleeper only for a deque it made non-empty (post_wake): the tasks
       * queued behind the first would wait for their creator's next scheduling point while
       * the woken thread runs that first one.  So a thief that leaves tasks behind passes
       * the wake-up on (a load of the sleepers word when nobody sleeps). */
      if (dq_size(d) != 0) tomp_barrier_tasks_posted(thr->team);
      return x;
    }
  }
  return NULL;
}

/* ---- Running and completing ------------------------------------------------------------ */

/* Leave the taskgroup.  Decrements that leave members are lock-free; the last one is made
 * under the team lock, because the waiting owner frees the group as soon as it has seen the
 * count reach 0 and then passed through the lock. */
static void taskgroup_leave(tomp_team_t *team, tomp_taskgroup_t *tg) {
  uint32_t c = __atomic_load_n(&tg->count, __ATOMIC_SEQ_CST);
  while (c > 1)
    if (__atomic_compare_exchange_n(&tg->count, &c, c - 1, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      return;
  if (!team) {
    __atomic_sub_fetch(&tg->count, 1, __ATOMIC_SEQ_CST);
    return;
  }
  tomp_team_tasks_t *tt = team->tasks;
  tomp_mutex_lock(&tt->lock);
  if (__atomic_sub_fetch(&tg->count, 1, __ATOMIC_SEQ_CST) == 0) tomp_task_poke(tg->owner);
  tomp_mutex_unlock(&tt->lock);
}

/* The team's count of outstanding tasks (tt->ntasks) in slots a thread holds (task.h,
 * "Credits").  Give back what thr holds: at a barrier, before it looks at the count. */
void tomp_task_credits_return(tomp_thread_t *thr) {
  uint32_t n = thr->task_cred;
  tomp_team_t *team = thr->task_cred_team;
  thr->task_cred = 0;
  tomp_team_tasks_t *tt = team->tasks;
  TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1);
  if (__atomic_sub_fetch(&tt->ntasks, n, __ATOMIC_SEQ_CST) == 0) tomp_barrier_tasks_done(team);
}

/* thr's slots are for team from now on (those it held for another team go back). */
static inline void credits_for(tomp_thread_t *thr, tomp_team_t *team) {
  if (tomp_unlikely(thr->task_cred_team != team)) {
    if (thr->task_cred) tomp_task_credits_return(thr);
    thr->task_cred_team = team;
  }
}

/* A deferred task of team is created by thr: one slot of the count, from thr's own unless
 * it has none (then TOMP_TASK_CREDITS at once).  The count covers the task before it is
 * queued, as the barrier's sleepers need (barrier.c). */
static inline void count_task(tomp_thread_t *thr, tomp_team_t *team, tomp_team_tasks_t *tt) {
  if (tomp_unlikely(!thr || thr->team != team)) {
    TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1);
    __atomic_add_fetch(&tt->ntasks, 1, __ATOMIC_SEQ_CST);
    return;
  }
  credits_for(thr, team);
  if (tomp_unlikely(thr->task_cred == 0)) {
    TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1);
    __atomic_add_fetch(&tt->ntasks, TOMP_TASK_CREDITS, __ATOMIC_SEQ_CST);
    thr->task_cred = TOMP_TASK_CREDITS;
  }
  thr->task_cred--;
}

/* A task of team completed on self, a thread of team: its slot becomes self's.  Beyond
 * twice the batch, one batch goes back: the count cannot reach zero there, since it still
 * covers the slots self keeps. */
static inline void uncount_task(tomp_thread_t *self, tomp_team_t *team, tomp_team_tasks_t *tt) {
  credits_for(self, team);
  if (tomp_unlikely(++self->task_cred > 2 * TOMP_TASK_CREDITS)) {
    self->task_cred -= TOMP_TASK_CREDITS;
    TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1);
    __atomic_sub_fetch(&tt->ntasks, TOMP_TASK_CREDITS, __ATOMIC_SEQ_CST);
  }
}

/* The task's body has finished and its event (if any) is fulfilled.  The parent stays
 * allocated until we drop our reference on it, so it can be woken without the lock; a
 * waiter publishes `waiting` before re-checking its condition and we change the condition
 * before reading `waiting` (all sequentially consistent), so one of us sees the other. */
static void complete(tomp_xtask_t *x) {
  tomp_team_t *team = x->t.team;
  tomp_task_t *p = x->t.parent;
  tomp_taskgroup_t *tg = x->t.taskgroup;
  if (x->ndeps) {
    tomp_team_tasks_t *tt = team->tasks;
    tomp_mutex_lock(&tt->lock);
    unsigned posted = tomp_dep_complete(tt, x);
    tomp_mutex_unlock(&tt->lock);
    /* out of the table: nodes that did not fit the block (dep_nodes) go */
    if (tomp_unlikely(x->deps != (tomp_depnode_t *)(x + 1))) {
      free(x->deps);
      x->deps = (tomp_depnode_t *)(x + 1);
    }
    /* One successor released by a thread in a barrier sits on top of its own deque and is
     * its next task: waking a sleeper for it would only make two threads race for it. */
    if (posted > 1 || (posted && !in_barrier(tomp_self))) tomp_barrier_tasks_posted_n(team, posted);
  }
  if (x->hold) {
    /* Undeferred: its encountering thread frees it.  If the task was detached (outside any
     * team: count_detached), that thread may be waiting for another thread's fulfilment. */
    if (!x->detached) {
      tomp_store_rlx(&x->state, TOMP_XS_DONE);
    } else {
      /* 1: done, a wake may follow; 2: we no longer touch x */
      __atomic_store_n(&x->state, TOMP_XS_DONE, __ATOMIC_SEQ_CST);
      tomp_store_rel(&x->done, 1);
      tomp_futex_wake(&x->done, 1);
      tomp_store_rel(&x->done, 2);
    }
    return;
  }
  /* The parent's children, and the reference unless it is the last one (the team's count
   * only now and then: uncount_task).  Nobody waits for a deferred task's state: it says
   * DONE for a debugger only, so a plain store will do.  x's own reference is its last
   * when nobody else holds one (its children are gone, no fulfilment is reporting), and then
   * nobody can take one any more (only x's body makes children): freed without an RMW. */
  TOMP_COUNT_ADD(TOMP_CNT_TASK, EPISODE, 1);
  tomp_store_rlx(&x->state, TOMP_XS_DONE);
  TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1 + (tg != NULL));
  if (__atomic_sub_fetch(&p->children, 1, __ATOMIC_SEQ_CST) == 0) tomp_task_poke(p);
  if (tg) taskgroup_leave(team, tg);
  /* its reference on p goes when x is freed */
  if (tomp_likely(xtask_last_ref(x))) {
    xtask_free(x);
  } else {
    TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1);
    xtask_unref(x);
  }
  tomp_team_tasks_t *tt = team->tasks;
  /* A thread outside the team (omp_fulfill_event from anywhere) may still be in
   * tomp_barrier_tasks_done when the team has left the barrier and forks again; the join
   * is not waiting for it as it waits for workers.  It holds the lock across the count's
   * last use, and the join passes through the lock when the flag says so. */
  tomp_thread_t *self = tomp_self;
  bool foreign = !self || self->team != team;
  if (tomp_likely(!foreign)) {
    uncount_task(self, team, tt);
    return;
  }
  TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1);
  __atomic_store_n(&tt->foreign, 1, __ATOMIC_SEQ_CST);
  tomp_mutex_lock(&tt->lock);
  if (__atomic_sub_fetch(&tt->ntasks, 1, __ATOMIC_SEQ_CST) == 0) tomp_barrier_tasks_done(team);
  tomp_mutex_unlock(&tt->lock);
}

/* OMPT, detachable tasks: whether the body's end or omp_fulfill_event comes second decides
 * the statuses (body end: detach, then late_fulfill; or early_fulfill, then complete).  The
 * count and its report are one step under the team's task lock, so a tool sees them in
 * that order on any two threads.  The second one completes and may free the task, so each
 * side holds a reference while it reports. */
static uint32_t ompt_detach_step(tomp_xtask_t *x, bool body, bool skip, tomp_task_t *prev) {
  tomp_team_tasks_t *tt = x->t.team ? x->t.team->tasks : NULL;
  if (tt) tomp_mutex_lock(&tt->lock);
  uint32_t left = __atomic_sub_fetch(&x->pending, 1, __ATOMIC_ACQ_REL);
  if (body) {
    if (!skip) /* a discarded task never started: no schedule event (ompt_discarded) */
      tomp_ev_task_schedule_(&x->t, left ? TOMP_EV_TASK_DETACH : TOMP_EV_TASK_COMPLETE, prev);
  } else
    tomp_ev_task_schedule_(&x->t, left ? ompt_task_early_fulfill : ompt_task_late_fulfill, NULL);
  if (tt) tomp_mutex_unlock(&tt->lock);
  return left;
}

static void ompt_detached_end(tomp_xtask_t *x, bool skip, tomp_task_t *prev) {
  __atomic_add_fetch(&x->refs, 1, __ATOMIC_ACQ_REL);
  if (ompt_detach_step(x, true, skip, prev) == 0) complete(x);
  xtask_unref(x);
}

static void ompt_fulfill(tomp_xtask_t *x) {
  __atomic_add_fetch(&x->refs, 1, __ATOMIC_ACQ_REL);
  if (ompt_detach_step(x, false, false, NULL) == 0) complete(x);
  xtask_unref(x);
}

/* The state of a thread running an explicit task (OpenMP 5.2 sec. 19.4.4.27, ompt_state_t):
 * ompt_state_work_serial "The thread is executing code outside all parallel regions",
 * ompt_state_work_parallel "... within the scope of a parallel region".  A parallel region
 * of one thread is one too; outside all of them (the initial task, a host target region's)
 * the thread has no team.  libomp answers work_serial in an inactive region's explicit tasks
 * (but work_parallel in its implicit task) and work_parallel in undeferred tasks outside all
 * regions; tests/ompt_state_tasks.c checks every kind. */
static inline int task_work_state(tomp_thread_t *thr) {
  return thr->team ? ompt_state_work_parallel : ompt_state_work_serial;
}

/* A task discarded by cancellation (x, never started), reported by thr in the context of its
 * current task, the one that discards x.  OpenMP 6.0 sec. 18.2 (cancel, Tool Callbacks; 5.x
 * has the same flag): "A thread dispatches a registered cancel callback with its task_data
 * argument pointing to the data object associated with the discarded task and with
 * ompt_cancel_discarded_task as its flags argument for each occurrence of a discarded-task
 * event. The callback occurs in the context of the task that discards the task."  A task
 * that never starts has no task_schedule events, so this is the only end a tool sees of the
 * task it was told was created.  No construct was met: codeptr_ra is NULL, as in libomp. */
static void __attribute__((noinline, cold)) ompt_discarded(tomp_thread_t *thr, tomp_xtask_t *x) {
  if (!TOMP_EV_WANTED(TOMP_EV_CANCEL)) return;
  tomp_taskgroup_t *tg = x->t.taskgroup;
  if (tg && tg->workshare && tg->prev) tg = tg->prev; /* as tomp_task_discarded */
  int why = tg && tomp_load_acq(&tg->cancelled) ? ompt_cancel_taskgroup : ompt_cancel_parallel;
  TOMP_EV_CALL(cancel, thr, &x->t, ompt_cancel_discarded_task | why, NULL);
}

/* A taskloop chunk starts (x, now the thread's current task): its dispatch event.  OpenMP
 * 6.0 sec. 14.2 (taskloop; the events and the dispatch kind are 5.2's): "The
 * taskloop-chunk-begin event occurs before an explicit task executes any of its associated
 * logical iterations in a taskloop region." ... "A thread dispatches a registered dispatch
 * callback for each occurrence of a taskloop-iteration-begin or taskloop-chunk-begin event
 * in that thread. The callback binds to the explicit task executing the logical
 * iterations."  So: on the thread that runs the chunk, when it starts, with the chunk
 * task's task_data (libomp 18 and later does the same). */
static void __attribute__((noinline, cold)) ompt_chunk_begin(tomp_thread_t *thr, tomp_xtask_t *x,
                                                             bool skip) {
  x->chunk_pending = 0; /* also for a discarded chunk: the block may be reused */
  if (!skip && TOMP_EV_WANTED(TOMP_EV_DISPATCH))
    TOMP_EV_CALL(dispatch, thr, &x->t, ompt_dispatch_taskloop_chunk, x->ompt_chunk[0],
                 x->ompt_chunk[1]);
}

/* ---- Short tasks (task.h: the adaptive cut-off) ------------------------------------------- */

uint64_t tomp_task_stats[TOMP_SHORT_SLOTS];

/* A moving average over the last few samples (weight 1/4), capped to the entry's 24 bits; a
 * function that finds its slot taken by another starts over from its own sample. */
void tomp_task_stat_add(void (*fn)(void *), uint64_t ns) {
  uint64_t *e = &tomp_task_stats[tomp_short_slot(fn)];
  uint64_t old = tomp_load_rlx(e), tag = tomp_short_tag(fn);
  if (ns > TOMP_SHORT_CAP) ns = TOMP_SHORT_CAP;
  uint64_t avg = (old & ~(uint64_t)0xffffff) == tag ? ((old & 0xffffff) * 7 + ns) / 8 : ns;
  tomp_store_rlx(e, tag | avg);
}

/* Written once, compiled twice: run_task tests the tool key once and runs the copy with
 * `observed` constant, so the copy without a tool keeps no flag alive across the task's body
 * (the key is read once either way, so a task's events stay paired). */
static inline __attribute__((always_inline)) void
run_task_body(tomp_thread_t *thr, tomp_xtask_t *x, const bool observed, const int prior_status) {
  tomp_task_t *prev = thr->task;
  int saved_state = thr->state;
  uint64_t saved_id = thr->wait_id;
  bool skip = tomp_task_discarded(x);
  if (observed && tomp_unlikely(skip)) ompt_discarded(thr, x); /* before x is current */
  tomp_task_enter(thr, &x->t, prev, __builtin_frame_address(0), TOMP_ENTER_SCHEDULED);
  /* slots read once too; a tool without the callback pays no call; a discarded task never
   * started, so it has no schedule events (ompt_discarded) */
  bool ev = observed && !skip && TOMP_EV_WANTED(TOMP_EV_TASK_SCHEDULE);
  if (ev) tomp_ev_task_schedule_(prev, prior_status, &x->t); /* inline: the common event */
  if (observed && tomp_unlikely(x->chunk_pending)) ompt_chunk_begin(thr, x, skip);
  tomp_set_state(thr, task_work_state(thr), 0);
  if (tomp_likely(!skip)) {
    /* one in TOMP_SHORT_SAMPLE deferred runs gives its function a first verdict, or keeps
     * a long one's current (task.h, short tasks) */
    tomp_task_ctx_t *c = thr->task_ctx;
    /* not with a tool: its tasks never run at once by choice, so nobody reads the verdict,
     * and the samples' clock calls and the shared table's line would be paid per task */
    if (!observed && tomp_unlikely(c && ++c->nrun % TOMP_SHORT_SAMPLE == 0)) {
      uint64_t t0 = tomp_now_ns();
      x->t.fn(x->t.data);
      tomp_task_stat_add(tomp_runner_entry(x->t.fn, x->t.data), tomp_now_ns() - t0);
    } else {
      x->t.fn(x->t.data);
    }
  }
  tomp_task_leave(thr, &x->t, prev, TOMP_ENTER_SCHEDULED);
  if (observed) {
    if (ev && tomp_likely(!x->detached)) tomp_ev_task_schedule_(&x->t, end_status(&x->t), prev);
    if (x->detached) {
      ompt_detached_end(x, skip, prev);
      tomp_set_state(thr, saved_state, saved_id);
      return;
    }
  }
  tomp_set_state(thr, saved_state, saved_id);
  /* after this a detached task may be completed and freed by omp_fulfill_event */
  if (!x->detached || __atomic_sub_fetch(&x->pending, 1, __ATOMIC_ACQ_REL) == 0) complete(x);
}

static void __attribute__((noinline)) run_task_observed(tomp_thread_t *thr, tomp_xtask_t *x) {
  run_task_body(thr, x, true, TOMP_EV_TASK_SWITCH);
}

static void run_task(tomp_thread_t *thr, tomp_xtask_t *x) {
  if (tomp_listening()) {
    run_task_observed(thr, x);
    return;
  }
  run_task_body(thr, x, false, TOMP_EV_TASK_SWITCH);
}

void tomp_task_fulfill(void *event) {
  tomp_xtask_t *x = event;
  if (!x) {
    tomp_warn("omp_fulfill_event: invalid event handle (null); ignored");
    return;
  }
  if (tomp_listening()) {
    ompt_fulfill(x);
    return;
  }
  if (__atomic_sub_fetch(&x->pending, 1, __ATOMIC_ACQ_REL) == 0) complete(x);
}

/* Its creator's deque was full (post): x runs now, as if pushed and popped at once. */
static __attribute__((noinline, cold)) void run_full(tomp_thread_t *thr, tomp_team_tasks_t *tt,
                                                     tomp_xtask_t *x) {
  TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW, 1); /* the state's exchange in claim, as a pop's */
  if (claim(tt, x, false)) run_task(thr, x);
}

/* A task created by thr in its current task, without dependences: queued, a sleeper woken
 * if it needs one, or run now when thr's deque is full. */
static inline void post_created(tomp_thread_t *thr, tomp_team_t *team, tomp_team_tasks_t *tt,
                                tomp_xtask_t *x) {
  tomp_deque_t *d = post(thr, tt, x, false);
  if (tomp_unlikely(d == POST_FULL))
    run_full(thr, tt, x);
  else
    post_wake(team, d);
}

bool tomp_task_run_queued(tomp_thread_t *thr, bool steal) {
  tomp_team_t *team = thr->team;
  tomp_team_tasks_t *tt = team ? team->tasks : NULL;
  if (!tt) return false;
  tomp_xtask_t *x = take(thr, tt, NULL, NULL, steal);
  if (!x) return false;
  run_task(thr, x);
  return true;
}

/* ---- Waiting --------------------------------------------------------------------------- */

void tomp_task_wait_until(tomp_thread_t *thr, tomp_taskgroup_t *tg, bool (*done)(void *),
                          void *arg, int state, uint64_t wait_id) {
  if (done(arg)) return;
  tomp_team_t *team = thr->team;
  int saved_state = thr->state;
  uint64_t saved_id = thr->wait_id;
  tomp_set_state(thr, state, wait_id);
  if (!team) {
    /* only another thread (omp_fulfill_event) can make progress */
    while (!done(arg)) sched_yield();
    tomp_set_state(thr, saved_state, saved_id);
    return;
  }
  tomp_team_tasks_t *tt = team->tasks;
  tomp_task_t *me = thr->task;
  tomp_pinfo_t *pi = tomp_task_pinfo(me);
  me->frame.enter_frame.ptr = __builtin_frame_address(0);
  for (;;) {
    if (done(arg)) break;
    tomp_xtask_t *x = take(thr, tt, me, tg, true);
    if (x) {
      run_task(thr, x);
      continue;
    }
    /* publish, then re-check the condition and the queues: whoever changes either pokes
     * us after the change */
    __atomic_store_n(&pi->waiting, 1, __ATOMIC_SEQ_CST);
    uint32_t w = __atomic_load_n(&me->taskwait_word, __ATOMIC_SEQ_CST);
    if (done(arg)) break;
    if ((x = take(thr, tt, me, tg, true))) {
      tomp_store_rlx(&pi->waiting, 0);
      run_task(thr, x);
      continue;
    }
    unsigned long n = tomp_spins();
    unsigned long i = 0;
    for (; i < n; i++) {
      if (tomp_load_acq(&me->taskwait_word) != w) break;
      tomp_wait_pause();
    }
    if (i < n) continue;
    uint32_t one = 1;
    if (tomp_cas(&pi->waiting, &one, 2)) tomp_futex_wait(&me->taskwait_word, w);
  }
  tomp_store_rlx(&pi->waiting, 0);
  me->frame.enter_frame.ptr = NULL;
  tomp_set_state(thr, saved_state, saved_id);
}

static bool children_done(void *arg) {
  return __atomic_load_n(&((tomp_task_t *)arg)->children, __ATOMIC_SEQ_CST) == 0;
}

static bool xtask_go(void *arg) {
  return __atomic_load_n(&((tomp_xtask_t *)arg)->state, __ATOMIC_SEQ_CST) == TOMP_XS_GO;
}

void tomp_taskwait_quiet(tomp_thread_t *thr) {
  tomp_task_t *t = thr->task;
  if (tomp_load_acq(&t->children) == 0) return;
  tomp_task_wait_until(thr, NULL, children_done, t, ompt_state_wait_taskwait,
                       (uint64_t)(uintptr_t)t);
}

void tomp_taskwait(tomp_thread_t *thr) {
  tomp_task_t *t = thr->task;
  if (tomp_load_acq(&t->children) == 0) {
    ompt_sync_taskwait(thr, t, TOMP_EV_SCOPE_BEGIN); /* a taskwait region all the same */
    ompt_sync_taskwait(thr, t, TOMP_EV_SCOPE_END);
    return;
  }
  ompt_sync_taskwait(thr, t, TOMP_EV_SCOPE_BEGIN);
  tomp_task_wait_until(thr, NULL, children_done, t, ompt_state_wait_taskwait,
                       (uint64_t)(uintptr_t)t);
  ompt_sync_taskwait(thr, t, TOMP_EV_SCOPE_END);
}

/* OMPT (5.1/5.2 taskwait): `taskwait depend(...)` acts as an included, mergeable task with an
 * empty body.  Its task_create (flags taskwait | undeferred | mergeable, has_dependences)
 * comes on entry, before its dependences and edges; a taskwait sync region surrounds the
 * wait; when the predecessors are done the task reports task_schedule(taskwait_complete)
 * with the encountering task as next. */
#define TOMP_TASK_TASKWAIT_FLAGS (ompt_task_taskwait | TOMP_TASK_UNDEFERRED | TOMP_TASK_MERGEABLE)

void tomp_taskwait_deps(tomp_thread_t *thr, const tomp_depend_t *deps, size_t n) {
  tomp_team_t *team = thr->team;
  tomp_task_t *p = thr->task;
  if (!team || n == 0) { /* without a team every earlier task has completed */
    if (tomp_listening()) {
      tomp_task_t tw = {.parent = p, .flags = TOMP_TASK_TASKWAIT_FLAGS};
      tomp_ev_task_create_(thr, p, &tw, false);
      ompt_sync_taskwait(thr, p, TOMP_EV_SCOPE_BEGIN);
      tomp_ev_task_schedule_(&tw, ompt_taskwait_complete, p);
      ompt_sync_taskwait(thr, p, TOMP_EV_SCOPE_END);
    }
    return;
  }
  tomp_pinfo_t *pi = tomp_task_pinfo(p);
  tomp_team_tasks_t *tt = team->tasks;
  void *args;
  /* A stand-in task that is never run: it only collects the predecessors. */
  tomp_xtask_t *x = xtask_alloc(thr, n, 0, 1, &args);
  x->t.parent = p;
  x->t.team = team;
  x->t.flags = TOMP_TASK_TASKWAIT_FLAGS;
  x->hold = 1;
  ompt_task_create(thr, p, x, true);
  tomp_mutex_lock(&tt->lock);
  tomp_dep_register(pi, x, deps, n);
  x->has_mutex = 0;
  tomp_store_rlx(&x->state, x->npred ? TOMP_XS_DEPWAIT : TOMP_XS_GO);
  tomp_mutex_unlock(&tt->lock);
  ompt_sync_taskwait(thr, p, TOMP_EV_SCOPE_BEGIN);
  tomp_task_wait_until(thr, NULL, xtask_go, x, ompt_state_wait_taskwait, (uint64_t)(uintptr_t)p);
  tomp_mutex_lock(&tt->lock);
  tomp_dep_complete(tt, x);
  tomp_mutex_unlock(&tt->lock);
  ompt_task_schedule(&x->t, ompt_taskwait_complete, p);
  ompt_sync_taskwait(thr, p, TOMP_EV_SCOPE_END);
  xtask_free(x);
}

void tomp_taskyield(tomp_thread_t *thr) {
  tomp_team_t *team = thr->team;
  tomp_task_t *t = thr->task;
  tomp_pinfo_t *pi = t->ext;
  tomp_team_tasks_t *tt = team ? team->tasks : NULL;
  if (!tt || !pi) return;
  tomp_xtask_t *x = take(thr, tt, t, NULL, true);
  if (!x) return;
  /* the yielding task's status is ompt_task_yield, not switch (OpenMP 5.2 ompt_task_status_t:
   * the task-schedule event of a task that suspends at a taskyield construct) */
  if (tomp_listening())
    run_task_body(thr, x, true, TOMP_EV_TASK_YIELD);
  else
    run_task(thr, x);
}

/* ---- Creation -------------------------------------------------------------------------- */

/* A deferred task x of p counts in p's children, its taskgroup and (explicit p) p's
 * references. */
static inline __attribute__((always_inline)) void count_deferred(tomp_task_t *p, tomp_xtask_t *x) {
  /* children, a reference and the taskgroup's if any (the team's count: count_task) */
  TOMP_COUNT_ADD(TOMP_CNT_TASK, RMW,
                 1 + ((p->flags & TOMP_TASK_EXPLICIT) != 0) + (x->t.taskgroup != NULL));
  __atomic_add_fetch(&p->children, 1, __ATOMIC_RELAXED);
  if (p->flags & TOMP_TASK_EXPLICIT) {
    __atomic_add_fetch(&tomp_xtask(p)->refs, 1, __ATOMIC_RELAXED);
    x->pref = 1;
  }
  if (x->t.taskgroup) __atomic_add_fetch(&x->t.taskgroup->count, 1, __ATOMIC_RELAXED);
}

/* tomp_task_alloc + tomp_task_submit for the common deferred task (task.h).  Written once,
 * compiled twice: observed adds the task_create event and the fields only a tool reads. */
static inline __attribute__((always_inline)) void
defer_body(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size, size_t arg_align,
           unsigned f, int priority, void (*fill)(void *args, void *ctx), void *fill_ctx,
           const bool observed) {
  tomp_team_t *team = tomp_load_rlx(&thr->team);
  tomp_task_t *p = tomp_load_rlx(&thr->task);
  void *args;
  bool fresh;
  tomp_xtask_t *x = xtask_alloc_(thr, 0, arg_size, arg_align, &args, true, &fresh);
  if (tomp_likely(!fresh)) {
    /* at rest (tomp_task_tiny); what a deferred task reads beyond the fields set below.
     * run_task sets the exit frame and thread number, post the state; frames' other half,
     * tool data and the dependence fields of a task without dependences stay unread. */
    x->ndeps = 0;
    x->hold = 0;
    x->detached = 0;
    x->has_mutex = 0;
    x->pref = 0;
    x->must_run = 0;
    x->chunk_pending = 0; /* a chunk run after its tool path went off left it set */
    /* a tool whose path turns on while the task waits (a dormant tool asking late, a
     * Collector session) sees it scheduled: with empty data, not its block's last user's */
    x->t.task_data.value = 0;
  }
  if (observed) {
    /* the frame record's other half, as xtask_init leaves it (the block's last user may have
     * been a tiny task, which leaves frames alone) */
    x->t.frame.exit_frame.ptr = NULL;
    x->t.frame.enter_frame.ptr = NULL;
    x->t.frame.exit_frame_flags = 0;
  }
  x->t.parent = p;
  x->t.team = team;
  x->t.icv = p->icv;
  /* TOMP_TF_UNTIED/FINAL/MERGEABLE shifted are TOMP_TASK_UNTIED/FINAL/MERGEABLE */
  x->t.flags = TOMP_TASK_EXPLICIT | ((f & 7u) << 28);
  x->t.fn = fn;
  x->t.data = args;
  x->arg_size = arg_size32(arg_size);
  x->t.taskgroup = p->taskgroup;
  x->t.priority = priority;
  x->t.in_final = (f & TOMP_TF_FINAL) != 0;
  x->t.frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  if (data && arg_size) memcpy(args, data, arg_size);
  if (fill) fill(args, fill_ctx);
  x->refs = 1;
  x->pending = 1;
  count_deferred(p, x);
  if (observed) ompt_task_create(thr, p, x, false); /* as submit_body: counted, not queued */
  tomp_team_tasks_t *tt = team->tasks;
  tomp_task_pinfo(p);
  count_task(thr, team, tt);
  post_created(thr, team, tt, x);
}

void tomp_task_defer(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size,
                     size_t arg_align, unsigned f, int priority,
                     void (*fill)(void *args, void *ctx), void *fill_ctx) {
  defer_body(thr, fn, data, arg_size, arg_align, f, priority, fill, fill_ctx, false);
}

void tomp_task_defer_observed(tomp_thread_t *thr, void (*fn)(void *), void *data,
                              size_t arg_size, size_t arg_align, unsigned f, int priority) {
  defer_body(thr, fn, data, arg_size, arg_align, f, priority, NULL, NULL, true);
}

/* Run at once when key's tasks are short (or to time one), as described in task.h. */
static inline bool try_short(tomp_thread_t *thr, void (*key)(void *), void (*fn)(void *),
                             void *data, size_t sz, unsigned tf) {
  tomp_task_ctx_t *c = thr->task_ctx;
  if (tomp_unlikely(c == NULL)) return false;
  int v = tomp_task_short(thr, key);
  uint32_t n = ++c->nshort;
  if (tomp_likely(v == TOMP_SHORT_YES) && n % TOMP_SHORT_SAMPLE != 0) {
    tomp_task_tiny(thr, fn, data, sz, tf);
    return true;
  }
  if (v == TOMP_SHORT_YES || (v == TOMP_SHORT_NO && n % TOMP_SHORT_PROBE == 0)) {
    uint64_t t0 = tomp_now_ns();
    tomp_task_tiny(thr, fn, data, sz, tf);
    tomp_task_stat_add(key, tomp_now_ns() - t0);
    return true;
  }
  return false;
}

void tomp_task_defer_or_short(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t sz,
                              size_t align, unsigned tf, int priority) {
  if (!try_short(thr, fn, fn, data, sz, tf))
    tomp_task_defer(thr, fn, data, sz, align, tf, priority, NULL, NULL);
}

bool tomp_task_try_short(tomp_thread_t *thr, void (*key)(void *), void (*fn)(void *), void *data,
                         size_t sz, unsigned tf) {
  return try_short(thr, key, fn, data, sz, tf);
}

/* ---- Creation in two steps: tomp_task_alloc, then tomp_task_submit ---------------------- */

/* Does a task of the current task p, with these flags, run at once (undeferred)?  It must
 * with if(0), in a final task or outside a team.  Running at once by choice
 * (tomp_task_runs_at_once) is not for tasks with an event, which may have to wait for work
 * that is queued behind us.  A task with dependences runs at once only when the queue is
 * long (as in libgomp): it then waits for its predecessors, earlier siblings that this
 * thread may run meanwhile; in a team of one it stays deferred while the queue is short
 * (the dependence graph is visible to tools). */
static inline bool runs_now(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *p, unsigned f,
                            bool has_deps, bool detach) {
  if ((f & TOMP_TF_UNDEFERRED) || p->in_final || !team) return true;
  if (detach) return false;
  if (has_deps)
    return tomp_load_rlx(&((tomp_team_tasks_t *)team->tasks)->ntasks) > 64u * team->nthreads;
  return tomp_task_runs_at_once(thr, f);
}

/* The task's flags word from TOMP_TF_* flags; included: created in a final task. */
static inline uint32_t task_flags(unsigned f, bool included) {
  return TOMP_TASK_EXPLICIT | ((f & TOMP_TF_UNDEFERRED) || included ? TOMP_TASK_UNDEFERRED : 0) |
         ((f & TOMP_TF_UNTIED) ? TOMP_TASK_UNTIED : 0) |
         ((f & TOMP_TF_FINAL) || included ? TOMP_TASK_FINAL : 0) |
         ((f & TOMP_TF_MERGEABLE) ? TOMP_TASK_MERGEABLE : 0) |
         ((f & TOMP_TF_MERGEABLE) && included ? TOMP_TASK_MERGED : 0);
}

/* Everything a created task reads that alloc knows; x came from xtask_alloc (initialised). */
static inline void task_setup(tomp_xtask_t *x, tomp_thread_t *thr, tomp_task_t *p,
                              const tomp_task_spec_t *s, void *args, bool in_place) {
  bool included = p->in_final;
  x->t.parent = p;
  x->t.team = thr->team;
  x->t.icv = p->icv;
  x->t.flags = task_flags(s->flags, included) | (in_place ? TOMP_TASK_UNDEFERRED : 0);
  x->t.fn = s->fn;
  x->t.data = args;
  x->arg_size = arg_size32(s->arg_size);
  x->t.taskgroup = p->taskgroup;
  x->t.priority = s->priority;
  x->t.in_final = included || (s->flags & TOMP_TF_FINAL);
  x->t.frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  x->refs = 1; /* the task itself, or for an undeferred one its encountering thread */
  x->pending = s->detach ? 2 : 1;
  x->detached = s->detach;
  x->must_run = s->must_run;
}

/* alloc's body; undeferred: the task runs at once (runs_now), known to the caller. */
static inline __attribute__((always_inline)) tomp_xtask_t *
alloc_body(tomp_thread_t *thr, tomp_task_t *p, const tomp_task_spec_t *s, size_t room,
           bool undeferred, void **args) {
  /* a task that runs at once can run on the caller's block as it is */
  bool in_place = s->in_place && undeferred;
  tomp_xtask_t *x = xtask_alloc(thr, room, in_place ? 0 : s->arg_size, s->arg_align, args);
  if (in_place) *args = s->in_place;
  task_setup(x, thr, p, s, *args, in_place);
  x->dep_room = room > UINT16_MAX ? UINT16_MAX : (uint16_t)room;
  return x;
}

tomp_task_t *tomp_task_alloc(tomp_thread_t *thr, const tomp_task_spec_t *s, void **args) {
  tomp_team_t *team = tomp_load_rlx(&thr->team);
  tomp_task_t *p = tomp_load_rlx(&thr->task);
  bool now = s->in_place && runs_now(thr, team, p, s->flags, s->ndeps && team, s->detach);
  return &alloc_body(thr, p, s, team ? s->ndeps : 0, now, args)->t;
}

void tomp_task_set_chunk(tomp_task_t *t, uint64_t start, uint64_t n) {
  tomp_xtask_t *x = tomp_xtask(t);
  x->ompt_chunk[0] = start;
  x->ompt_chunk[1] = n;
  x->chunk_pending = 1;
}

void tomp_task_free_unsubmitted(tomp_task_t *t) {
  xtask_free(tomp_xtask(t));
}

/* Dependence nodes for n dependences: the block's when alloc reserved enough, else a
 * separate array (complete() frees it once the task has left the table). */
static inline void dep_nodes(tomp_xtask_t *x, size_t n) {
  if (tomp_unlikely(n > x->dep_room)) x->deps = tomp_malloc(n * sizeof *x->deps);
}

/* Deferred: count it, enter its dependences, queue it (or leave it waiting). */
static inline __attribute__((always_inline)) void
submit_deferred(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *p, tomp_xtask_t *x,
                const tomp_depend_t *deps, size_t ndeps) {
  tomp_team_tasks_t *tt = team->tasks;
  tomp_pinfo_t *pi = tomp_task_pinfo(p);
  count_task(thr, team, tt);
  if (!ndeps) {
    post_created(thr, team, tt, x);
    return;
  }
  tomp_mutex_lock(&tt->lock);
  tomp_dep_register(pi, x, deps, ndeps);
  bool ready = x->npred == 0;
  if (ready)
    post(thr, tt, x, true);
  else
    tomp_store_rlx(&x->state, TOMP_XS_DEPWAIT);
  tomp_mutex_unlock(&tt->lock);
  if (ready) tomp_barrier_tasks_posted(team);
}

/* Undeferred with dependences: wait (running other tasks) until they are met, including
 * the ownership of its mutexinoutset dependences. */
static void wait_deps(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *p, tomp_xtask_t *x,
                      const tomp_depend_t *deps, size_t ndeps) {
  tomp_team_tasks_t *tt = team->tasks;
  tomp_pinfo_t *pi = tomp_task_pinfo(p);
  tomp_mutex_lock(&tt->lock);
  tomp_dep_register(pi, x, deps, ndeps);
  tomp_store_rlx(&x->state, x->npred ? TOMP_XS_DEPWAIT : TOMP_XS_GO);
  tomp_mutex_unlock(&tt->lock);
  for (;;) {
    tomp_task_wait_until(thr, NULL, xtask_go, x, ompt_state_wait_taskwait, (uint64_t)(uintptr_t)p);
    if (!x->has_mutex) break;
    tomp_mutex_lock(&tt->lock);
    bool ok = tomp_task_discarded(x) || tomp_dep_mutex_acquire(x);
    tomp_mutex_unlock(&tt->lock);
    if (ok) break;
  }
}

/* Undeferred with an event, outside any team: the task is complete only when the event is
 * fulfilled too, and nothing but its encountering thread could wait for it. */
static void wait_event(tomp_xtask_t *x) {
  tomp_wait_while_eq(&x->done, 0);
  while (tomp_load_acq(&x->done) != 2)
    tomp_cpu_relax();
}

/* Undeferred task x has an event (detach).  OpenMP 5.2 sec. 12.5 (task construct): for an
 * undeferred task the encountering task "cannot be resumed until execution of the
 * structured block that is associated with the generated task is completed", while "a
 * detachable task is completed when the execution of its associated structured block is
 * completed and the allow-completion event is fulfilled".  So in a team the encountering
 * task goes on once the body has ended, and x is counted as a child like a deferred task
 * (taskwait, taskgroup and barriers wait for its event); the encountering thread's
 * reference becomes the task's own, which complete() drops.  Called before the body's share
 * of x->pending goes, so whichever of body end and fulfilment comes second completes x
 * through the deferred path, and the encountering thread must not touch x afterwards.
 * Outside any team the encountering thread waits for the event (wait_event). */
static void count_detached(tomp_team_t *team, tomp_task_t *p, tomp_xtask_t *x) {
  count_deferred(p, x);
  count_task(tomp_self, team, team->tasks);
  x->hold = 0;
}

/* An undeferred task is complete before its encountering task goes on, so no taskwait,
 * taskgroup or barrier can be waiting for it and it needs no counting (nor a reference on
 * its parent, which stays suspended meanwhile).  With an event, see detached_body_done. */
static inline __attribute__((always_inline)) void
run_undeferred(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *p, tomp_xtask_t *x,
               const tomp_depend_t *deps, size_t ndeps) {
  if (ndeps) wait_deps(thr, team, p, x, deps, ndeps);
  tomp_store_rlx(&x->state, TOMP_XS_RUNNING);
  if (tomp_unlikely(x->detached)) {
    if (team) {
      count_detached(team, p, x);
      run_task(thr, x);
      return;
    }
    run_task(thr, x);
    wait_event(x);
  } else {
    run_task(thr, x);
  }
  undeferred_release(x);
}

void tomp_task_begin_included(tomp_thread_t *thr, tomp_task_t *t, void *exit_frame,
                              tomp_included_t *save) {
  tomp_task_t *p = tomp_load_rlx(&thr->task);
  tomp_xtask_t *x = tomp_xtask(t);
  t->flags |= TOMP_TASK_UNDEFERRED;
  x->hold = 1;
  ompt_task_create(thr, p, x, false);
  save->state = thr->state;
  save->wait_id = thr->wait_id;
  tomp_store_rlx(&x->state, TOMP_XS_RUNNING);
  tomp_task_enter(thr, t, p, exit_frame, TOMP_ENTER_INCLUDED);
  ompt_task_schedule(p, TOMP_EV_TASK_SWITCH, t);
  tomp_set_state(thr, task_work_state(thr), 0);
}

/* run_task_body's end and run_undeferred's, for a body the front-end ran */
void tomp_task_end_included(tomp_thread_t *thr, tomp_task_t *t, const tomp_included_t *save) {
  tomp_xtask_t *x = tomp_xtask(t);
  tomp_task_t *p = t->parent;
  tomp_task_leave(thr, t, p, TOMP_ENTER_INCLUDED);
  if (x->detached) {
    tomp_set_state(thr, save->state, save->wait_id);
    tomp_team_t *team = thr->team;
    if (team) count_detached(team, p, x);
    if (tomp_listening())
      ompt_detached_end(x, false, p);
    else if (__atomic_sub_fetch(&x->pending, 1, __ATOMIC_ACQ_REL) == 0)
      complete(x);
    if (team) return; /* x is the team's now (count_detached) */
    wait_event(x);
  } else {
    ompt_task_schedule(t, end_status(t), p);
    tomp_set_state(thr, save->state, save->wait_id);
    complete(x);
  }
  undeferred_release(x);
}

/* submit's body: undeferred is the caller's runs_now or the task's own flag; room_made:
 * alloc reserved room for exactly these dependences. */
static inline __attribute__((always_inline)) void
submit_body(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *p, tomp_xtask_t *x,
            const tomp_depend_t *deps, size_t ndeps, bool undeferred, const bool room_made) {
  if (undeferred) x->t.flags |= TOMP_TASK_UNDEFERRED;
  x->hold = undeferred;
  if (ndeps && !room_made) dep_nodes(x, ndeps);
  if (!undeferred) count_deferred(p, x);
  ompt_task_create(thr, p, x, ndeps != 0);
  if (!undeferred)
    submit_deferred(thr, team, p, x, deps, ndeps);
  else
    run_undeferred(thr, team, p, x, deps, ndeps);
}

void tomp_task_submit(tomp_thread_t *thr, tomp_task_t *t, const tomp_depend_t *deps, size_t ndeps) {
  /* scalar loads: a 16-byte load of both would stall on the two 8-byte stores made when
   * the previous task switched thr->task */
  tomp_team_t *team = tomp_load_rlx(&thr->team);
  tomp_task_t *p = tomp_load_rlx(&thr->task);
  tomp_xtask_t *x = tomp_xtask(t);
  if (!team) ndeps = 0; /* outside a team every earlier task has completed */
  bool undeferred =
      (t->flags & TOMP_TASK_UNDEFERRED) || runs_now(thr, team, p, 0, ndeps != 0, x->detached);
  submit_body(thr, team, p, x, deps, ndeps, undeferred, false);
}

/* alloc, fill and submit in one call: what runs at once is decided once, and the tool path
 * (where every task takes this way) pays one call, not two. */
void tomp_task_create(tomp_thread_t *thr, const tomp_task_spec_t *s, const tomp_depend_t *deps) {
  tomp_team_t *team = tomp_load_rlx(&thr->team);
  tomp_task_t *p = tomp_load_rlx(&thr->task);
  size_t ndeps = team ? s->ndeps : 0; /* outside a team every earlier task has completed */
  bool now = runs_now(thr, team, p, s->flags, ndeps != 0, s->detach);
  void *args;
  tomp_xtask_t *x = alloc_body(thr, p, s, ndeps, now, &args);
  if (args != s->in_place) {
    if (s->copy_from && s->arg_size) {
      if (s->cpyfn)
        s->cpyfn(args, (void *)s->copy_from);
      else
        memcpy(args, s->copy_from, s->arg_size);
    }
    if (s->fill) s->fill(args, s->fill_ctx);
  }
  /* now covers what alloc marked undeferred (if(0), final, outside a team, in place) */
  submit_body(thr, team, p, x, deps, ndeps, now, true);
}

#define CLS_PLAIN TOMP_CLS_PLAIN

/* Inlined twice: observed == false is the no-listener copy (GOMP_task's fast path after its one
 * TOMP_OBSERVED_PATH test), with every event site folded away. */
static inline __attribute__((always_inline)) void
undeferred(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size, unsigned f,
           const bool observed) {
  tomp_task_t *p = thr->task;
  bool included = p->in_final;
  task_ctx_t *c = thr->task_ctx;
  tomp_xtask_t *x;
  if (tomp_likely(c && (x = c->free[CLS_PLAIN]) != NULL)) {
    c->free[CLS_PLAIN] = x->lq.next;
    if (c->nfree[CLS_PLAIN]) c->nfree[CLS_PLAIN]--;
    xtask_init(x, c, CLS_PLAIN);
  } else {
    void *unused;
    x = xtask_alloc(thr, 0, 0, 1, &unused);
  }
  x->t.parent = p;
  x->t.team = thr->team;
  x->t.icv = p->icv;
  x->t.flags = TOMP_TASK_EXPLICIT | TOMP_TASK_UNDEFERRED |
               ((f & TOMP_TF_UNTIED) ? TOMP_TASK_UNTIED : 0) |
               ((f & TOMP_TF_FINAL) || included ? TOMP_TASK_FINAL : 0) |
               ((f & TOMP_TF_MERGEABLE) ? TOMP_TASK_MERGEABLE : 0) |
               ((f & TOMP_TF_MERGEABLE) && included ? TOMP_TASK_MERGED : 0);
  x->t.fn = fn;
  x->t.data = data;
  x->arg_size = arg_size32(arg_size);
  x->t.taskgroup = p->taskgroup;
  x->t.in_final = included || (f & TOMP_TF_FINAL);
  x->t.frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  x->refs = 1;
  x->pending = 1;
  x->hold = 1;
  if (observed) ompt_task_create(thr, p, x, false);

  /* run_task and complete() for this case: nobody waits on the state of an undeferred task
   * without dependences or event, and it is nobody's predecessor */
  int saved_state = thr->state;
  uint64_t saved_id = thr->wait_id;
  bool skip = tomp_unlikely(tomp_g.cancellation) && tomp_task_discarded(x);
  x->state = TOMP_XS_RUNNING;
  if (observed && tomp_unlikely(skip) && tomp_listening()) ompt_discarded(thr, x);
  tomp_task_enter(thr, &x->t, p, __builtin_frame_address(0), TOMP_ENTER_INCLUDED);
  if (observed && !skip) ompt_task_schedule(p, TOMP_EV_TASK_SWITCH, &x->t);
  tomp_set_state(thr, task_work_state(thr), 0);
  if (tomp_likely(!skip)) fn(data);
  tomp_task_leave(thr, &x->t, p, TOMP_ENTER_INCLUDED);
  if (observed && !skip) ompt_task_schedule(&x->t, end_status(&x->t), p);
  tomp_set_state(thr, saved_state, saved_id);
  tomp_store_rlx(&x->state, TOMP_XS_DONE);

  /* deferred children of x hold references; without any, nobody else can reach x */
  if (tomp_likely(xtask_last_ref(x))) {
    if (tomp_unlikely(x->pinfo.deps != NULL)) tomp_dep_table_free(&x->pinfo);
    if (tomp_likely(x->cls == CLS_PLAIN && c == thr->task_ctx && keep_free(c, CLS_PLAIN))) {
      x->lq.next = c->free[CLS_PLAIN];
      c->free[CLS_PLAIN] = x;
      c->nfree[CLS_PLAIN]++;
    } else {
      xtask_free(x);
    }
  } else {
    undeferred_release(x);
  }
}

void tomp_task_undeferred(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size,
                          unsigned f) {
  undeferred(thr, fn, data, arg_size, f, true);
}

void tomp_task_undeferred_quiet(tomp_thread_t *thr, void (*fn)(void *), void *data,
                                 size_t arg_size, unsigned f) {
  undeferred(thr, fn, data, arg_size, f, false);
}

void tomp_task_tiny_release(tomp_task_ctx_t *c, tomp_xtask_t *x) {
  /* the block leaves the list for longer: count it out, its free counts it in again */
  if (c->nfree[CLS_PLAIN]) c->nfree[CLS_PLAIN]--;
  undeferred_release(x);
}

/* ---- Team hooks ------------------------------------------------------------------------ */

void tomp_team_tasks_init(tomp_team_t *team) {
  tomp_team_tasks_t *tt = team->tasks;
  if (!tt) {
    tt = aligned_alloc(TOMP_CACHELINE, sizeof *tt);
    if (!tt) tomp_fatal("out of memory for a team's task queue");
    memset(tt, 0, sizeof *tt);
    team->tasks = tt;
  }
  /* as they were at the last join, nearly always: the workers' barrier polls these lines */
  TOMP_SET(tt->ready.head, NULL);
  TOMP_SET(tt->ready.tail, NULL);
  TOMP_SET(tt->nready, 0);
  TOMP_SET(tt->ntasks, 0);
  TOMP_SET(tt->foreign, 0);
  /* Deques are empty after every region and need no reset; no worker of this team reads its
   * task state here (tomp_fork waited for their team_busy), so the table may be replaced. */
  if (tt->ndq < team->nthreads) {
    unsigned n = team->nthreads;
    tomp_deque_t **dq = tomp_calloc(n, sizeof *dq);
    for (unsigned i = 0; i < n; i++) {
      if (i < tt->ndq) {
        dq[i] = tt->dq[i];
        continue;
      }
      dq[i] = &dq_none; /* made at the thread's first push */
    }
    free(tt->dq);
    tt->dq = dq;
    tt->ndq = n;
  }
}

static void tomp_team_tasks_free(tomp_team_tasks_t *tt) {
  for (unsigned i = 0; i < tt->ndq; i++)
    if (tt->dq[i] != &dq_none) free(tt->dq[i]);
  free(tt->dq);
  free(tt);
}

void tomp_team_tasks_fini(tomp_team_t *team) {
  tomp_team_tasks_t *tt = team->tasks;
  if (tt && __atomic_load_n(&tt->foreign, __ATOMIC_SEQ_CST)) {
    tomp_mutex_lock(&tt->lock); /* see complete() */
    tomp_mutex_unlock(&tt->lock);
    tt->foreign = 0;
  }
  for (unsigned i = 0; i < team->nthreads; i++) {
    tomp_pinfo_t *pi = team->implicit[i].ext;
    if (!pi) continue;
    tomp_dep_table_free(pi);
    free(pi);
    team->implicit[i].ext = NULL;
  }
  if (team->depth == ~0u && team->tasks) {
    /* the struct goes with the team; workers may still be leaving the barrier's polling */
    for (unsigned i = 1; i < team->nthreads; i++) tomp_worker_wait_idle(team->threads[i]);
    tomp_team_tasks_free(team->tasks);
    team->tasks = NULL;
  }
}
