/* The ABI-neutral core of tomp: threads, teams, tasks and their ICVs.
 *
 * Every thread tomp knows has a tomp_thread_t reachable through tomp_self (initial-exec TLS,
 * so a signal handler can read it without triggering lazy TLS allocation).  Every task,
 * implicit or explicit, is a tomp_task_t with an OMPT frame record and tool data slot, so the
 * tools layer never has to invent state after the fact.  Front-ends (src/gomp, later
 * src/kmp) translate their ABI onto the functions declared here. */
#ifndef TOMP_INTERNAL_H
#define TOMP_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "omp-tools.h"
#include "sync.h"
#include "thread_table.h"

#define TOMP_HIDDEN __attribute__((visibility("hidden")))
#define TOMP_EXPORT __attribute__((visibility("default")))

/* ---- ICVs ------------------------------------------------------------------------------ */

typedef enum {
  TOMP_SCHED_STATIC = 1,
  TOMP_SCHED_DYNAMIC = 2,
  TOMP_SCHED_GUIDED = 3,
  TOMP_SCHED_AUTO = 4,
  TOMP_SCHED_MONOTONIC = 0x80000000u
} tomp_sched_t;

typedef enum {
  TOMP_BIND_FALSE = 0,
  TOMP_BIND_TRUE = 1,
  TOMP_BIND_PRIMARY = 2,
  TOMP_BIND_CLOSE = 3,
  TOMP_BIND_SPREAD = 4
} tomp_bind_t;

/* Data-environment ICVs: copied into every task; a child inherits its parent's. */
typedef struct tomp_icv {
  unsigned nthreads;        /* nthreads-var for regions this task encounters */
  unsigned thread_limit;    /* thread-limit-var */
  unsigned max_active_levels;
  int run_sched;            /* run-sched-var kind (tomp_sched_t, may carry MONOTONIC) */
  int run_sched_chunk;
  int default_device;
  unsigned char dyn;        /* dyn-var */
  unsigned char bind;       /* bind-var for the next level (tomp_bind_t) */
  unsigned char nthreads_lvl; /* index into the OMP_NUM_THREADS list already consumed */
  unsigned char bind_lvl;     /* index into the OMP_PROC_BIND list already consumed */
  /* -- sync module (alloc.c, teams.c) -- */
  uintptr_t def_allocator;  /* def-allocator-var; 0: OMP_ALLOCATOR or omp_default_mem_alloc */
  unsigned league_num;      /* team number in the enclosing teams region (omp_get_team_num) */
  unsigned league_size;     /* teams in that region; 0 outside any teams region */
  /* -- end sync module -- */
} tomp_icv_t;

/* Device- and global-scope settings, read once from the environment (env.c). */
typedef struct tomp_global {
  tomp_icv_t icv;           /* initial task's ICVs */
  unsigned nthreads_list[16];
  unsigned nthreads_list_len;
  unsigned char bind_list[16];
  unsigned bind_list_len;
  size_t stacksize;         /* 0: default */
  int wait_policy;          /* -1 unset, 0 passive, 1 active */
  int cancellation;
  int max_task_priority;
  int display_affinity;
  int num_teams;            /* nteams-var, 0 unset */
  int teams_thread_limit;   /* teams-thread-limit-var, 0 unset */
  int target_offload;       /* target-offload-var: TOMP_OFFLOAD_* */
  char *affinity_format;
} tomp_global_t;

enum { TOMP_OFFLOAD_DEFAULT, TOMP_OFFLOAD_MANDATORY, TOMP_OFFLOAD_DISABLED };
/* OpenMP 5.2's omp_invalid_device, with libgomp's value (its omp.h from GCC 13 on). */
#define TOMP_INVALID_DEVICE (-4)

extern tomp_global_t tomp_g TOMP_HIDDEN;

/* ---- Tasks ----------------------------------------------------------------------------- */

struct tomp_team;
struct tomp_thread;
struct tomp_taskgroup;

typedef enum {
  TOMP_TASK_INITIAL = 1,
  TOMP_TASK_IMPLICIT = 2,
  TOMP_TASK_EXPLICIT = 4,
  TOMP_TASK_TARGET = 8,
  TOMP_TASK_UNDEFERRED = 0x08000000,
  TOMP_TASK_UNTIED = 0x10000000,
  TOMP_TASK_FINAL = 0x20000000,
  TOMP_TASK_MERGEABLE = 0x40000000,
  TOMP_TASK_MERGED = 0x80000000u
} tomp_task_flags_t;

typedef struct tomp_task {
  struct tomp_task *parent;
  struct tomp_team *team;        /* team the task is bound to */
  tomp_icv_t icv;
  unsigned flags;                /* tomp_task_flags_t; also the OMPT task type bits */
  unsigned thread_num;           /* implicit tasks: the thread's number in the team */
  /* OMPT: frame record and tool data live for the task's whole life */
  ompt_frame_t frame;
  ompt_data_t task_data;
  /* OMPT, explicit tasks while they run: the task the executing thread suspended to run this
   * one.  ompt_get_task_info's ancestors are the tasks with frames on the current thread's
   * stack, so above a task that another thread created (stolen, or run in a barrier or a
   * taskwait) comes the suspended task, not the generating one. */
  struct tomp_task *sched_parent;
  /* Explicit-task machinery (task.c); zero for implicit tasks until they create children */
  void (*fn)(void *);
  void *data;
  uint32_t children;             /* incomplete child tasks (taskwait) */
  uint32_t taskwait_word;        /* futex word bumped when children drops to 0 */
  struct tomp_taskgroup *taskgroup; /* innermost taskgroup the task is in */
  void *ext;                     /* task.c private: dependences, queue links, etc. */
  int priority;
  int in_final;                  /* final-task-var / included in a final task */
  /* -- compat: thread-limit-var counts per contention group (team.c) -- */
  uint32_t cg_busy;              /* initial tasks: workers their contention group has in teams */
} tomp_task_t;

/* ---- Barrier --------------------------------------------------------------------------- */

/* Centralised counting barrier.  It persists across regions of a cached team (gen only
 * grows), so a worker still leaving one episode never sees a reinitialised barrier. */
typedef struct tomp_barrier {
  uint32_t arrived __attribute__((aligned(TOMP_CACHELINE)));
  /* The region's closing barrier counts apart: after `cancel parallel` a thread can reach
   * it while others still wait in an explicit barrier, whose round it must not complete. */
  uint32_t arrived_final;
  uint32_t gen __attribute__((aligned(TOMP_CACHELINE))); /* bumped at each release */
  uint32_t seq;         /* futex word: bumped at release and when tasks appear for sleepers */
  uint32_t sleepers;    /* waiters asleep on seq */
  uint32_t nthreads;
} tomp_barrier_t;

/* ---- Teams ----------------------------------------------------------------------------- */

/* A thread's position in its current region: what a thread gives up when it starts a region
 * on top of the one it is in (fork, a host target region) and gets back when it leaves it
 * (tomp_thread_pos_enter / _leave, below).  The thread's team and number are not in it: a
 * team keeps its parent and parent_tid, a target region saves them beside this. */
typedef struct tomp_thread_pos {
  struct tomp_task *task;
  unsigned ws_count;
  unsigned long single_count;
  void *ws_cur;
  int state; /* a work state: user code runs with wait_id 0, so there is none to keep */
} tomp_thread_pos_t;

#define TOMP_WS_RING 8

typedef struct tomp_team {
  unsigned nthreads;
  unsigned level;               /* nesting level of the region (1 = outermost parallel) */
  unsigned active_level;        /* enclosing active (nthreads > 1) regions, inclusive */
  struct tomp_team *parent;     /* the encountering thread's team (NULL at the initial task) */
  unsigned parent_tid;          /* the encountering thread's number in the parent team */
  struct tomp_thread **threads; /* nthreads entries */
  tomp_task_t *implicit;        /* nthreads implicit tasks */
  unsigned capacity;            /* allocated size of threads[] and implicit[] */
  unsigned nreserved;           /* workers parked on this team: threads[1..nreserved] */
  unsigned depth;               /* index in the master's team_cache, or ~0u if heap-owned */
  tomp_thread_pos_t saved;      /* the master's position in the parent team (join) */
  tomp_barrier_t bar;
  /* Worksharing: a ring of descriptors; ws.c owns the contents. */
  void *ws;                     /* struct tomp_ws[TOMP_WS_RING] */
  unsigned ws_initial;          /* constructs pre-entered at fork (combined parallel loops) */
  /* Tasking: task.c owns the contents */
  void *tasks;
  uint32_t cancelled;           /* TOMP_CANCEL_* bits activated in this region */
  unsigned place_first, place_count; /* place partition of the team */
  /* OMPT */
  ompt_data_t parallel_data;
  const void *codeptr;
  int ev_flags; /* ompt_parallel_flag_t of the region (event layer) */
  /* Team-wide scratch for the front-end (copyprivate, reductions) */
  void *volatile scratch;
  /* env/affinity: the team's placement, fixed by the master before workers start */
  int place_master;             /* place of thread 0 (-1: the team is not bound) */
  unsigned char bind_policy;    /* TOMP_BIND_PRIMARY/CLOSE/SPREAD in effect, 0 = unbound */
  /* -- compat -- */
  uint32_t *cg_busy;            /* the contention group's counter (its initial task's cg_busy) */
  /* -- collector -- */
  uint64_t coll_prid;           /* Collector API region id; 0 until a session needs one */
  /* -- end collector -- */
  /* Plain `single` constructs won so far (ws.c); the line every thread CASes, alone */
  unsigned long single_count __attribute__((aligned(TOMP_CACHELINE)));
} tomp_team_t;

/* team->cancelled bits.  PARALLEL stays set to the end of the region.  `cancel for/sections`
 * is a flag on the construct's descriptor (ws.h); WS holds it when the thread has no
 * construct (a static loop gcc inlined, first in its region) until the next barrier. */
#define TOMP_CANCEL_PARALLEL 1u
#define TOMP_CANCEL_WS 2u

/* ---- Threads --------------------------------------------------------------------------- */

typedef struct tomp_thread {
  tomp_team_t *team;            /* innermost team, NULL for an initial thread outside regions */
  tomp_task_t *task;            /* the task the thread is executing now */
  unsigned tid;                 /* thread number in team */
  uint32_t gtid;                /* global thread number: its entry in the thread table */
  /* OMPT: always current, whether or not a tool is attached */
  int state;                    /* ompt_state_t */
  uint64_t wait_id;
  ompt_data_t thread_data;
  int ompt_type;                /* ompt_thread_initial / worker / other */
  const void *codeptr;          /* user return address captured at the current entry point */
  /* Pool: a worker sleeps on go until the master hands it a team */
  uint32_t go __attribute__((aligned(TOMP_CACHELINE)));
  /* 1 while this worker may still read its team's shared state (queues, barrier, implicit
   * tasks): a master re-initialises a cached team only once it is 0 for every worker.  A
   * worker clears it in the closing barrier whenever it pauses, so the next fork need not
   * wait for it to leave the barrier first (see barrier.c). */
  uint32_t team_busy;
  tomp_team_t *next_team;
  unsigned next_tid;
  void (*fn)(void *);
  void *fn_data;
  struct tomp_thread *pool_next;
  pthread_t pthread;
  int place;                    /* place this thread is bound to, -1 if unbound */
  /* Worksharing position: constructs this thread has entered in its current team */
  unsigned ws_count;
  void *ws_cur;                 /* ws.c: the descriptor of the current construct */
  unsigned long single_count;   /* plain `single` constructs encountered in the team */
  /* The initial task of an initial thread, and its cached teams per nesting depth */
  tomp_task_t initial_task;
  tomp_team_t *team_cache[8];
  void *task_ctx;               /* task.c per-thread state */
  ompt_data_t implicit_parallel_data; /* initial threads: their implicit parallel region */
  /* Event layer (event.c): what an event reports later than the call that caused it */
  unsigned ev_requested;  /* requested parallelism of the region being forked */
  int ev_fork_flags;      /* extra ompt_parallel_flag_t bits for the next fork */
  tomp_task_t *ev_single; /* a single this thread executed in that task: end not reported */
  const void *ev_single_ra;
  uint64_t ev_chunk[2]; /* taskloop: chunk (start, iterations) of the task being created */
  bool ev_chunk_pending;
  void *ev_teams4; /* GOMP_teams4's league record while someone listens */
  /* Observers' per-thread words (core reserves them; the named observer alone writes them) */
  uint32_t ompt_end_req;         /* OMPT: finalize asks this parked worker to report thread_end */
  uint32_t ompt_in_cb;           /* OMPT: tool callbacks this thread is inside (finalize waits) */
  uint32_t ompt_life;            /* OMPT: 0 no thread_begin yet, 1 begun, 2 thread_end reported */
  tomp_team_t *coll_forking;     /* Collector: the team whose OMP_EVENT_FORK it is delivering */
} tomp_thread_t;

/* -- ompt2 -- An initial task that is not an initial thread's own (a host teams region's
 * teams, a host target region): it carries the implicit parallel region (league) it binds
 * to, for ompt_get_parallel_info / get_task_info.  The flag bit is not an OMPT task flag. */
#define TOMP_TASK_OWN_REGION 0x00100000u
typedef struct tomp_region_task {
  tomp_task_t task; /* first */
  ompt_data_t parallel_data;
  unsigned size;    /* league size (1 for a target region) */
} tomp_region_task_t;
/* -- end ompt2 -- */

extern __thread tomp_thread_t *tomp_self __attribute__((tls_model("initial-exec"))) TOMP_HIDDEN;

/* The calling thread's descriptor, made on first use by a thread tomp did not create. */
tomp_thread_t *tomp_thread_init_foreign(void) TOMP_HIDDEN;
/* tomp_init: the descriptor of the thread that loads the library. */
void tomp_thread_init_initial(void) TOMP_HIDDEN;

/* ---- The thread table (thread.c; layout and rules in thread_table.h) ------------------- */

extern tomp_thread_table_t tomp_thread_table TOMP_EXPORT;

/* Numbers handed out so far: every gtid is below it. */
static inline uint32_t tomp_thread_count(void) {
  return __atomic_load_n(&tomp_thread_table.count, __ATOMIC_ACQUIRE);
}
/* The live thread numbered gtid, or NULL (ended, or never handed out). */
static inline tomp_thread_t *tomp_thread_by_gtid(uint32_t gtid) {
  if (gtid >= tomp_thread_count()) return NULL;
  tomp_thread_t **chunk =
      __atomic_load_n(&tomp_thread_table.chunks[gtid / TOMP_THREAD_CHUNK], __ATOMIC_ACQUIRE);
  return chunk ? __atomic_load_n(&chunk[gtid % TOMP_THREAD_CHUNK], __ATOMIC_ACQUIRE) : NULL;
}
/* Iteration over the live threads, in number order:
 *     for (uint32_t g = 0; (t = tomp_thread_next(&g)) != NULL;) ...
 * returns the first live thread numbered *gtid or above and moves *gtid past it.  Threads
 * that start meanwhile may or may not be seen. */
static inline tomp_thread_t *tomp_thread_next(uint32_t *gtid) {
  for (uint32_t n = tomp_thread_count(); *gtid < n;) {
    tomp_thread_t *t = tomp_thread_by_gtid((*gtid)++);
    if (t) return t;
  }
  return NULL;
}

/* ---- The pool of workers (thread.c) ----------------------------------------------------- */

/* An idle worker: from the pool, else a new thread.  NULL if none can be had. */
tomp_thread_t *tomp_worker_get(void) TOMP_HIDDEN;
/* Give worker t (it may still be leaving its last region) back to the pool. */
void tomp_worker_put(tomp_thread_t *t) TOMP_HIDDEN;
/* Hand worker t (idle) its part of team: it runs fn(data) as thread tid. */
void tomp_worker_start(tomp_thread_t *t, tomp_team_t *team, unsigned tid, void (*fn)(void *),
                       void *data) TOMP_HIDDEN;
/* Wait until worker t no longer reads its previous team's shared state. */
void tomp_worker_wait_out(tomp_thread_t *t) TOMP_HIDDEN;
/* After fork() in the child: the caller's cached teams forget their workers (team.c). */
void tomp_team_cache_forget_workers(tomp_thread_t *thr) TOMP_HIDDEN;

/* The calling thread's descriptor; threads tomp did not create get one on first use. */
static inline tomp_thread_t *tomp_thread(void) {
  tomp_thread_t *t = tomp_self;
  if (tomp_unlikely(!t)) t = tomp_thread_init_foreign();
  return t;
}

static inline tomp_icv_t *tomp_icv(void) { return &tomp_thread()->task->icv; }

/* ---- Runtime entry points of the core -------------------------------------------------- */

void tomp_init(void) TOMP_HIDDEN;        /* idempotent; the library constructor calls it */
void tomp_env_init(void) TOMP_HIDDEN;    /* env.c: parse OMP_* into tomp_g */
/* display.c: whether fmt is a valid OMP_AFFINITY_FORMAT (env.c checks the variable) */
bool tomp_affinity_format_valid(const char *fmt) TOMP_HIDDEN;

/* Number of threads the next parallel region gets (spec 2.6.1 algorithm). */
unsigned tomp_team_size(tomp_thread_t *thr, unsigned requested, bool if_clause) TOMP_HIDDEN;

/* Fork a team running fn(data) on every thread; the caller becomes thread 0 and runs fn
 * itself between tomp_fork and tomp_join.  bind is the proc_bind clause (TOMP_BIND_*, 0 =
 * none).  prep, if given, runs on the new team before any worker starts (combined
 * constructs pre-initialise their worksharing descriptor there). */
void tomp_fork(void (*fn)(void *), void *data, unsigned nthreads, unsigned bind,
               void (*prep)(tomp_team_t *, void *), void *prep_arg) TOMP_HIDDEN;
void tomp_join(void) TOMP_HIDDEN;
/* Release a team struct and the workers parked on it (they return to the pool). */
void tomp_team_free(tomp_team_t *team) TOMP_HIDDEN;
/* The team at nesting level `level` of thread t, and t's number in it (its own, or its
 * ancestor's); NULL for level 0 or a level out of range. */
tomp_team_t *tomp_team_at(tomp_thread_t *t, int level, unsigned *tid) TOMP_HIDDEN;
/* t's ancestor's number at nesting level `level` (omp_get_ancestor_thread_num): 0 at level 0,
 * -1 for a level out of range. */
int tomp_ancestor_thread_num(tomp_thread_t *t, int level) TOMP_HIDDEN;
/* fork + fn + join */
void tomp_parallel(void (*fn)(void *), void *data, unsigned nthreads, unsigned bind) TOMP_HIDDEN;
/* GOMP_parallel without a tool: team size (num_threads clause `requested`), fork, fn, join,
 * with no OMPT event site (the caller tested for a tool once). */
void tomp_parallel_notool(void (*fn)(void *), void *data, unsigned requested,
                          unsigned bind) TOMP_HIDDEN;

/* Barrier for the calling thread's team.  Executes pending tasks while waiting.  Returns
 * true if the wait ended because the region was cancelled (only when cancellable). */
bool tomp_barrier_wait(tomp_thread_t *thr, int ompt_kind, bool cancellable) TOMP_HIDDEN;
/* The same on a path that already knows no tool is attached: no event-site test. */
bool tomp_barrier_wait_notool(tomp_thread_t *thr, int ompt_kind, bool cancellable) TOMP_HIDDEN;
/* A worker's closing barrier without a tool: as above, but the worker announces through
 * thr->team_busy when it is not touching the team, so the next fork can proceed. */
void tomp_barrier_wait_worker_end(tomp_thread_t *thr) TOMP_HIDDEN;
/* task.c tells the barrier that work appeared or that the last task finished */
void tomp_barrier_tasks_posted(tomp_team_t *team) TOMP_HIDDEN;
/* -- perf -- n tasks were queued: wake at most n sleepers */
void tomp_barrier_tasks_posted_n(tomp_team_t *team, unsigned n) TOMP_HIDDEN;
void tomp_barrier_tasks_done(tomp_team_t *team) TOMP_HIDDEN;
void tomp_barrier_cancel(tomp_team_t *team) TOMP_HIDDEN;

/* Tasking hooks fork/join rely on (task.c). */
void tomp_team_tasks_init(tomp_team_t *team) TOMP_HIDDEN; /* at fork */
void tomp_team_tasks_fini(tomp_team_t *team) TOMP_HIDDEN; /* at join, after the barrier */

/* Task reductions on worksharing constructs and scope (task module): the first thread to
 * reach the construct passes first == NULL and publishes its reductions array; the others
 * pass the first thread's array. */
void tomp_ws_task_reduction_begin(tomp_thread_t *thr, uintptr_t *reductions,
                                  uintptr_t *first) TOMP_HIDDEN;

/* Worksharing hooks (ws.c) */
void tomp_team_ws_init(tomp_team_t *team) TOMP_HIDDEN;
void tomp_team_ws_fini(tomp_team_t *team) TOMP_HIDDEN;
/* ws: tomp_fork calls it once the team's size is known, before prep */
void tomp_team_ws_reset(tomp_team_t *team) TOMP_HIDDEN;

/* Messages: one line on stderr, prefixed "tomp: ". */
void tomp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2))) TOMP_HIDDEN;
_Noreturn void tomp_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2))) TOMP_HIDDEN;
void *tomp_malloc(size_t n) TOMP_HIDDEN;     /* aborts with a message if memory is gone */
void *tomp_calloc(size_t n, size_t sz) TOMP_HIDDEN;

/* Affinity (affinity.c) */
void tomp_affinity_init(void) TOMP_HIDDEN;
void tomp_bind_thread(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) TOMP_HIDDEN;
/* env/affinity: the master fixes the team's placement before any worker starts (then every
 * thread, master included, calls tomp_bind_thread after entering the team); the place a
 * new initial thread records (the main thread's start-up binding, else -1); hard pause. */
void tomp_affinity_team(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) TOMP_HIDDEN;
int tomp_affinity_initial_place(void) TOMP_HIDDEN;
void tomp_pool_release_idle(tomp_thread_t *thr) TOMP_HIDDEN; /* thread.c */
/* Observers (thread.c): ask a parked worker to report its own end (it answers by clearing
 * ompt_end_req); false if it is busy in a team. */
bool tomp_worker_request_thread_end(tomp_thread_t *w) TOMP_HIDDEN;
/* Wait until worker t is parked again (thread.c) */
void tomp_worker_wait_idle(tomp_thread_t *t) TOMP_HIDDEN;

/* ---- Thread state observers read ---------------------------------------------------- */

static inline void tomp_set_state(tomp_thread_t *thr, int st, uint64_t wait_id) {
  /* collector: a signal handler that sees a wait state sees its wait id, so the id is stored
   * before a wait begins and cleared after it ends (wait_id is a constant at most sites) */
  if (wait_id) {
    thr->wait_id = wait_id;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&thr->state, st, __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&thr->state, st, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    thr->wait_id = 0;
  }
}

/* Start a region on thr: save its position in *save and put it at the start of task's region
 * (ws_count constructs pre-entered, in state).  Every field is written, so a region's code
 * never sees the enclosing region's worksharing position. */
static inline __attribute__((always_inline)) void
tomp_thread_pos_enter(tomp_thread_t *thr, tomp_thread_pos_t *save, tomp_task_t *task,
                      unsigned ws_count, int state) {
  save->task = thr->task;
  save->ws_count = thr->ws_count;
  save->single_count = thr->single_count;
  save->ws_cur = thr->ws_cur;
  save->state = thr->state;
  thr->task = task;
  thr->ws_count = ws_count;
  thr->single_count = 0;
  thr->ws_cur = NULL;
  tomp_set_state(thr, state, 0);
}

/* Leave the region tomp_thread_pos_enter started: thr is where it was before. */
static inline __attribute__((always_inline)) void
tomp_thread_pos_leave(tomp_thread_t *thr, const tomp_thread_pos_t *save) {
  thr->task = save->task;
  thr->ws_count = save->ws_count;
  thr->single_count = save->single_count;
  thr->ws_cur = save->ws_cur;
  tomp_set_state(thr, save->state, 0);
}

/* Entering a task: the one description of what a thread sets when a task's body starts on
 * its stack, and undoes when the body returns.  How much depends on who can look (kind, a
 * constant, so each caller's copy keeps only its own stores):
 *   TOMP_ENTER_BARE       thr->task only.  The no-tool tiny task (no tool can see it, task.h)
 *                         and the initial tasks of leagues and target regions (thread_num 0
 *                         from their set-up; their exit frame follows their begin event).
 *   TOMP_ENTER_INCLUDED   + the task's exit frame (the runtime frame that calls its body) and
 *                         thread_num: a task run at once; the task below is its parent, so
 *                         sched_parent stays NULL.
 *   TOMP_ENTER_SCHEDULED  + sched_parent: a task the scheduler picked, perhaps created by
 *                         another thread; the task it suspends (prev) comes next on the stack.
 * The thread's state is the caller's (tomp_set_state): events come between. */
enum { TOMP_ENTER_BARE, TOMP_ENTER_INCLUDED, TOMP_ENTER_SCHEDULED };

static inline __attribute__((always_inline)) void tomp_task_enter(tomp_thread_t *thr,
                                                                  tomp_task_t *t, tomp_task_t *prev,
                                                                  void *exit_frame,
                                                                  const int kind) {
  if (kind != TOMP_ENTER_BARE) {
    t->frame.exit_frame.ptr = exit_frame;
    t->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    t->thread_num = thr->tid;
  }
  if (kind == TOMP_ENTER_SCHEDULED) t->sched_parent = prev;
  thr->task = t;
}

/* Leave task t (entered with the same kind), back in prev. */
static inline __attribute__((always_inline)) void
tomp_task_leave(tomp_thread_t *thr, tomp_task_t *t, tomp_task_t *prev, const int kind) {
  thr->task = prev;
  if (kind == TOMP_ENTER_SCHEDULED) t->sched_parent = NULL;
  if (kind != TOMP_ENTER_BARE) t->frame.exit_frame.ptr = NULL;
}

#include "event.h"

#endif
