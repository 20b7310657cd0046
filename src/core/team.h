/* Teams: the barrier, a team's shared state, fork and join (team.c), the barrier's entry
 * points (barrier.c) and the hooks fork/join call in the tasking and worksharing modules.
 * Included through internal.h. */
#ifndef TOMP_TEAM_H
#define TOMP_TEAM_H



/* Teams larger than this use the combining-tree barrier and the tree-shaped fork release
 * (barrier.c, team.c); smaller ones the central counter and the primary starting every
 * worker, which are cheaper while all threads fit in a few cache-line transfers.  The tree's
 * fan-in and the release's fan-out. */
#define TOMP_TREE_MIN 16
#define TOMP_TREE_FANOUT 4

/* A node of the combining tree: the arrivals of up to TOMP_TREE_FANOUT threads (a leaf) or
 * nodes, on a line of its own.  The last to arrive resets it and goes on to the parent. */
typedef struct tomp_barnode {
  uint32_t arrived[2] __attribute__((aligned(TOMP_CACHELINE))); /* [1]: the closing barrier */
  uint32_t target;
  uint32_t parent; /* node index; TOMP_BARNODE_ROOT: the barrier's own counter */
} tomp_barnode_t;
#define TOMP_BARNODE_ROOT 0xffffffffu

/* Counting barrier: the central counter, or above TOMP_TREE_MIN threads (and without
 * cancellation, whose early leaving is an undo of one central arrival) a combining tree whose
 * root is that counter.  It persists across regions of a cached team (gen only grows), so a
 * worker still leaving one episode never sees a reinitialised barrier. */
typedef struct tomp_barrier {
  uint32_t arrived __attribute__((aligned(TOMP_CACHELINE)));
  /* The region's closing barrier counts apart: after `cancel parallel` a thread can reach
   * it while others still wait in an explicit barrier, whose round it must not complete. */
  uint32_t arrived_final;
  uint32_t gen __attribute__((aligned(TOMP_CACHELINE))); /* bumped at each release */
  uint32_t seq;         /* futex word: bumped at release and when tasks appear for sleepers */
  uint32_t sleepers;    /* waiters asleep on seq */
  /* arrivals at the counter that complete an episode: the team's size, or the root's
   * children with the tree (never 1 then) */
  uint32_t nthreads;
  uint32_t tree;        /* 1: arrivals go through nodes (thread i's leaf: i / FANOUT) */
  uint32_t size;        /* the team size it is set up for (tomp_barrier_size) */
  tomp_barnode_t *nodes;
  unsigned nodes_cap;
} tomp_barrier_t;

/* At fork when the team's size changed (a team of one: at its first barrier with tasks):
 * the counter's target, and the tree above TOMP_TREE_MIN threads.  No thread of the team is
 * in the barrier.  fini frees the nodes. */
void tomp_barrier_size(tomp_barrier_t *b, unsigned nthreads) TOMP_HIDDEN;
void tomp_barrier_fini(tomp_barrier_t *b) TOMP_HIDDEN;

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
  /* The join's wait for the workers' end events (event.h, tomp_ev_join_wait): workers that
   * have not reported them yet (bit 31: the primary sleeps on the word); ev_epoch below.
   * Both are written only on the tool path, and fill padding (the layout is unchanged). */
  uint32_t ev_left;
  void (*fn)(void *); /* the region's outlined body: stored while someone listens (OMPD) */
  void *fn_data;      /* its argument, stored with it (runner.h: a front-end's runner) */
  void (*tree_fn)(void *); /* the body, for workers started by the tree release (team.c) */
  uint64_t ompd_id;   /* OMPD: the region instance's number (src/ompd writes it), 0 unknown */
  /* Team-wide scratch for the front-end (copyprivate, reductions) */
  void *volatile scratch;
  /* Task reductions with the task modifier whose threads register one by one (LLVM's
   * __kmpc_taskred_modifier_init; [0] parallel, [1] worksharing): the registration whose
   * storage the others share, and how many threads have ended theirs.  The front-end owns
   * both; the last thread to end resets them (NULL and 0 at rest). */
  void *volatile task_red_first[2];
  uint32_t task_red_done[2];
  /* KMP_DETERMINISTIC_REDUCTION: the thread number whose turn it is to combine its copies in
   * a reduction of clang code, and a bit for a sleeper (the front-end's; 0 at rest) */
  uint32_t red_turn;
  /* env/affinity: the team's placement, fixed by the master before workers start */
  int place_master;             /* place of thread 0 (-1: the team is not bound) */
  unsigned char bind_policy;    /* TOMP_BIND_PRIMARY/CLOSE/SPREAD in effect, 0 = unbound */
  bool ev_join;                 /* the observed fork armed ev_left: the workers count down */
  uint32_t ev_epoch;            /* tomp_listen_epoch at an observed fork (see ev_left) */
  uint32_t *cg_busy;            /* the contention group's counter (its initial task's cg_busy) */
  uint64_t coll_prid;           /* Collector API region id; 0 until a session needs one */
  void *aff_disp;               /* OMP_DISPLAY_AFFINITY's state of the region (display.c) */
  /* Plain `single` constructs won so far (ws.c); the line every thread CASes, alone */
  unsigned long single_count __attribute__((aligned(TOMP_CACHELINE)));
} tomp_team_t;

/* team->cancelled bits.  PARALLEL stays set to the end of the region.  `cancel for/sections`
 * is a flag on the construct's descriptor (ws.h); WS holds it when the thread has no
 * construct (a static loop gcc inlined, first in its region) until the next barrier. */
#define TOMP_CANCEL_PARALLEL 1u
#define TOMP_CANCEL_WS 2u


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
void tomp_parallel_quiet(void (*fn)(void *), void *data, unsigned requested,
                          unsigned bind) TOMP_HIDDEN;

/* Barrier for the calling thread's team.  Executes pending tasks while waiting.  Returns
 * true if the wait ended because the region was cancelled (only when cancellable). */
bool tomp_barrier_wait(tomp_thread_t *thr, int ompt_kind, bool cancellable) TOMP_HIDDEN;
/* The same on a path that already knows no tool is attached: no event-site test. */
bool tomp_barrier_wait_quiet(tomp_thread_t *thr, int ompt_kind, bool cancellable) TOMP_HIDDEN;
/* A worker's closing barrier without a tool: as above, but the worker announces through
 * thr->team_busy when it is not touching the team, so the next fork can proceed. */
void tomp_barrier_wait_worker_end(tomp_thread_t *thr) TOMP_HIDDEN;
/* task.c tells the barrier that work appeared or that the last task finished */
void tomp_barrier_tasks_posted(tomp_team_t *team) TOMP_HIDDEN;
/* n tasks were queued: wake at most n sleepers */
void tomp_barrier_tasks_posted_n(tomp_team_t *team, unsigned n) TOMP_HIDDEN;
void tomp_barrier_tasks_done(tomp_team_t *team) TOMP_HIDDEN;
void tomp_barrier_cancel(tomp_team_t *team) TOMP_HIDDEN;

/* Tasking hooks fork/join rely on (task.c). */
void tomp_team_tasks_init(tomp_team_t *team) TOMP_HIDDEN; /* at fork */
void tomp_team_tasks_fini(tomp_team_t *team) TOMP_HIDDEN; /* at join, after the barrier */

/* Task reductions on worksharing constructs and scope (task module, tomp_redset_t in task.h):
 * every thread registers its own descriptor r; the first thread to reach the construct passes
 * first == NULL, allocates and publishes r; the others pass the first thread's and share its
 * storage. */
struct tomp_redset;
void tomp_ws_task_reduction_begin(tomp_thread_t *thr, struct tomp_redset *r,
                                  const struct tomp_redset *first) TOMP_HIDDEN;

/* Worksharing hooks (ws.c) */
void tomp_team_ws_init(tomp_team_t *team) TOMP_HIDDEN;
void tomp_team_ws_fini(tomp_team_t *team) TOMP_HIDDEN;
/* ws: tomp_fork calls it once the team's size is known, before prep */
void tomp_team_ws_reset(tomp_team_t *team) TOMP_HIDDEN;


#endif
