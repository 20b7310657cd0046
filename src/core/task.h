/* Explicit tasks, dependences, taskgroups, task reductions and cancellation: the tasking
 * module's private structures and the interface the ABI front-ends (src/gomp) call.
 *
 * Scheduling model.  Every thread of a team owns a work-stealing deque (Chase-Lev): it
 * pushes the tasks it creates or releases at the bottom and pops them there (LIFO, no
 * lock), while idle threads steal from the top with a CAS (FIFO).  Tasks with a priority,
 * tasks made ready by a thread outside the team, and overflow go to one shared list per team
 * (team->tasks->ready, priority-ordered, under the team's futex lock), which every thread
 * looks at first, so priorities are honoured before deque work.  A thread waiting inside a
 * tied task (taskwait, taskgroup end, an undeferred task's dependences) may only start
 * descendants of that task (task scheduling constraint 2): it checks what it pops from its
 * own deque by walking the parent chain (a task keeps its parent allocated until it is
 * freed itself, so the chain of a live task is live) and moves a task it may not start to
 * the shared list; it steals only tasks whose parent (recorded in the deque slot, so no
 * stolen-and-freed task is read) is the waiting task.  Threads in a barrier take anything.
 * Untied tasks are scheduled as tied ones (the spec allows it).
 *
 * Lifetimes.  An explicit task (deferred or not) is one block from a per-thread free list:
 * header, dependence nodes, then the copied argument block (an undeferred task without
 * cpyfn runs on the caller's block).  It is freed when it is complete and all its children
 * are freed (refs), because children reach into their parent's dependence table and
 * counters when they complete and a waiting thread walks a queued task's ancestors.  Undeferred tasks are not counted in their parent's
 * children, taskgroup or team->tasks->ntasks: they complete before the encountering task goes on.
 * Implicit tasks keep their child bookkeeping (tomp_pinfo_t) in task->ext until the
 * team's join.
 *
 * A block on a free list is at rest (see tomp_task_tiny): the no-tool fast paths (the tiny
 * task, tomp_task_defer) take it as it is and set only the fields their task reads.
 *
 * Waking.  A thread waiting inside task T publishes pinfo.waiting and then re-checks its
 * condition; whoever changes a condition T may wait for (children count, taskgroup count,
 * a child becoming ready, an undeferred task's state) does so first and then pokes T
 * (tomp_task_poke), all sequentially consistent.  A barrier sleeper registers and then
 * looks at every deque; a pusher publishes its bottom index and then looks for sleepers. */
#ifndef TOMP_TASK_H
#define TOMP_TASK_H

#include "internal.h"

/* Dependence kinds, with the values OpenMP gives them (ompt_dependence_type_t); each
 * front-end translates its ABI's (src/gomp/task.c: GCC's GOMP_DEPEND_*).  The last two are
 * the reserved locator omp_all_memory with out or inout (the address is only reported):
 * such a task follows every earlier sibling with dependences and precedes every later one
 * (taskdep.c). */
enum {
  TOMP_DEP_IN = ompt_dependence_type_in,
  TOMP_DEP_OUT = ompt_dependence_type_out,
  TOMP_DEP_INOUT = ompt_dependence_type_inout,
  TOMP_DEP_MUTEXINOUTSET = ompt_dependence_type_mutexinoutset,
  TOMP_DEP_INOUTSET = ompt_dependence_type_inoutset,
  TOMP_DEP_OUT_ALL = ompt_dependence_type_out_all_memory,
  TOMP_DEP_INOUT_ALL = ompt_dependence_type_inout_all_memory
};

typedef struct tomp_depend {
  void *addr;
  int kind;
} tomp_depend_t;

struct tomp_xtask;

typedef struct tomp_tlink {
  struct tomp_xtask *next, *prev;
} tomp_tlink_t;

typedef struct tomp_tlist {
  struct tomp_xtask *head, *tail;
} tomp_tlist_t;

/* Bookkeeping of a task that has (or had) children.  Protected by the team's task lock
 * except `waiting`, which is also changed by the waiter between spinning and sleeping. */
typedef struct tomp_pinfo {
  uint32_t waiting;           /* 0 no waiter, 1 a waiter polls, 2 it sleeps on taskwait_word */
  struct tomp_deptab *deps;   /* last writers / readers per address, created on first use */
} tomp_pinfo_t;

typedef struct tomp_taskgroup {
  struct tomp_taskgroup *prev;
  tomp_task_t *owner;         /* the task that entered the taskgroup region */
  uint32_t count;             /* incomplete tasks whose innermost taskgroup this is */
  uint32_t cancelled;
  struct tomp_redset *reductions; /* innermost task-reduction registration visible here */
  bool workshare;             /* implicit group of a worksharing task reduction */
} tomp_taskgroup_t;

/* Task states (xtask.state) */
enum {
  TOMP_XS_DEPWAIT,   /* waits for predecessors */
  TOMP_XS_QUEUED,    /* in a deque or the shared list */
  TOMP_XS_MUTEXWAIT, /* parked on a mutexinoutset holder */
  TOMP_XS_GO,        /* undeferred: may run now (the encountering thread polls for this) */
  TOMP_XS_RUNNING,
  TOMP_XS_DONE
};

typedef struct tomp_depnode {
  struct tomp_xtask *task;
  struct tomp_depent *ent;
  struct tomp_depnode *next, *prev; /* in ent's current or previous group */
  uint8_t kind;
  uint8_t where;                    /* 0 unlinked, 1 current group, 2 previous group */
  uint8_t owned;                    /* mutexinoutset: this node holds ent's ownership */
} tomp_depnode_t;

typedef struct tomp_xtask {
  tomp_task_t t;                /* first: a tomp_task_t * of an explicit task is an xtask */
  tomp_tlink_t lq;              /* shared list; lq.next also links free and parked tasks */
  tomp_pinfo_t pinfo;           /* t.ext points here */
  uint32_t refs;                /* 1 until complete + incomplete children + holders */
  uint32_t pending;             /* body not finished (1) + event not fulfilled (1) */
  uint32_t npred;               /* unfinished predecessors (team lock) */
  uint32_t state;               /* TOMP_XS_*, atomic */
  uint32_t done;                /* futex word for team-less waits on completion */
  uint8_t hold;                 /* undeferred: the encountering thread runs and frees it */
  uint8_t detached;             /* has an event (detach clause) */
  uint8_t has_mutex;            /* has mutexinoutset dependences */
  uint8_t pref;                 /* holds a reference on its (explicit) parent until freed */
  uint8_t chunk_pending;        /* OMPT: a taskloop chunk, its dispatch due when it starts */
  uint16_t cls;                 /* allocation size class, 0 = plain malloc */
  uint16_t dep_room;            /* dependence nodes the block holds (more are malloc'd) */
  uint8_t must_run;             /* never discarded by cancellation (tomp_task_spec_t) */
  struct task_ctx *owner;       /* free list the block returns to (task.c) */
  uint32_t ndeps;
  uint32_t arg_size;            /* bytes at t.data: the task's argument block (OMPT) */
  tomp_depnode_t *deps;
  struct tomp_xtask **succ;     /* successors (team lock) */
  uint32_t nsucc, capsucc;
  union {
    struct tomp_xtask *succ_inline[2];
    /* OMPT, with chunk_pending: a taskloop chunk's first iteration value and iteration
     * count.  A chunk task has no dependences, so no successors: the room is free. */
    uint64_t ompt_chunk[2];
  };
} tomp_xtask_t;

/* A thread's deque.  Only the owner writes bottom and the slots; thieves and the owner's
 * take of the last task CAS top.  Indices only grow (64 bits), so an empty deque needs no
 * reset between regions.  A slot records the task's parent beside it: a waiting thief
 * decides from the slot whether it may start the task, before it owns (and may read) it. */
#define TOMP_DQ_SIZE 256
typedef struct tomp_dqslot {
  struct tomp_xtask *x;
  tomp_task_t *parent;
} tomp_dqslot_t;

typedef struct tomp_deque {
  int64_t bottom;
  int64_t top_seen;             /* owner's lower bound of top (push's full test) */
  int64_t top __attribute__((aligned(TOMP_CACHELINE)));
  tomp_dqslot_t slot[TOMP_DQ_SIZE] __attribute__((aligned(TOMP_CACHELINE)));
} tomp_deque_t;

/* team->tasks.  The first line is written per task (the count, the lock); the deque table
 * is read-only during a region and gets its own line. */
typedef struct tomp_team_tasks {
  tomp_mutex_t lock;            /* shared list, dependences, taskgroup ends */
  uint32_t nready;              /* tasks in `ready`, readable without the lock */
  tomp_tlist_t ready;           /* the shared list */
  uint32_t ntasks;              /* deferred tasks not complete + slots threads hold (below) */
  uint32_t foreign;             /* a thread outside the team completed a task (fulfill) */
  tomp_deque_t **dq __attribute__((aligned(TOMP_CACHELINE))); /* one per thread number */
  unsigned ndq;
} __attribute__((aligned(TOMP_CACHELINE))) tomp_team_tasks_t;

/* Tasks queued in the team (deques and shared list), sequentially consistent loads: a
 * barrier sleeper calls it after registering. */
uint32_t tomp_task_nready(tomp_team_t *team) TOMP_HIDDEN;
/* Run one queued task if there is any: true if it ran one.  steal: also from other threads'
 * deques (else the shared list and the caller's own deque only). */
bool tomp_task_run_queued(tomp_thread_t *thr, bool steal) TOMP_HIDDEN;

/* Deferred tasks of the team not complete yet, plus the slots its threads hold (the barrier
 * waits for 0). */
static inline uint32_t tomp_team_ntasks(tomp_team_t *team) {
  tomp_team_tasks_t *tt = team->tasks;
  return tt ? __atomic_load_n(&tt->ntasks, __ATOMIC_SEQ_CST) : 0;
}

/* Credits.  A barrier waits until the team's deferred tasks are complete, so the team counts
 * them; but one shared word changed twice per task (creation, completion) moves its cache
 * line between the threads at every task: with two threads each creating and waiting for
 * its own tasks (a tool attached, so none runs at once) that was half of each task's time.
 * So the count is kept in slots: a thread of the team takes TOMP_TASK_CREDITS at once when
 * it has none left and uses one per task it creates; a task completed by a thread of its
 * team gives its slot to that thread, which hands back a batch only when it holds more
 * than two.  The count is thus never below the number of incomplete tasks (a task's slot
 * is counted before the task is queued, as the barrier's sleepers need), and it equals it
 * once every thread gave its slots back, which each does at a barrier before it looks at
 * the count (tomp_task_settle): on arrival, and while waiting whenever it finds no task to
 * run.  A thread holds slots only for a team it is in (its current team or, in a nested
 * region, an enclosing one): it leaves a team only through the team's closing barrier.
 * Slots for another team go back when the thread next counts a task elsewhere.  Threads
 * outside the team (a fulfilled event) change the count directly, as before.  Readers of
 * the count as a load (the "queue is long" test, 64 per thread) see up to 16 slots per
 * thread more than there are tasks; and while a creator that has not arrived yet holds
 * unused slots, waiters in the barrier see tasks outstanding and look into the deques when
 * they poll, as they did before only while its tasks ran. */
#define TOMP_TASK_CREDITS 8u
void tomp_task_credits_return(tomp_thread_t *thr) TOMP_HIDDEN;
static inline void tomp_task_settle(tomp_thread_t *thr) {
  if (tomp_unlikely(thr->task_cred)) tomp_task_credits_return(thr);
}

static inline tomp_xtask_t *tomp_xtask(tomp_task_t *t) { return (tomp_xtask_t *)t; }

/* OMPT values used at the event points (spec values of ompt_task_status_t and
 * ompt_scope_endpoint_t; omp-tools.h does not carry them yet). */
enum {
  TOMP_EV_TASK_COMPLETE = 1,
  TOMP_EV_TASK_YIELD = 2,
  TOMP_EV_TASK_CANCEL = 3,
  TOMP_EV_TASK_DETACH = 4,
  TOMP_EV_TASK_SWITCH = 7,
  TOMP_EV_SCOPE_BEGIN = 1,
  TOMP_EV_SCOPE_END = 2
};

/* ---- creation and waiting (task.c) ----------------------------------------------------- */

/* Task creation flags (front-end neutral) */
enum {
  TOMP_TF_UNTIED = 1,
  TOMP_TF_FINAL = 2,
  TOMP_TF_MERGEABLE = 4,
  TOMP_TF_UNDEFERRED = 8 /* if(false) */
};

/* What an explicit task is made of, known when it is allocated. */
typedef struct tomp_task_spec {
  void (*fn)(void *);
  size_t arg_size, arg_align; /* the argument area the task gets (fn's argument) */
  /* optional: a block that stays valid and unchanged until the task has run, if it runs at
   * once (GCC's argument block without a copy function): a task that runs at once then gets
   * no area and runs on this block (tomp_task_alloc returns it as the area) */
  void *in_place;
  unsigned flags;               /* TOMP_TF_* */
  int priority;                 /* clamped by the caller to max-task-priority-var */
  size_t ndeps;                 /* dependences the submit will likely pass (room reserved) */
  bool detach;                  /* has an event (detach clause): the task is the handle */
  /* the argument area holds objects that only fn finishes (C++ firstprivate copies a copy
   * function constructed; gcc destroys them at the end of the body): the task runs even
   * after its taskgroup or region is cancelled, and leaves at its cancellation point (as
   * libgomp discards only tasks whose copies were not made) */
  bool must_run;
  /* tomp_task_create only: how it fills the argument area (unless the task runs in place):
   * a copy of copy_from (arg_size bytes; by cpyfn(area, copy_from) if set), then whatever
   * fill(area, fill_ctx) writes */
  const void *copy_from;
  void (*cpyfn)(void *area, void *src);
  void (*fill)(void *area, void *ctx);
  void *fill_ctx;
} tomp_task_spec_t;

/* Creation in two steps, for front-ends that fill the argument area themselves (LLVM's
 * __kmpc_omp_task_alloc / __kmpc_omp_task) as well as those that pass a block to copy
 * (GOMP_task copies it between the two calls).  tomp_task_alloc returns the task and in
 * *args its argument area (arg_size bytes at arg_align, or spec->in_place); the caller
 * fills the area, then tomp_task_submit queues the task, or runs it at once when it must or
 * may (tomp_task_runs_at_once; after waiting for its dependences).  Both are called by the
 * same thread in the same task, with nothing in between but the caller's filling.  The
 * event handle of a task with detach is the task pointer.  A task that is never submitted
 * (LLVM's taskloop pattern task) is freed by tomp_task_free_unsubmitted. */
tomp_task_t *tomp_task_alloc(tomp_thread_t *thr, const tomp_task_spec_t *spec,
                             void **args) TOMP_HIDDEN;
void tomp_task_submit(tomp_thread_t *thr, tomp_task_t *t, const tomp_depend_t *deps,
                      size_t ndeps) TOMP_HIDDEN;
void tomp_task_free_unsubmitted(tomp_task_t *t) TOMP_HIDDEN;
/* An undeferred task whose body the front-end calls itself (LLVM's if(0) task: the compiled
 * code calls __kmpc_omp_task_begin_if0, the task's function, then
 * __kmpc_omp_task_complete_if0).  t comes from tomp_task_alloc and is never submitted; its
 * dependences were waited for before (tomp_taskwait_deps).  begin makes t the current task
 * (exit_frame: the frame that calls the body), end completes it, waits for its event if it
 * has one and frees it.  save keeps the thread's state across the body. */
typedef struct tomp_included {
  int state;
  uint64_t wait_id;
} tomp_included_t;
void tomp_task_begin_included(tomp_thread_t *thr, tomp_task_t *t, void *exit_frame,
                              tomp_included_t *save) TOMP_HIDDEN;
void tomp_task_end_included(tomp_thread_t *thr, tomp_task_t *t,
                            const tomp_included_t *save) TOMP_HIDDEN;
/* Both in one call, the area filled as spec says (copy_from, cpyfn, fill), with spec->ndeps
 * dependences deps: the way of a front-end that need not write the area itself between the
 * two (GOMP_task without detach, taskloop's chunks). */
void tomp_task_create(tomp_thread_t *thr, const tomp_task_spec_t *spec,
                      const tomp_depend_t *deps) TOMP_HIDDEN;
/* Between tomp_task_alloc and tomp_task_submit: t is a taskloop chunk (first iteration value
 * start, n iterations), reported as an ompt_dispatch_taskloop_chunk when it starts to run. */
void tomp_task_set_chunk(tomp_task_t *t, uint64_t start, uint64_t n) TOMP_HIDDEN;
/* The common undeferred case, short-cut: no dependences, no detach, no copy function and
 * the argument block used in place.  flags are TOMP_TF_*; the caller has checked that the
 * task must or may run at once (tomp_task_runs_at_once). */
void tomp_task_undeferred(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size,
                          unsigned flags) TOMP_HIDDEN;
/* ompt_get_task_memory: the argument block of explicit task t (its firstprivate copy, or for
 * a task run in place the encountering task's block); false for other tasks.  Reads only
 * fields set before the task runs: async-signal-safe on the task's own thread. */
bool tomp_task_memory(const tomp_task_t *t, void **addr, size_t *size) TOMP_HIDDEN;

/* Would a task without dependences or detach, created now, run at once?  It must with
 * if(0), inside a final task or outside any team; it may, and is cheaper so, when nobody
 * else could run it sooner: in a team of one, or when the team's queue is already long (a
 * load, not an RMW: the running threads keep writing that line, and a shared read slows
 * them down less than taking it exclusively on every creation), unless
 * KMP_ENABLE_TASK_THROTTLING=0 asks for every task to be queued (read only then). */
static inline bool tomp_task_runs_at_once(tomp_thread_t *thr, unsigned flags) {
  tomp_team_t *team = thr->team;
  return (flags & TOMP_TF_UNDEFERRED) || !team || team->nthreads == 1 || thr->task->in_final ||
         (tomp_load_rlx(&((tomp_team_tasks_t *)team->tasks)->ntasks) > 64u * team->nthreads &&
          tomp_g.task_throttling);
}
/* Are the dependences of a task created now already met, whatever they are?  Yes when every
 * earlier sibling has completed (depend clauses order siblings only); a task that then runs
 * at once completes before any later sibling exists, so nobody needs its dependences
 * either, and it skips the team lock and the table.  (LLVM's libomp ignores dependences in
 * serialized teams for the same reason.)  Not for a tool that registered the dependences or
 * task_dependence callback: it is shown them (the caller tests that). */
static inline bool tomp_task_deps_met(tomp_thread_t *thr) {
  return __atomic_load_n(&thr->task->children, __ATOMIC_ACQUIRE) == 0;
}
/* The common deferred task without a tool: no dependences, event or copy function, flags
 * TOMP_TF_UNTIED | TOMP_TF_FINAL | TOMP_TF_MERGEABLE at most, priority clamped, and
 * tomp_task_runs_at_once(thr, flags) was false: allocate and submit in one.  The argument
 * area gets a copy of data's arg_size bytes, or with fill (may be NULL) what
 * fill(args, fill_ctx) writes there (a taskloop chunk). */
void tomp_task_defer(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size,
                     size_t arg_align, unsigned flags, int priority,
                     void (*fill)(void *args, void *ctx), void *fill_ctx) TOMP_HIDDEN;
/* The same with a tool listening (without fill): the task_create event, and a block set up
 * as tomp_task_create would for everything a tool can read.  The tool path's common task
 * (GOMP_task without dependences, event or copy function) skips the general path's full
 * initialisation and its spec.  Unlike tomp_task_defer it may run with cancellation on: the
 * block gets every field tomp_task_discarded reads. */
void tomp_task_defer_observed(tomp_thread_t *thr, void (*fn)(void *), void *data,
                              size_t arg_size, size_t arg_align, unsigned flags,
                              int priority) TOMP_HIDDEN;
void tomp_taskwait(tomp_thread_t *thr) TOMP_HIDDEN;
/* No-tool copies of tomp_task_undeferred and tomp_taskwait: no OMPT event site at all.  For
 * entry points that took their TOMP_OBSERVED_PATH test (no tool, no Collector session). */
void tomp_task_undeferred_quiet(tomp_thread_t *thr, void (*fn)(void *), void *data,
                                 size_t arg_size, unsigned flags) TOMP_HIDDEN;
void tomp_taskwait_quiet(tomp_thread_t *thr) TOMP_HIDDEN;

/* ---- the tiny task ---------------------------------------------------------------------- */

/* Per-thread free lists of task blocks by size class (thr->task_ctx; task.c allocates).  A
 * block freed by another thread goes back to its allocating thread through a lock-free stack
 * per class that the owner empties in one exchange when its own list runs dry. */
#define TOMP_CLS_BYTES 64
#define TOMP_NCLS 32 /* blocks up to 2 KiB come from per-thread free lists */
/* the size class of a task without dependences or a copied argument block */
#define TOMP_CLS_PLAIN ((sizeof(tomp_xtask_t) + TOMP_CLS_BYTES - 1) / TOMP_CLS_BYTES)

typedef struct task_ctx {
  tomp_xtask_t *free[TOMP_NCLS + 1];
  unsigned nfree[TOMP_NCLS + 1];
  uint32_t nshort;  /* tasks GOMP_task judged by their function (tomp_task_short) */
  uint32_t nrun;    /* deferred tasks this thread ran (every TOMP_SHORT_SAMPLE-th is timed) */
  /* written by other threads: keep it off the owner's hot line */
  tomp_xtask_t *remote[TOMP_NCLS + 1] __attribute__((aligned(TOMP_CACHELINE)));
} tomp_task_ctx_t;

/* Short tasks: an adaptive cut-off.  A deferred task costs its creator and whoever runs
 * it a few hundred nanoseconds more than running it at once (the block, the queue, the
 * counters and the cache lines that move between the two threads); for a body shorter than
 * that, deferring only makes the program slower, whatever the thread count.  So tomp times
 * some runs of each task function, keeps a moving average per function in a small table
 * (tomp_task_stat_add), and GOMP_task runs a task at once when its function's average is
 * below the threshold (a "yes").  Timed are one in TOMP_SHORT_SAMPLE deferred runs (which
 * gives a function its first verdict: a function tomp has not seen is deferred, as any
 * task was before) and one in TOMP_SHORT_SAMPLE runs at once of a "yes" function (so one
 * whose tasks grow is deferred again after a few of them).  A stolen run also pays for the
 * lines its body shares with the creator, which could keep a short function "no" just
 * because it is deferred; so one in TOMP_SHORT_PROBE tasks of a "no" function runs at once,
 * timed, unless its average is at the cap (a task that runs long, or waits for something a
 * later task does, is never probed).  The thresholds are break-even points: deferring
 * costs the creator ~100 ns and the thread that runs the task ~150 ns, so in a team of two
 * deferring pays for bodies longer than about 250 ns, and in larger teams, where one
 * creator feeds several threads, from about 100 ns.  Samples are capped at 8x the
 * threshold so that one preempted run does not decide a verdict.  A hint only: entries are
 * single words updated without locks; a collision between two functions costs a few wrong
 * decisions until their next samples.  Running a task at once is always allowed (libgomp
 * does it whenever its queue is long); a program whose task waits for a task created after
 * it, by the same thread, could hang under either, if that task's function was judged
 * short before. */
#define TOMP_SHORT_NS 250u      /* teams of two */
#define TOMP_SHORT_NS_MANY 120u /* larger teams */
#define TOMP_SHORT_CAP (8 * TOMP_SHORT_NS)
#define TOMP_SHORT_SAMPLE 16u
#define TOMP_SHORT_PROBE 32u
#define TOMP_SHORT_SLOTS 64u
enum { TOMP_SHORT_UNKNOWN, TOMP_SHORT_YES, TOMP_SHORT_NO, TOMP_SHORT_NEVER };
/* an entry: the function's tag (upper 40 bits of the word) and its average in ns (lower 24) */
extern uint64_t tomp_task_stats[TOMP_SHORT_SLOTS] TOMP_HIDDEN;
static inline unsigned tomp_short_slot(void (*fn)(void *)) {
  uintptr_t h = (uintptr_t)fn;
  return (unsigned)((h >> 4) ^ (h >> 10) ^ (h >> 16)) & (TOMP_SHORT_SLOTS - 1);
}
static inline uint64_t tomp_short_tag(void (*fn)(void *)) {
  return ((uint64_t)(uintptr_t)fn << 24) & ~(uint64_t)0xffffff;
}
static inline int tomp_task_short(tomp_thread_t *thr, void (*fn)(void *)) {
  uint64_t e = tomp_load_rlx(&tomp_task_stats[tomp_short_slot(fn)]);
  if ((e & ~(uint64_t)0xffffff) != tomp_short_tag(fn)) return TOMP_SHORT_UNKNOWN;
  uint64_t avg = e & 0xffffff;
  uint64_t limit = thr->team->nthreads == 2 ? TOMP_SHORT_NS : TOMP_SHORT_NS_MANY;
  return avg < limit ? TOMP_SHORT_YES : avg < TOMP_SHORT_CAP ? TOMP_SHORT_NO : TOMP_SHORT_NEVER;
}
void tomp_task_stat_add(void (*fn)(void *), uint64_t ns) TOMP_HIDDEN;
/* A task tomp_task_defer could take (same conditions) that does not have to run at once: run
 * at once all the same when its function's tasks are short (deferring would cost more than
 * the task) or to time it, as described above; else tomp_task_defer.  Out of line, so that
 * the clock calls stay out of the entry point. */
void tomp_task_defer_or_short(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size,
                              size_t arg_align, unsigned flags, int priority) TOMP_HIDDEN;
/* The same choice for a front-end whose tasks all run through one runner: key (the compiler's
 * routine) names the task kind whose times are kept, fn(data) runs it.  True: it ran. */
bool tomp_task_try_short(tomp_thread_t *thr, void (*key)(void *), void (*fn)(void *), void *data,
                         size_t arg_size, unsigned flags) TOMP_HIDDEN;

/* tomp_task_tiny's end when x still has deferred children (their references) */
void tomp_task_tiny_release(tomp_task_ctx_t *c, tomp_xtask_t *x) TOMP_HIDDEN;

/* The tiny task: the no-tool undeferred task once more, inline in the entry point, for a
 * caller that has checked what tomp_task_undeferred_quiet's caller checks and also that
 * cancellation is off (tomp_g.cancellation: the task cannot be discarded) and that flags
 * hold nothing beyond TOMP_TF_UNTIED | TOMP_TF_FINAL | TOMP_TF_MERGEABLE.
 *
 * It writes only what the run and the code running inside it read: the task's place in the
 * tree (parent, team, taskgroup, its reference count), its data environment (ICVs,
 * final-ness) and that it is explicit.  What only a tool reads stays as the block's previous
 * user left it (frames, tool data, fn/data/arg_size for ompt_get_task_memory, the thread
 * number, the clause bits of the OMPT task type), and so does thr->state (the thread goes on
 * in the state of the code that created the task): no tool can look at this task, since
 * OMPT tools attach before the first task (constructor) and the tool path is taken as long
 * as one is attached or a Collector API session is on, and a session that starts meanwhile
 * reads states and region ids, not tasks.  Every other path initialises a block in full.
 *
 * A block on a free list is at rest: its class, owner, dependence-node and parent-info
 * pointers never change, its succ is the inline array (xtask_free_block restores it) and,
 * as a freed task has no incomplete children and no waiter, its children count and pinfo
 * are zero; a block the slow allocator returns got all of that from xtask_init.  Fields only
 * a task with dependences, an event or a place in a queue reads (state, npred, pending,
 * done, ndeps, succ, priority) stay as they are: this task has none of them and is nobody's
 * predecessor. */
static inline __attribute__((always_inline)) void
tomp_task_tiny(tomp_thread_t *thr, void (*fn)(void *), void *data, size_t arg_size, unsigned f) {
  tomp_task_t *p = thr->task;
  tomp_task_ctx_t *c = thr->task_ctx;
  tomp_xtask_t *x;
  if (tomp_unlikely(!c || (x = c->free[TOMP_CLS_PLAIN]) == NULL)) {
    tomp_task_undeferred_quiet(thr, fn, data, arg_size, f);
    return;
  }
  /* nfree is left alone: the block goes back to this list below (or see the end) */
  c->free[TOMP_CLS_PLAIN] = x->lq.next;
  x->t.parent = p;
  x->t.team = thr->team;
  x->t.icv = p->icv;
  x->t.flags = TOMP_TASK_EXPLICIT | TOMP_TASK_UNDEFERRED | TOMP_TASK_TINY;
  x->t.taskgroup = p->taskgroup;
  x->t.in_final = p->in_final || (f & TOMP_TF_FINAL);
  x->refs = 1;
  x->hold = 1;
  x->detached = 0;
  x->has_mutex = 0;
  x->pref = 0;

  tomp_task_enter(thr, &x->t, p, NULL, TOMP_ENTER_BARE);
  fn(data);
  tomp_task_leave(thr, &x->t, p, TOMP_ENTER_BARE);

  /* deferred children of x hold references; without any, nobody else can reach x */
  if (tomp_likely(__atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) == 1 && x->pinfo.deps == NULL)) {
    x->lq.next = c->free[TOMP_CLS_PLAIN];
    c->free[TOMP_CLS_PLAIN] = x;
    return;
  }
  tomp_task_tiny_release(c, x);
}

void tomp_taskwait_deps(tomp_thread_t *thr, const tomp_depend_t *deps, size_t n) TOMP_HIDDEN;
void tomp_taskyield(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_task_fulfill(void *event) TOMP_HIDDEN;

/* Internal to the tasking module */
tomp_pinfo_t *tomp_task_pinfo(tomp_task_t *t) TOMP_HIDDEN;
/* lock held; x has dependences (so it cannot complete before the lock is released) */
bool tomp_task_make_ready(tomp_team_tasks_t *tt, tomp_xtask_t *x) TOMP_HIDDEN;
bool tomp_task_discarded(tomp_xtask_t *x) TOMP_HIDDEN;
/* Waits in the current task until done(arg); runs the task's queued descendants (and,
 * if tg is given, tg's members) meanwhile. */
void tomp_task_wait_until(tomp_thread_t *thr, tomp_taskgroup_t *tg, bool (*done)(void *),
                          void *arg, int state, uint64_t wait_id) TOMP_HIDDEN;
void tomp_task_poke(tomp_task_t *t) TOMP_HIDDEN; /* lock held: wake t's waiter if any */

/* ---- dependences (taskdep.c); team lock held for all ----------------------------------- */

/* Enter x's dependences into its parent's table, adding edges from unfinished
 * predecessors (x->npred counts them). */
void tomp_dep_register(tomp_pinfo_t *parent, tomp_xtask_t *x, const tomp_depend_t *deps,
                       size_t n) TOMP_HIDDEN;
/* x finished: leave the table, drop mutexinoutset ownership and release successors.
 * Returns how many tasks were queued. */
unsigned tomp_dep_complete(tomp_team_tasks_t *tt, tomp_xtask_t *x) TOMP_HIDDEN;
/* Acquire all of x's mutexinoutset dependences, or park x on a holder and return false. */
bool tomp_dep_mutex_acquire(tomp_xtask_t *x) TOMP_HIDDEN;
void tomp_dep_table_free(tomp_pinfo_t *p) TOMP_HIDDEN;

/* ---- taskloop (taskloop.c) -------------------------------------------------------------- */

enum { TOMP_TL_DEFAULT, TOMP_TL_GRAINSIZE, TOMP_TL_NUM_TASKS };

struct tomp_taskloop;
/* One chunk: iterations start, start + step, ... (count of them) up to end exclusive. */
typedef struct tomp_taskloop_chunk {
  uint64_t start, end, count;
  bool last; /* the last chunk (lastprivate) */
  const struct tomp_taskloop *loop;
} tomp_taskloop_chunk_t;

/* A taskloop: n iterations from start by step (two's complement, so also negative steps
 * of signed loops), cut into chunks by sched and value (grainsize or num_tasks; 0 or
 * TOMP_TL_DEFAULT: one chunk per thread of the team), one task per chunk, all inside an
 * implicit taskgroup unless nogroup.  A chunk task's argument area (arg_size bytes at
 * arg_align) starts as a copy of data's bytes (if data is not NULL), then fill(args, chunk)
 * writes what the front-end needs there: the chunk's bounds where its compiler reads them,
 * and, with data NULL, the whole block (a user copy function).  ctx is the front-end's. */
typedef struct tomp_taskloop {
  void (*fn)(void *);
  size_t arg_size, arg_align;
  const void *data;                      /* copied into each chunk's area first, or NULL */
  void (*fill)(void *args, void *chunk); /* chunk: a tomp_taskloop_chunk_t * */
  void *ctx;
  unsigned flags; /* TOMP_TF_* for every chunk task */
  int priority;   /* clamped */
  uint64_t start, step, n;
  int sched;      /* TOMP_TL_* */
  uint64_t value; /* grainsize or num_tasks */
  bool strict;    /* grainsize(strict:) */
  bool nogroup;
  bool no_short_path;   /* fill runs a user copy function: keep the general path */
  bool must_run;        /* chunk tasks run even when cancelled (tomp_task_spec_t.must_run) */
  struct tomp_redset *reduction; /* registered on the implicit taskgroup, or NULL */
} tomp_taskloop_t;

void tomp_taskloop(tomp_thread_t *thr, const tomp_taskloop_t *tl) TOMP_HIDDEN;

/* ---- taskgroups (taskgroup.c) ---------------------------------------------------------- */

tomp_taskgroup_t *tomp_taskgroup_begin(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_taskgroup_end(tomp_thread_t *thr) TOMP_HIDDEN;
/* innermost taskgroup a `cancel taskgroup` in the current task refers to */
tomp_taskgroup_t *tomp_taskgroup_cancel_target(tomp_task_t *t) TOMP_HIDDEN;

/* ---- task reductions (task_reduction.c) ------------------------------------------------ */

/* One set of reduction items of a registration, described for core by the front-end, which
 * owns the descriptor (core never frees it) and keeps it alive until it unregisters.  The
 * items are the front-end's own records: `nitems` records `stride` bytes apart from `items`,
 * each holding, as uintptr_t words at addr_off and priv_off, the original's address and the
 * offset of its private copy in a thread's block.  Core fills base/end (and *base_out), and
 * links registrations through `outer`. */
typedef struct tomp_redset {
  size_t nitems;
  size_t size;  /* bytes of one thread's private block */
  size_t align; /* the blocks' alignment (a power of two) */
  const char *items;
  size_t stride, addr_off, priv_off;
  /* Reserved for front-ends whose items carry their own initialiser and combiner (LLVM's
   * __kmpc_taskred_init): offsets of those function-pointer words in an item, or
   * TOMP_REDSET_NONE.  Core does not call them yet; gcc's code does both itself. */
  ptrdiff_t init_off, combine_off;
  uintptr_t *base_out;      /* optional: where the compiled code reads base */
  struct tomp_redset *next; /* the next set of the same registration, or NULL */
  /* filled by core */
  char *base, *end;          /* the nthreads private blocks, one after another */
  struct tomp_redset *outer; /* head of the enclosing registration (set on the head only) */
} tomp_redset_t;
#define TOMP_REDSET_NONE ((ptrdiff_t)-1)

/* Register r (a chain of sets) on the current taskgroup: zeroed blocks for every thread of
 * the team.  false (with a warning) outside any taskgroup: nothing was registered. */
bool tomp_task_reduction_register(tomp_thread_t *thr, tomp_redset_t *r) TOMP_HIDDEN;
/* Free the blocks of r's sets (the descriptors stay the front-end's). */
void tomp_task_reduction_unregister(tomp_redset_t *r) TOMP_HIDDEN;
/* Replace each of ptrs[0..n), an original list item or a pointer into any thread's private
 * block of a registration visible in the current taskgroup, by the calling thread's private
 * copy; for i < norig, origs[i] gets the original's address (NULL if ptrs[i] was private and
 * matches no item).  Fatal if an address belongs to no registration. */
void tomp_task_reduction_remap(tomp_thread_t *thr, size_t n, void **ptrs, size_t norig,
                               void **origs) TOMP_HIDDEN;
/* parallel with reduction(task, ...): allocates for nthreads and makes tg hold r */
void tomp_parallel_reduction_register(tomp_redset_t *r, unsigned nthreads,
                                      tomp_taskgroup_t *tg) TOMP_HIDDEN;
/* End a worksharing task reduction (tomp_ws_task_reduction_begin, team.h): closes the
 * implicit taskgroup, thread 0 frees the shared blocks, then the construct's barrier unless
 * cancelled.  Returns the thread's own registration for the front-end to free (NULL, with a
 * warning, if none was begun). */
tomp_redset_t *tomp_ws_task_reduction_end(tomp_thread_t *thr, bool cancelled) TOMP_HIDDEN;

/* ---- cancellation (cancel.c) ----------------------------------------------------------- */

enum { TOMP_CK_PARALLEL = 1, TOMP_CK_WS = 2, TOMP_CK_TASKGROUP = 4 };
bool tomp_cancel_activate(tomp_thread_t *thr, int kind) TOMP_HIDDEN;
bool tomp_cancel_point(tomp_thread_t *thr, int kind) TOMP_HIDDEN;

#endif
