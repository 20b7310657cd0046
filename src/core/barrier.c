/* The team barrier.
 *
 * A counter: each thread increments arrived; whoever observes "all arrived and no explicit
 * task outstanding" releases the episode by resetting arrived and bumping gen.  Above
 * TOMP_TREE_MIN threads a thread first arrives at its leaf of a combining tree (fan-in
 * TOMP_TREE_FANOUT, a line per node) and only the last arrival at a node goes on up, so the
 * counter takes a few arrivals instead of one per thread and no line serialises more than
 * FANOUT of them: the path is FANOUT x log_FANOUT(N) transfers, not N.  Nobody waits for a
 * particular partner (unlike a tournament or dissemination barrier), which matters when
 * threads outnumber CPUs.  The release stays one write (gen) that every waiter polls, plus
 * one futex wake for all sleepers; docs/benchmarks.md ("Scaling") models both.
 * Threads waiting run queued tasks, spin for the wait policy's budget, then sleep on seq,
 * which changes at release and whenever tasks are posted while someone sleeps.  The "all
 * arrived" and "tasks done" events can happen in either order and on any thread; both sides
 * use sequentially consistent operations so at least one of them sees the other and
 * releases. */
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "internal.h"
#include "task.h"

/* The counting build's operation of a barrier (count.h): the closing one is fork/join's. */
#define BAR_OP(b, ctr) ((ctr) == &(b)->arrived_final ? TOMP_CNT_FORKJOIN : TOMP_CNT_BARRIER)

/* Release the episode if it is complete.  busy: the releasing worker's team_busy word in its
 * closing barrier (else NULL), cleared before the futex wake: the woken thread may take the
 * releaser's CPU at once (threads outnumbering CPUs, a busy machine), and a primary that
 * then forks would wait for that word until the releaser runs again (a yield, or a sleep of
 * some 50 us on a busy machine, once per region or so: LULESH under load).  The wake itself
 * reads nothing of the team: the kernel needs seq's address only.  Inlined into its callers
 * (each passes a constant busy): 2-thread barrier 323 -> 313 instructions (callgrind). */
static inline __attribute__((always_inline)) bool try_release(tomp_team_t *team, uint32_t *ctr,
                                                              uint32_t *busy) {
  tomp_barrier_t *b = &team->bar;
  uint32_t n = b->nthreads;
  TOMP_COUNT_ADD(BAR_OP(b, ctr), RMW, 1);
  if (!__atomic_compare_exchange_n(ctr, &n, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    return false;
  TOMP_COUNT_ADD(TOMP_CNT_BARRIER, EPISODE, ctr == &b->arrived); /* fork counts its own */
  TOMP_COUNT_ADD(BAR_OP(b, ctr), RMW, 2);
  /* A `cancel for` in a loop the runtime never saw (static, inlined by gcc, first construct
   * of its region) is held by the team (cancel.c); it ends with that construct's barrier,
   * this one: everybody has arrived and nobody has left yet. */
  if (tomp_unlikely(tomp_load_rlx(&team->cancelled) & TOMP_CANCEL_WS))
    __atomic_fetch_and(&team->cancelled, ~TOMP_CANCEL_WS, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&b->gen, 1, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&b->seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST)) {
    TOMP_COUNT_ADD(BAR_OP(b, ctr), WAKE, 1);
    if (busy) __atomic_store_n(busy, 0, __ATOMIC_SEQ_CST);
    tomp_futex_wake(&b->seq, 0x7fffffff);
  }
  return true;
}

/* ---- The combining tree ---------------------------------------------------------------- */

void tomp_barrier_size(tomp_barrier_t *b, unsigned n) {
  b->size = n;
  if (n <= TOMP_TREE_MIN || tomp_g.cancellation) {
    b->tree = 0;
    b->nthreads = n;
    return;
  }
  /* nodes level by level, leaves first: level l's node j has parent j / FANOUT of level
   * l + 1; the first level of at most FANOUT nodes hangs on the counter */
  unsigned total = 0, count = n;
  do {
    count = (count + TOMP_TREE_FANOUT - 1) / TOMP_TREE_FANOUT;
    total += count;
  } while (count > TOMP_TREE_FANOUT);
  if (total > b->nodes_cap) {
    free(b->nodes);
    b->nodes = aligned_alloc(TOMP_CACHELINE, total * sizeof *b->nodes);
    if (!b->nodes) tomp_fatal("out of memory for a barrier of %u threads", n);
    b->nodes_cap = total;
  }
  memset(b->nodes, 0, total * sizeof *b->nodes);
  unsigned first = 0, below = n; /* the level's first node and how many it gathers */
  for (;;) {
    unsigned here = (below + TOMP_TREE_FANOUT - 1) / TOMP_TREE_FANOUT;
    bool top = here <= TOMP_TREE_FANOUT;
    for (unsigned j = 0; j < here; j++) {
      tomp_barnode_t *nd = &b->nodes[first + j];
      unsigned left = below - j * TOMP_TREE_FANOUT;
      nd->target = left < TOMP_TREE_FANOUT ? left : TOMP_TREE_FANOUT;
      nd->parent = top ? TOMP_BARNODE_ROOT : first + here + j / TOMP_TREE_FANOUT;
    }
    if (top) {
      b->nthreads = here;
      break;
    }
    first += here;
    below = here;
  }
  b->tree = 1;
}

void tomp_barrier_fini(tomp_barrier_t *b) {
  free(b->nodes);
  b->nodes = NULL;
  b->nodes_cap = 0;
}

/* A tree arrival at counter ctr: up from our leaf while we are the last at a node, which
 * we then reset for the next episode (whoever arrives there next has seen this episode's
 * release, which follows our arrival above).  True if we completed the node below ctr
 * (ctr's own arrival is the caller's). */
static __attribute__((noinline)) bool arrive_tree(tomp_barrier_t *b, tomp_thread_t *thr,
                                                  uint32_t *ctr) {
  unsigned k = ctr == &b->arrived_final;
  for (unsigned i = thr->tid / TOMP_TREE_FANOUT; i != TOMP_BARNODE_ROOT;) {
    tomp_barnode_t *nd = &b->nodes[i];
    TOMP_COUNT_ADD(BAR_OP(b, ctr), RMW, 1);
    if (__atomic_add_fetch(&nd->arrived[k], 1, __ATOMIC_SEQ_CST) != nd->target) return false;
    TOMP_COUNT_ADD(BAR_OP(b, ctr), WRITE, 1);
    tomp_store_rlx(&nd->arrived[k], 0);
    i = nd->parent;
  }
  return true;
}

#define TASK_PACE 64       /* polls a waiter skips after a task when the queue is short */
#define TASK_PACE_QUEUE 8  /* a queue this long is taken from at once */

/* Tasks queued since nobody looked (read by a sleeper after it registered). */
static uint32_t ready_tasks(tomp_team_t *team) { return tomp_task_nready(team); }

void tomp_barrier_tasks_posted_n(tomp_team_t *team, unsigned n) {
  tomp_barrier_t *b = &team->bar;
  /* The poster published the task (a deque's bottom or the shared list's nready,
   * sequentially consistent) before this load; a sleeper increments sleepers before it
   * reads them (tomp_task_nready).  So either we see the sleeper or it sees the task.  A
   * plain load keeps this line, which waiters poll, shared: no transfer per task.  Every
   * sleeper can run any task, so n tasks need at most n of them. */
  if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST)) {
    __atomic_add_fetch(&b->seq, 1, __ATOMIC_SEQ_CST);
    tomp_futex_wake(&b->seq, n < 0x7fffffff ? (int)n : 0x7fffffff);
  }
}

void tomp_barrier_tasks_posted(tomp_team_t *team) { tomp_barrier_tasks_posted_n(team, 1); }

/* "Everyone arrived and no task is outstanding", tested in that order.  A thread creates
 * its tasks before it arrives, so once all have arrived only tasks run inside the barrier
 * can create more, and those keep the count above zero until their children exist.  Read
 * the other way round, the check can pair a count of zero taken before the last thread
 * queued its tasks with that thread's later arrival, and release the barrier with tasks
 * still pending (seen: scope task reductions losing contributions). */
static bool all_done(tomp_team_t *team, uint32_t *ctr) {
  return __atomic_load_n(ctr, __ATOMIC_SEQ_CST) == team->bar.nthreads &&
         tomp_team_ntasks(team) == 0;
}

void tomp_barrier_tasks_done(tomp_team_t *team) {
  tomp_barrier_t *b = &team->bar;
  if (all_done(team, &b->arrived)) try_release(team, &b->arrived, NULL);
  if (all_done(team, &b->arrived_final)) try_release(team, &b->arrived_final, NULL);
}

void tomp_barrier_cancel(tomp_team_t *team) {
  tomp_barrier_t *b = &team->bar;
  __atomic_add_fetch(&b->seq, 1, __ATOMIC_SEQ_CST);
  tomp_futex_wake(&b->seq, 0x7fffffff);
}

/* Leave an episode early because of cancellation: undo our arrival unless the episode
 * completed meanwhile. */
static void withdraw(tomp_barrier_t *b, uint32_t g) {
  uint32_t a = __atomic_load_n(&b->arrived, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&b->gen, __ATOMIC_SEQ_CST) == g && a > 0) {
    if (__atomic_compare_exchange_n(&b->arrived, &a, a - 1, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      return;
  }
}

/* OMPT: a cancellable barrier is a cancellation point of the parallel region; only the
 * region's cancellation ends it early. */
static inline void ompt_barrier_cancel_detected(tomp_thread_t *thr) {
  if (tomp_listening()) tomp_ev_cancel_(thr, ompt_cancel_detected | ompt_cancel_parallel);
}

/* The steps of barrier_impl.  Each is always inlined (but the wait itself), so the copies
 * barrier_impl makes for its constant arguments (observed, worker_end) stay what they were
 * as one function. */
#define STEP static inline __attribute__((always_inline))

STEP bool region_cancelled(tomp_team_t *team, bool cancellable) {
  return cancellable && (tomp_load_acq(&team->cancelled) & TOMP_CANCEL_PARALLEL);
}

/* worker_end: the worker announces whether it may touch the team (see barrier_impl). */
STEP void worker_busy(tomp_thread_t *thr, const bool worker_end, bool busy) {
  if (!worker_end) return;
  /* an exchange or a write of a line the primary reads at the next fork, per poll */
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, WAIT, 1);
  if (busy)
    __atomic_store_n(&thr->team_busy, 1, __ATOMIC_SEQ_CST);
  else
    __atomic_store_n(&thr->team_busy, 0, __ATOMIC_RELEASE);
}

/* A team of one with no task outstanding has nobody to wait for.  Its fork leaves the
 * barrier as the last team of the struct had it (team.c): set it up for one here, where
 * nobody else can be in it. */
static __attribute__((noinline, cold)) void lone_barrier(tomp_barrier_t *b) {
  if (b->size != 1) tomp_barrier_size(b, 1);
}

STEP bool nobody_to_wait_for(tomp_team_t *team) {
  if (team->nthreads != 1) return false;
  if (tomp_team_ntasks(team) == 0) return true;
  lone_barrier(&team->bar);
  return false;
}

/* The arrival counter of this kind of barrier (see tomp_barrier_t). */
STEP uint32_t *counter_of(tomp_barrier_t *b, int kind) {
  return kind == ompt_state_wait_barrier_implicit_parallel ? &b->arrived_final : &b->arrived;
}

/* Our arrival: true when we were the last one in with no task outstanding and released the
 * episode ourselves. */
STEP bool arrive_last(tomp_team_t *team, tomp_thread_t *thr, uint32_t *ctr,
                      const bool worker_end) {
  if (tomp_unlikely(team->bar.tree) && !arrive_tree(&team->bar, thr, ctr)) return false;
  TOMP_COUNT_ADD(BAR_OP(&team->bar, ctr), RMW, 1);
  uint32_t a = __atomic_add_fetch(ctr, 1, __ATOMIC_SEQ_CST);
  return a == team->bar.nthreads && tomp_team_ntasks(team) == 0 &&
         try_release(team, ctr, worker_end ? &thr->team_busy : NULL);
}

/* Run one queued task if there is one (true if it ran one).  Pacing: right after running a
 * task, a waiter leaves other threads' short deques alone for a few polls (its own deque and
 * the shared list it always serves).  With tiny tasks from one producer, taking each one as
 * soon as it is queued makes both threads pay the queue's cache-line transfers per task;
 * pausing lets the queue grow until the producer runs new tasks itself (the cut-off), which
 * is far cheaper.  Long queues and long tasks are not delayed noticeably. */
STEP bool run_a_task(tomp_thread_t *thr, tomp_team_t *team, unsigned since_task) {
  /* No explicit task outstanding, none queued: skip the scans of every thread's deque (a
   * waiter's polls would cost O(team size) each, and a barrier O(team size^2) with a team
   * far larger than the machine) */
  if (tomp_team_ntasks(team) == 0) return false;
  return tomp_task_run_queued(thr, since_task >= TASK_PACE || ready_tasks(team) >= TASK_PACE_QUEUE);
}

/* Sleep on seq until something changes.  Register first, then sample seq, then re-check
 * everything a waker changes before it looks at sleepers. */
STEP void sleep_once(tomp_thread_t *thr, tomp_team_t *team, uint32_t *ctr, uint32_t g,
                     bool cancellable, const bool worker_end) {
  tomp_barrier_t *b = &team->bar;
  TOMP_COUNT_ADD(BAR_OP(b, ctr), WAIT, 3); /* sleepers up and down, the futex wait */
  __atomic_add_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
  uint32_t s = __atomic_load_n(&b->seq, __ATOMIC_SEQ_CST);
  /* a poster counts its task (ntasks) before it queues it and looks at sleepers after */
  if (tomp_team_ntasks(team) != 0 && ready_tasks(team) != 0) {
    /* a task was queued meanwhile: take it instead of sleeping */
  } else if (__atomic_load_n(&b->gen, __ATOMIC_SEQ_CST) == g &&
             !region_cancelled(team, cancellable) && tomp_team_ntasks(team) == 0 &&
             __atomic_load_n(ctr, __ATOMIC_SEQ_CST) != b->nthreads) {
    worker_busy(thr, worker_end, false);
    tomp_futex_wait(&b->seq, s);
  } else if (__atomic_load_n(&b->gen, __ATOMIC_SEQ_CST) == g &&
             !region_cancelled(team, cancellable) && tomp_team_ntasks(team) != 0) {
    worker_busy(thr, worker_end, false);
    tomp_futex_wait(&b->seq, s); /* tasks exist but none queued for us: wait for a post */
  }
  __atomic_sub_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
}

/* Wait for episode g to be released (by us or another thread), running tasks meanwhile;
 * true if the region's cancellation ended the wait (our arrival withdrawn).  Out of line:
 * only a thread that has to wait comes here, and barrier_impl's own path (a team of one,
 * the last to arrive) then needs a smaller frame (10 instructions fewer per barrier). */
static __attribute__((noinline)) bool wait_release(tomp_thread_t *thr, tomp_team_t *team,
                                                   uint32_t *ctr, uint32_t g, int kind,
                                                   bool cancellable, const bool worker_end) {
  tomp_barrier_t *b = &team->bar;
  unsigned long spin = 0, budget = tomp_spins();
  unsigned since_task = TASK_PACE;
  for (;;) {
    worker_busy(thr, worker_end, true);
    if (__atomic_load_n(&b->gen, __ATOMIC_SEQ_CST) != g) return false;
    if (region_cancelled(team, cancellable)) {
      withdraw(b, g);
      return true;
    }
    if (run_a_task(thr, team, since_task)) {
      tomp_set_state(thr, kind, (uint64_t)(uintptr_t)b);
      spin = 0;
      since_task = 0;
      continue;
    }
    since_task++;
    /* no task to run: the slots of those we ran (and any their own tasks took) go back
     * before we look at the count or sleep */
    tomp_task_settle(thr);
    if (all_done(team, ctr) && try_release(team, ctr, worker_end ? &thr->team_busy : NULL))
      return false;
    if (++spin < budget) {
      worker_busy(thr, worker_end, false);
      tomp_wait_pause();
      continue;
    }
    sleep_once(thr, team, ctr, g, cancellable, worker_end);
    spin = budget / 2;
  }
}

/* observed and worker_end are constants: one copy with a tool attached, one without (see
 * team.c), and a worker's closing barrier without a tool (worker_end).  The worker then
 * clears thr->team_busy whenever it pauses or sleeps and sets it, sequentially consistent,
 * before it next looks at the episode; the thread that released the episode bumped gen
 * (sequentially consistent) before its next fork reads team_busy.  So either the worker sees
 * the release and leaves without touching the team, or the fork sees it busy and waits.
 * With 4 threads on 2 CPUs this saves a worker one scheduling slot per region: the fork no
 * longer waits for it to run just to leave the barrier. */
static inline __attribute__((always_inline)) bool barrier_impl(tomp_thread_t *thr, int kind,
                                                               bool cancellable,
                                                               const bool observed,
                                                               const bool worker_end) {
  tomp_team_t *team = thr->team;
  tomp_barrier_t *b = &team->bar;
  int saved = thr->state;
  if (region_cancelled(team, cancellable)) {
    if (observed) ompt_barrier_cancel_detected(thr);
    return true;
  }
  /* OMPT: the implicit barrier of a parallel region reports the region's codeptr_ra on every
   * thread; other barriers the entry point's. */
  bool ev = observed && tomp_ev_barrier_wanted(thr);
  const void *ra = NULL;
  if (ev) {
    ra = kind == ompt_state_wait_barrier_implicit_parallel ? team->codeptr : thr->codeptr;
    tomp_ev_barrier_(thr, kind, ompt_scope_begin, false, ra);
  }
  tomp_set_state(thr, kind, (uint64_t)(uintptr_t)b);
  if (ev) tomp_ev_barrier_(thr, kind, ompt_scope_begin, true, ra);

  bool cancelled = false;
  tomp_task_settle(thr); /* the count is exact once every thread arrived (task.h) */
  if (nobody_to_wait_for(team)) goto out;
  uint32_t g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
  uint32_t *ctr = counter_of(b, kind);
  if (arrive_last(team, thr, ctr, worker_end)) goto out;
  cancelled = wait_release(thr, team, ctr, g, kind, cancellable, worker_end);
out:
  worker_busy(thr, worker_end, false);
  if (ev) tomp_ev_barrier_(thr, kind, ompt_scope_end, true, ra);
  tomp_set_state(thr, saved, 0);
  if (ev) tomp_ev_barrier_(thr, kind, ompt_scope_end, false, ra);
  if (observed && cancelled) ompt_barrier_cancel_detected(thr);
  return cancelled;
}

static __attribute__((noinline)) bool barrier_observed(tomp_thread_t *thr, int kind,
                                                   bool cancellable) {
  return barrier_impl(thr, kind, cancellable, true, false);
}

bool tomp_barrier_wait_quiet(tomp_thread_t *thr, int kind, bool cancellable) {
  return barrier_impl(thr, kind, cancellable, false, false);
}

void tomp_barrier_wait_worker_end(tomp_thread_t *thr) {
  barrier_impl(thr, ompt_state_wait_barrier_implicit_parallel, false, false, true);
}

bool tomp_barrier_wait(tomp_thread_t *thr, int kind, bool cancellable) {
  if (tomp_listening()) return barrier_observed(thr, kind, cancellable);
  return tomp_barrier_wait_quiet(thr, kind, cancellable);
}
