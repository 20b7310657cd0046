/* Threads: the descriptor every OpenMP thread has (tomp_thread_t, reachable through tomp_self,
 * initial-exec TLS, so a signal handler can read it without lazy TLS allocation), the thread
 * table, the worker pool, the state observers read, and the one way a thread enters a region
 * or a task.  Included through internal.h. */
#ifndef TOMP_THREAD_H
#define TOMP_THREAD_H



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
  /* task.c: slots of a team's count of outstanding tasks this thread holds (task.h) */
  uint32_t task_cred;
  tomp_team_t *task_cred_team;
  /* Pool: a worker sleeps on go until the master hands it a team */
  uint32_t go __attribute__((aligned(TOMP_CACHELINE)));
  /* 1 while this worker may still read its team's shared state (queues, barrier, implicit
   * tasks): a master re-initialises a cached team only once it is 0 for every worker.  A
   * worker clears it in the closing barrier whenever it pauses, so the next fork need not
   * wait for it to leave the barrier first (see barrier.c). */
  uint32_t team_busy;
  /* Where this worker sleeps once idle, on its first sleep after a region: its team's park
   * word (tomp_team_park_word; NULL: a team beyond the cache, or a wake-up from the word
   * found no work: its own go; thread.c) */
  uint32_t *park_word;
  tomp_team_t *next_team;
  unsigned next_tid;
  void (*fn)(void *);
  void *fn_data;
  struct tomp_thread *pool_next;
  pthread_t pthread;
  int lwp;                      /* the kernel's thread id (debuggers name threads by it) */
  int place;                    /* place this thread is bound to, -1 if unbound */
  /* The CPU this thread last ran on, as the kernel keeps it in the thread's rseq area (NULL:
   * not registered); other threads read it (wait.c, partner_here) */
  const uint32_t *cpu_word;
  /* While this initial thread runs a team of a host league outside any region (league.c):
   * the team's place partition (KMP_TEAMS_PROC_BIND's share of the list); count 0: none */
  int league_first, league_count;
  /* Worksharing position: constructs this thread has entered in its current team */
  unsigned ws_count;
  void *ws_cur;                 /* ws.c: the descriptor of the current construct */
  unsigned long single_count;   /* plain `single` constructs encountered in the team */
  /* The initial task of an initial thread, and its cached teams per nesting depth */
  tomp_task_t initial_task;
  tomp_team_t *team_cache[8];
  /* The park words of the teams this thread forks, one per cached depth: their idle workers
   * sleep on it, so a fork wakes all of a team's sleepers with one futex call (thread.c) */
  uint32_t park[8] __attribute__((aligned(TOMP_CACHELINE)));
  void *task_ctx;               /* task.c per-thread state */
  ompt_data_t implicit_parallel_data; /* initial threads: their implicit parallel region */
  /* Event layer (event.c): what an event reports later than the call that caused it */
  unsigned ev_requested;  /* requested parallelism of the region being forked */
  int ev_fork_flags;      /* extra ompt_parallel_flag_t bits for the next fork */
  tomp_task_t *ev_single; /* a single this thread executed in that task: end not reported */
  const void *ev_single_ra;
  void *ev_league; /* an inline league's record while someone listens (league.c) */
  /* Observers' per-thread words (core reserves them; the named observer alone writes them) */
  uint32_t ompt_end_req;         /* OMPT: finalize asks this parked worker to report thread_end */
  uint32_t ompt_in_cb;           /* OMPT: tool callbacks this thread is inside (finalize waits) */
  uint32_t ompt_life;            /* OMPT: 0 no thread_begin yet, 1 begun, 2 thread_end reported */
  tomp_team_t *coll_forking;     /* Collector: the team whose OMP_EVENT_FORK it is delivering */
  /* OMPD: while this thread is in an ompd_bp_* breakpoint, the region or task the breakpoint
   * is about (the spec's binding of the current parallel region / task there) */
  tomp_team_t *ompd_bp_team;
  tomp_task_t *ompd_bp_task;
} tomp_thread_t;

/* The word the idle workers of team sleep on: its primary's, for the team's depth; NULL for a
 * team beyond the primary's cache (freed at join: its workers sleep on their own go words). */
static inline uint32_t *tomp_team_park_word(tomp_team_t *team) {
  tomp_thread_t *primary = team->threads[0];
  return team->depth < sizeof primary->park / sizeof primary->park[0] ? &primary->park[team->depth]
                                                                      : NULL;
}

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
/* The same for one of several hand-overs of a fork: true if t sleeps on team's park word,
 * which the caller then wakes once after its last hand-over (tomp_park_wake), for all of
 * them.  A worker asleep anywhere else is woken here. */
bool tomp_worker_hand(tomp_thread_t *t, tomp_team_t *team, unsigned tid, void (*fn)(void *),
                      void *data) TOMP_HIDDEN;
/* Whether worker t sleeps on its team's park word (a look, no more: it may wake or park
 * right after). */
bool tomp_worker_parked(tomp_thread_t *t) TOMP_HIDDEN;
/* Wake every worker asleep on park word `word`. */
void tomp_park_wake(uint32_t *word) TOMP_HIDDEN;
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

/* An idle worker has no task (thr->task NULL), yet a tool's callback there (thread_begin,
 * idle, thread_end) may call omp_* routines: it reads the initial ICVs, and what it sets
 * is dropped (thread.c: a scratch copy in the worker's unused initial task). */
tomp_icv_t *tomp_icv_taskless(tomp_thread_t *thr) TOMP_HIDDEN;
static inline tomp_icv_t *tomp_icv_of(tomp_thread_t *thr) {
  tomp_task_t *task = thr->task;
  if (tomp_unlikely(!task)) return tomp_icv_taskless(thr);
  return &task->icv;
}
/* The calling thread's ICVs; one out-of-line call for both rare cases (a thread tomp does
 * not know yet, a thread with no task), so the common path keeps no frame: one test more. */
tomp_icv_t *tomp_icv_slow(void) TOMP_HIDDEN;
static inline tomp_icv_t *tomp_icv(void) {
  tomp_thread_t *t = tomp_self;
  tomp_task_t *task;
  if (tomp_likely(t != NULL) && tomp_likely((task = t->task) != NULL)) return &task->icv;
  return tomp_icv_slow();
}


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


#endif
