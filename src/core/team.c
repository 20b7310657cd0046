/* Fork and join of parallel regions.
 *
 * A master caches one team struct per nesting depth (thr->team_cache); the struct keeps the
 * workers it last used parked on their go words, so a repeated region of the same size is:
 * per worker one idle check and one exchange, then the closing barrier. */
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "count.h"
#include "internal.h"

#define NCACHE (sizeof(((tomp_thread_t *)0)->team_cache) / sizeof(tomp_team_t *))

/* A contention group is an initial task (the initial thread's, a target region's on the
 * host, a host team's) and every thread its parallel regions bring in; thread-limit-var
 * bounds each group separately.  Its counter lives in the initial task. */
static uint32_t *cg_counter(tomp_thread_t *thr) {
  if (thr->team) return thr->team->cg_busy;
  tomp_task_t *t = thr->task;
  while (t->parent) t = t->parent;
  return &t->cg_busy;
}

/* The const bool `observed` of the *_impl functions below is always a constant: each is
 * instantiated once with a tool attached and once without, so the no-tool copies carry no
 * event-site test at all (the one test is the caller's choice of copy). */
static inline __attribute__((always_inline)) unsigned team_size_impl(tomp_thread_t *thr,
                                                                     unsigned requested,
                                                                     bool if_clause,
                                                                     const bool observed) {
  tomp_team_t *cur = thr->team;
  tomp_icv_t *icv = &thr->task->icv;
  if (observed) thr->ev_requested = requested ? requested : icv->nthreads;
  if (!if_clause) return 1;
  unsigned active = cur ? cur->active_level : 0;
  if (active >= icv->max_active_levels) return 1;
  unsigned n = requested ? requested : icv->nthreads;
  if (n == 0) n = 1;
  /* threads already busy in this contention group count against thread-limit-var */
  unsigned busy = 1 + tomp_load_rlx(cg_counter(thr));
  unsigned avail = icv->thread_limit > busy ? icv->thread_limit - busy + 1 : 1;
  if (n > avail) n = avail;
  if (icv->dyn && n > tomp_num_procs) n = tomp_num_procs;
  return n;
}

unsigned tomp_team_size(tomp_thread_t *thr, unsigned requested, bool if_clause) {
  if (tomp_listening()) return team_size_impl(thr, requested, if_clause, true);
  return team_size_impl(thr, requested, if_clause, false);
}

static void team_alloc_arrays(tomp_team_t *t, unsigned n) {
  if (n <= t->capacity) return;
  unsigned cap = t->capacity ? t->capacity : 4;
  while (cap < n) cap *= 2;
  tomp_thread_t **th = tomp_calloc(cap, sizeof *th);
  if (t->threads) memcpy(th, t->threads, t->capacity * sizeof *th);
  free(t->threads);
  t->threads = th;
  free(t->implicit);
  t->implicit = aligned_alloc(TOMP_CACHELINE, ((cap * sizeof(tomp_task_t)) + TOMP_CACHELINE - 1) &
                                                  ~(size_t)(TOMP_CACHELINE - 1));
  if (!t->implicit) tomp_fatal("out of memory for %u implicit tasks", cap);
  t->capacity = cap;
}

static tomp_team_t *team_new(unsigned depth) {
  tomp_team_t *t = aligned_alloc(TOMP_CACHELINE, (sizeof *t + TOMP_CACHELINE - 1) &
                                                     ~(size_t)(TOMP_CACHELINE - 1));
  if (!t) tomp_fatal("out of memory for a team");
  memset(t, 0, sizeof *t);
  t->depth = depth;
  /* not set up (size 0), but never "all arrived" while no thread has (tomp_barrier_size) */
  t->bar.nthreads = 1;
  tomp_team_ws_init(t);
  return t;
}

void tomp_team_free(tomp_team_t *t) {
  for (unsigned i = 1; i <= t->nreserved; i++) tomp_worker_put(t->threads[i]);
  tomp_team_ws_fini(t);
  tomp_barrier_fini(&t->bar);
  tomp_display_affinity_free(t);
  free(t->threads);
  free(t->implicit);
  free(t);
}

void tomp_team_cache_forget_workers(tomp_thread_t *thr) {
  for (unsigned d = 0; d < NCACHE; d++)
    if (thr->team_cache[d]) thr->team_cache[d]->nreserved = 0;
}

/* Each new level consumes the next entry of the OMP_NUM_THREADS / OMP_PROC_BIND lists. */
static void child_icv(tomp_icv_t *c, const tomp_icv_t *p) {
  *c = *p;
  if (p->nthreads_lvl + 1u < tomp_g.nthreads_list_len) {
    c->nthreads_lvl = p->nthreads_lvl + 1;
    c->nthreads = tomp_g.nthreads_list[c->nthreads_lvl];
  }
  if (p->bind_lvl + 1u < tomp_g.bind_list_len) {
    c->bind_lvl = p->bind_lvl + 1;
    c->bind = tomp_g.bind_list[c->bind_lvl];
  }
}

/* The per-region fields of a team.  A cached team mostly gets the values it had: storing
 * them again would take lines its workers hold and make each re-read them after the fork,
 * so with workers (shared) a field is stored only if it changes (TOMP_SET); a team of one
 * has nobody to disturb and saves the compares. */
#define TEAM_SET(x, v)                                                                             \
  do {                                                                                             \
    if (shared)                                                                                    \
      TOMP_SET(x, v);                                                                              \
    else                                                                                           \
      (x) = (v);                                                                                   \
  } while (0)
static inline __attribute__((always_inline)) void
team_set_fields(tomp_team_t *team, tomp_thread_t *thr, tomp_team_t *parent, unsigned level,
                unsigned n, uint32_t *cg, const bool shared) {
  TEAM_SET(team->nthreads, n);
  TEAM_SET(team->level, level);
  TEAM_SET(team->active_level, (parent ? parent->active_level : 0) + (n > 1));
  TEAM_SET(team->parent, parent);
  TEAM_SET(team->parent_tid, thr->tid);
  TEAM_SET(team->ws_initial, 0);
  TEAM_SET(team->cancelled, 0);
  TEAM_SET(team->scratch, NULL);
  TEAM_SET(team->codeptr, thr->codeptr);
  TEAM_SET(team->parallel_data.value, 0);
  TEAM_SET(team->single_count, 0);
  /* collector: ids are per instance */
  if (!shared || __atomic_load_n(&team->coll_prid, __ATOMIC_RELAXED))
    __atomic_store_n(&team->coll_prid, 0, __ATOMIC_RELAXED);
  /* a team of one sets its barrier up only if it needs it (barrier.c, nobody_to_wait_for) */
  if (shared && tomp_unlikely(team->bar.size != n)) tomp_barrier_size(&team->bar, n);
  TEAM_SET(team->cg_busy, cg);
  TEAM_SET(team->threads[0], thr);
}

/* ---- fork, step by step (each step inlined into fork_impl) ---- */

/* Claim the workers of a team of *n against thread-limit-var in one step: forks running at
 * the same time in one contention group must not all take the threads tomp_team_size saw
 * free.  *n becomes what the group allows; returns how many workers were claimed. */
static inline __attribute__((always_inline)) unsigned fork_claim(uint32_t *cg,
                                                                 const tomp_task_t *ptask,
                                                                 unsigned *n) {
  if (*n <= 1) return 0;
  unsigned limit = ptask->icv.thread_limit, claimed;
  uint32_t busy = tomp_load_rlx(cg);
  do {
    unsigned avail = limit > busy + 1 ? limit - busy - 1 : 0;
    claimed = *n - 1 < avail ? *n - 1 : avail;
    TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, RMW, claimed != 0);
  } while (claimed && !__atomic_compare_exchange_n(cg, &busy, busy + claimed, false,
                                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  *n = claimed + 1;
  return claimed;
}

/* The team struct for nesting depth `depth`: the master's cached one, or one of the heap's
 * beyond the cache (freed at join). */
static inline __attribute__((always_inline)) tomp_team_t *fork_team_struct(tomp_thread_t *thr,
                                                                           unsigned depth) {
  tomp_team_t *team;
  if (depth < NCACHE) {
    team = thr->team_cache[depth];
    if (!team) team = thr->team_cache[depth] = team_new(depth);
  } else {
    team = team_new(~0u);
  }
  return team;
}

/* Workers: reuse the parked ones, return surplus to the pool, recruit the rest; the claim
 * on the contention group shrinks to the workers found.  Nothing of the team is rewritten
 * (its arrays included) before every worker it keeps is out of the previous region's shared
 * state (team_busy, see barrier.c).  Returns the team's size. */
static inline __attribute__((always_inline)) unsigned fork_workers(tomp_team_t *team, unsigned n,
                                                                   uint32_t *cg, unsigned claimed) {
  while (team->nreserved >= n && team->nreserved > 0)
    tomp_worker_put(team->threads[team->nreserved--]);
  for (unsigned i = 1; i <= team->nreserved; i++) tomp_worker_wait_out(team->threads[i]);
  team_alloc_arrays(team, n);
  while (team->nreserved + 1 < n) {
    tomp_thread_t *w = tomp_worker_get();
    if (!w) break;
    team->threads[++team->nreserved] = w;
  }
  n = team->nreserved + 1;
  if (n - 1 < claimed) __atomic_sub_fetch(cg, claimed - (n - 1), __ATOMIC_RELAXED);
  return n;
}

/* The team's implicit tasks, children of ptask with the new level's ICVs. */
static inline __attribute__((always_inline)) void
fork_implicit_tasks(tomp_team_t *team, tomp_task_t *ptask, unsigned n, unsigned bind) {
  tomp_icv_t icv;
  child_icv(&icv, &ptask->icv);
  /* a proc_bind clause becomes the new level's bind-var unless binding is off or the
   * OMP_PROC_BIND list names this level (libgomp does the same) */
  if (bind && ptask->icv.bind != TOMP_BIND_FALSE && icv.bind_lvl == ptask->icv.bind_lvl)
    icv.bind = (unsigned char)bind;
  for (unsigned i = 0; i < n; i++) {
    tomp_task_t *it = &team->implicit[i];
    memset(it, 0, sizeof *it);
    it->parent = ptask;
    it->team = team;
    it->icv = icv;
    it->flags = TOMP_TASK_IMPLICIT;
    it->thread_num = i;
    it->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    it->frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  }
}

/* The master becomes thread 0 of team, in its implicit task (its position in the parent
 * team is kept in the team until join). */
static inline __attribute__((always_inline)) void fork_master_enter(tomp_thread_t *thr,
                                                                    tomp_team_t *team) {
  tomp_thread_pos_enter(thr, &team->saved, &team->implicit[0], team->ws_initial,
                        ompt_state_work_parallel);
  thr->team = team;
  thr->tid = 0;
}

/* ---- Starting the workers ---- */

/* Hand workers [from, to) their parts.  Those asleep on the team's park word are woken
 * together after the last hand-over, by one futex call.  (When the tree release below is
 * taken while some workers sleep, its first call wakes all of them; those whose part is not
 * there yet poll for it a while: thread.c, park.) */
static inline __attribute__((always_inline)) void
fork_hand_range(tomp_team_t *team, unsigned from, unsigned to, void (*fn)(void *), void *data) {
  bool wake = false;
  for (unsigned i = from; i < to; i++)
    wake |= tomp_worker_hand(team->threads[i], team, i, fn, data);
  if (tomp_unlikely(wake)) tomp_park_wake(tomp_team_park_word(team));
}

/* ---- The tree-shaped release of a large team ---- */

/* Worker i starts workers i * FANOUT + 1 .. i * FANOUT + FANOUT (the primary 1 .. FANOUT)
 * before it runs the body: each thread wakes at most FANOUT others, so the last worker starts
 * after log_FANOUT(N) hand-overs instead of N - 1 made one by one by the primary.  The body
 * comes through team->tree_fn, stored before the first worker is started. */
static void tree_body(void *data) {
  tomp_thread_t *t = tomp_self;
  tomp_team_t *team = t->team;
  void (*fn)(void *) = team->tree_fn;
  unsigned n = team->nthreads, first = t->tid * TOMP_TREE_FANOUT + 1;
  fork_hand_range(team, first, n < first + TOMP_TREE_FANOUT ? n : first + TOMP_TREE_FANOUT,
                  tree_body, data);
  /* the exit frame is the frame that calls the body: this one */
  tomp_ev_exit_frame(t->task, __builtin_frame_address(0));
  fn(data);
  __asm__ volatile("" ::: "memory"); /* not a tail call: the exit frame must stay live */
}

static __attribute__((noinline)) void fork_release_tree(tomp_team_t *team, unsigned n,
                                                        void (*fn)(void *), void *data) {
  TOMP_SET(team->tree_fn, fn);
  fork_hand_range(team, 1, n < TOMP_TREE_FANOUT + 1 ? n : TOMP_TREE_FANOUT + 1, tree_body, data);
}

static inline __attribute__((always_inline)) void fork_impl(void (*fn)(void *), void *data,
                                                            unsigned n, unsigned bind,
                                                            void (*prep)(tomp_team_t *, void *),
                                                            void *prep_arg, const bool observed) {
  tomp_thread_t *thr = tomp_thread();
  tomp_team_t *parent = thr->team;
  tomp_task_t *ptask = thr->task;
  unsigned level = parent ? parent->level + 1 : 1;

  uint32_t *cg = cg_counter(thr);
  unsigned claimed = fork_claim(cg, ptask, &n);
  tomp_team_t *team = fork_team_struct(thr, level - 1);
  n = fork_workers(team, n, cg, claimed);

  if (n > 1)
    team_set_fields(team, thr, parent, level, n, cg, true);
  else
    team_set_fields(team, thr, parent, level, n, cg, false);
  tomp_team_tasks_init(team);
  fork_implicit_tasks(team, ptask, n, bind);
  if (observed) {
    team->fn = fn;
    team->fn_data = data;
    tomp_ev_fork_arm(team, n);
    tomp_ev_fork(thr, team, ptask);
  }
  tomp_team_ws_reset(team);
  if (prep) prep(team, prep_arg);
  tomp_affinity_team(thr, team, bind);

  /* The master is in the team before any worker can run in it: a debugger judges whether a
   * region is still on by its primary thread (tools/ompd, team_active), and a worker may run
   * a task of the region before a descheduled master would get here. */
  fork_master_enter(thr, team);
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, EPISODE, n > 1);
  /* the implicit tasks written here are read by their threads */
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, WRITE,
                 n > 1 ? (n - 1) * ((sizeof(tomp_task_t) + TOMP_CACHELINE - 1) / TOMP_CACHELINE) : 0);
  /* A team whose workers sleep is released flat: its wake-up costs far more than N-1
   * exchanges in a row, and one wake-up after them finds every sleeper with its part (the
   * tree would wake them all at its first step, most of them before their part is there). */
  if (tomp_unlikely(n > TOMP_TREE_MIN) && !tomp_worker_parked(team->threads[1]))
    fork_release_tree(team, n, fn, data);
  else if (n > 1)
    fork_hand_range(team, 1, n, fn, data);

  tomp_bind_thread(thr, team, bind);
  if (observed) {
    tomp_ev_implicit_task(thr, ompt_scope_begin);
    /* A front-end that calls fn itself does so from its entry point, whose frame is the
     * encountering task's enter_frame; tomp_parallel overrides this with its own frame. */
    tomp_ev_exit_frame(thr->task, ptask->frame.enter_frame.ptr);
  }
}

static inline __attribute__((always_inline)) void join_impl(const bool observed) {
  tomp_thread_t *thr = tomp_self;
  tomp_team_t *team = thr->team;
  if (observed) thr->task->frame.exit_frame.ptr = NULL;
  if (observed)
    tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_parallel, false);
  else
    tomp_barrier_wait_quiet(thr, ompt_state_wait_barrier_implicit_parallel, false);
  if (observed) tomp_ev_implicit_task(thr, ompt_scope_end);
  tomp_team_tasks_fini(team);
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, RMW, team->nthreads > 1);
  if (team->nthreads > 1) __atomic_sub_fetch(team->cg_busy, team->nthreads - 1, __ATOMIC_RELAXED);
  thr->team = team->parent;
  thr->tid = team->parent_tid;
  tomp_thread_pos_leave(thr, &team->saved);
  if (observed) tomp_ev_join(thr, team, thr->task);
  if (team->depth == ~0u) tomp_team_free(team);
}

/* Out of line, so that tomp_parallel_quiet keeps the shape tomp_parallel had (fork and join
 * as calls): inlining both into one function made 2-thread fork/join 8-11% slower. */
static __attribute__((noinline)) void fork_observed(void (*fn)(void *), void *data, unsigned n,
                                                unsigned bind,
                                                void (*prep)(tomp_team_t *, void *),
                                                void *prep_arg) {
  fork_impl(fn, data, n, bind, prep, prep_arg, true);
}
static __attribute__((noinline)) void fork_quiet(void (*fn)(void *), void *data, unsigned n,
                                                  unsigned bind,
                                                  void (*prep)(tomp_team_t *, void *),
                                                  void *prep_arg) {
  fork_impl(fn, data, n, bind, prep, prep_arg, false);
}
static __attribute__((noinline)) void join_observed(void) { join_impl(true); }
static __attribute__((noinline)) void join_quiet(void) { join_impl(false); }

void tomp_fork(void (*fn)(void *), void *data, unsigned n, unsigned bind,
               void (*prep)(tomp_team_t *, void *), void *prep_arg) {
  if (tomp_listening())
    fork_observed(fn, data, n, bind, prep, prep_arg);
  else
    fork_quiet(fn, data, n, bind, prep, prep_arg);
}

void tomp_join(void) {
  if (tomp_listening())
    join_observed();
  else
    join_quiet();
}

void tomp_parallel(void (*fn)(void *), void *data, unsigned nthreads, unsigned bind) {
  tomp_fork(fn, data, nthreads, bind, NULL, NULL);
  tomp_ev_exit_frame(tomp_self->task, __builtin_frame_address(0));
  fn(data);
  tomp_join();
}

void tomp_parallel_quiet(void (*fn)(void *), void *data, unsigned requested, unsigned bind) {
  fork_quiet(fn, data, team_size_impl(tomp_thread(), requested, true, false), bind, NULL, NULL);
  fn(data);
  join_quiet();
}

/* ---- the team at a nesting level (omp_get_ancestor_thread_num, omp_get_team_size, the
 * affinity format's %a) ---- */

tomp_team_t *tomp_team_at(tomp_thread_t *t, int level, unsigned *tid) {
  tomp_team_t *team = t->team;
  unsigned id = t->tid;
  if (!team || level <= 0 || level > (int)team->level) return NULL;
  while (team && (int)team->level > level) {
    id = team->parent_tid;
    team = team->parent;
  }
  *tid = id;
  return team;
}

int tomp_ancestor_thread_num(tomp_thread_t *t, int level) {
  if (level == 0) return 0;
  unsigned tid;
  tomp_team_t *team = tomp_team_at(t, level, &tid);
  return team ? (int)tid : -1;
}
