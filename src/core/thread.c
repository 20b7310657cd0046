/* Thread descriptors, worker threads and the pool of idle workers.
 *
 * A worker's life: it parks on its go word (polls it, then sleeps: on its team's park word,
 * see GO_PARKED) until a master hands it a team, runs its implicit task, waits at the team's
 * closing barrier and parks again.  A
 * worker stays reserved by the team struct that last used it (team->threads[1..nreserved]),
 * so back-to-back regions of the same master cost one store and, at most, one wake per
 * worker.  Workers a team no longer needs go back to the global pool. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#endif

#include "count.h"
#include "internal.h"

__thread tomp_thread_t *tomp_self;

/* ---- The thread table (thread_table.h) ------------------------------------------------- */

tomp_thread_table_t tomp_thread_table = {
    .version = TOMP_THREAD_TABLE_VERSION,
    .chunk_size = TOMP_THREAD_CHUNK,
    .max_chunks = TOMP_THREAD_CHUNKS,
    .thread_size = sizeof(tomp_thread_t),
    .off_gtid = offsetof(tomp_thread_t, gtid),
    .off_state = offsetof(tomp_thread_t, state),
    .off_wait_id = offsetof(tomp_thread_t, wait_id),
    .off_type = offsetof(tomp_thread_t, ompt_type),
    .off_pthread = offsetof(tomp_thread_t, pthread),
    .off_task = offsetof(tomp_thread_t, task),
    .off_team = offsetof(tomp_thread_t, team),
};
/* Writers (threads starting and ending) take it; readers never do. */
static tomp_mutex_t table_lock = TOMP_MUTEX_INIT;

/* Give t the next number and publish it: the entry, then the count.  Before t runs any
 * OpenMP code, so a thread always has its number. */
static void table_add(tomp_thread_t *t) {
  static bool warned;
  tomp_mutex_lock(&table_lock);
  uint32_t g = tomp_thread_table.count;
  tomp_thread_t **chunk = g / TOMP_THREAD_CHUNK < TOMP_THREAD_CHUNKS
                              ? tomp_thread_table.chunks[g / TOMP_THREAD_CHUNK]
                              : NULL;
  if (!chunk && g / TOMP_THREAD_CHUNK < TOMP_THREAD_CHUNKS) {
    chunk = calloc(TOMP_THREAD_CHUNK, sizeof *chunk);
    if (chunk) tomp_store_rel(&tomp_thread_table.chunks[g / TOMP_THREAD_CHUNK], chunk);
  }
  if (!chunk) {
    tomp_mutex_unlock(&table_lock);
    t->gtid = TOMP_GTID_NONE;
    if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
      tomp_warn("thread table full or out of memory: thread %u and later ones run without a "
                "global thread number (debuggers will not see them)",
                g);
    return;
  }
  t->gtid = g;
  tomp_store_rel(&chunk[g % TOMP_THREAD_CHUNK], t);
  tomp_store_rel(&tomp_thread_table.count, g + 1);
  tomp_mutex_unlock(&table_lock);
}

/* t has ended: its number retires (its descriptor stays readable, never freed). */
static void table_remove(tomp_thread_t *t) {
  if (t->gtid == TOMP_GTID_NONE) return;
  tomp_thread_t **chunk = tomp_thread_table.chunks[t->gtid / TOMP_THREAD_CHUNK];
  tomp_store_rel(&chunk[t->gtid % TOMP_THREAD_CHUNK], NULL);
}

/* A thread the program created ends: its entry goes (the main thread's stays: exit() runs no
 * thread-specific destructor). */
static pthread_key_t initial_exit_key;
static void initial_exit(void *p) {
  table_remove(p);
}
static void initial_exit_key_make(void) {
  pthread_key_create(&initial_exit_key, initial_exit);
}

/* go word states.  A sleeping worker is GO_SLEEP on its go word, or GO_PARKED on its team's
 * park word (t->park_word), where its primary's next fork wakes it together with the team's
 * other sleepers: one futex call per fork instead of one per worker. */
enum {
  GO_BUSY = 0,
  GO_WORK = 1,
  GO_IDLE = 2,
  GO_SLEEP = 3,
  GO_DEAD = 4,
  GO_END = 5,
  GO_PARKED = 6
};

/* Polls at most (the wait policy's budget, tomp_spins, bounds it) of a worker that a park
 * word's wake-up found without work: its team is most likely forking, and the hand-over that
 * wakes its go word follows within a few hand-overs (the tree release, team.c). */
#define PARK_POLLS 128

static tomp_mutex_t pool_lock = TOMP_MUTEX_INIT;
static tomp_thread_t *pool_head;
static pthread_attr_t worker_attr;
static pthread_once_t worker_attr_once = PTHREAD_ONCE_INIT;

/* once: two user threads may spawn their first workers at the same time */
static void worker_attr_init(void) {
  /* joinable: a worker ends only in tomp_pool_release_idle, which joins it */
  pthread_attr_init(&worker_attr);
  if (tomp_g.stacksize) {
    int rc = pthread_attr_setstacksize(&worker_attr, tomp_g.stacksize);
    if (rc)
      tomp_warn("OMP_STACKSIZE: cannot use a stack of %zu bytes (%s); using the default",
                tomp_g.stacksize, strerror(rc));
  }
}

static void init_thread_desc(tomp_thread_t *t, int ompt_type) {
  memset(t, 0, sizeof *t);
  t->ompt_type = ompt_type;
  t->place = -1;
  t->go = GO_BUSY;
  t->state = ompt_state_work_serial;
}

/* An initial thread: the process's main thread, or a thread the program created itself.
 * Its initial task carries the global ICVs. */
/* The calling thread's CPU number as the kernel keeps it in the rseq area glibc registered
 * for it (rseq(2)); NULL where there is none (glibc before 2.35, or registration turned
 * off: GLIBC_TUNABLES=glibc.pthread.rseq=0).  The area is the thread's own and lives as
 * long as the thread; the kernel stores the field whenever the thread returns to user space
 * on another CPU. */
static const uint32_t *rseq_cpu_word(void) {
#if __has_include(<sys/rseq.h>)
  if (__rseq_size == 0) return NULL;
  struct rseq *r = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
  if ((int32_t)tomp_load_rlx(&r->cpu_id) < 0) return NULL; /* not registered after all */
  return &r->cpu_id;
#else
  return NULL;
#endif
}

static tomp_thread_t *make_initial(void) {
  tomp_thread_t *t = tomp_malloc(sizeof *t);
  init_thread_desc(t, 1 /* ompt_thread_initial */);
  t->place = tomp_affinity_initial_place();
  t->pthread = pthread_self();
  t->lwp = gettid();
  tomp_store_rel(&t->cpu_word, rseq_cpu_word()); /* others may read it (wait.c) */
  tomp_task_t *it = &t->initial_task;
  it->icv = tomp_g.icv;
  it->flags = TOMP_TASK_INITIAL;
  it->frame.exit_frame.ptr = NULL;
  it->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  it->frame.enter_frame_flags = ompt_frame_application | ompt_frame_framepointer;
  t->task = it;
  table_add(t);
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, initial_exit_key_make);
  pthread_setspecific(initial_exit_key, t);
  tomp_self = t;
  if (tomp_listening()) tomp_ev_thread_begin_(t);
  return t;
}

void tomp_thread_init_initial(void) {
  if (!tomp_self) make_initial();
}

tomp_thread_t *tomp_thread_init_foreign(void) {
  tomp_init();
  if (tomp_self) return tomp_self;
  return make_initial();
}

/* A worker's part of one region.  observed is a constant (two copies: with a tool attached and
 * without), so a run without a tool tests once per region, not at every event site. */
static inline __attribute__((always_inline)) void run_region(tomp_thread_t *t, tomp_team_t *team,
                                                             const bool observed) {
  tomp_store_rlx(&t->team_busy, 1); /* published by our arrival at the closing barrier */
  /* read while the team's fields hold still; a waker reads it after seeing GO_PARKED */
  tomp_store_rlx(&t->park_word, tomp_team_park_word(team));
  t->team = team;
  t->tid = t->next_tid;
  t->task = &team->implicit[t->tid];
  t->ws_count = team->ws_initial;
  t->single_count = 0;
  t->ws_cur = NULL;
  tomp_set_state(t, ompt_state_work_parallel, 0);
  if (observed) tomp_ev_idle(t, false);
  tomp_bind_thread(t, team, 0);
  if (observed) tomp_ev_implicit_task(t, ompt_scope_begin);
  if (observed) tomp_ev_exit_frame(t->task, __builtin_frame_address(0));
  t->fn(t->fn_data);
  if (observed) {
    t->task->frame.exit_frame.ptr = NULL;
    tomp_barrier_wait(t, ompt_state_wait_barrier_implicit_parallel, false);
  } else {
    tomp_barrier_wait_worker_end(t); /* clears team_busy */
  }
  if (observed) tomp_ev_implicit_task(t, ompt_scope_end);
  t->team = NULL;
  t->task = NULL;
  tomp_set_state(t, ompt_state_idle, 0);
  if (observed) {
    tomp_ev_idle(t, true);
    tomp_ev_worker_done(team); /* the primary's parallel end may follow */
    tomp_store_rel(&t->team_busy, 0);
  }
}

tomp_icv_t *tomp_icv_taskless(tomp_thread_t *thr) {
  thr->initial_task.icv = tomp_g.icv;
  return &thr->initial_task.icv;
}

tomp_icv_t *tomp_icv_slow(void) { return tomp_icv_of(tomp_thread()); }

/* An idle worker's sleep on its team's park word (g: its go word, GO_IDLE or GO_WORK/END
 * if a hand-over came meanwhile).  Returns go's value after it.  A waker changes go first,
 * then bumps the word and wakes it (tomp_park_wake); we read the word before we look at go
 * once more, so either we see the hand-over or the futex wait sees the bump. */
static uint32_t park(tomp_thread_t *t, uint32_t g) {
  uint32_t idle = GO_IDLE;
  if (g != GO_IDLE || !tomp_cas(&t->go, &idle, GO_PARKED)) return g == GO_IDLE ? idle : g;
  uint32_t *word = tomp_load_rlx(&t->park_word);
  uint32_t s = __atomic_load_n(word, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&t->go, __ATOMIC_SEQ_CST) == GO_PARKED) tomp_futex_wait(word, s);
  if ((g = tomp_load_acq(&t->go)) != GO_PARKED) return g;
  uint32_t parked = GO_PARKED;
  if (!tomp_cas(&t->go, &parked, GO_IDLE)) return parked; /* handed a team (or an end) */
  /* Woken without work: a fork woke the word for others of our team (the tree release
   * hands over to us a few steps later) or a stray wake-up.  Poll a while, then sleep on
   * go, where one wake-up is ours alone, until the next region stores a word again.  No
   * waker reads the word we clear: one reads it only after its exchange found go
   * GO_PARKED, and go is GO_PARKED no more (our compare-exchange above), nor will be
   * before run_region's store. */
  tomp_store_rlx(&t->park_word, NULL);
  unsigned long n = tomp_spins();
  if (n > PARK_POLLS) n = PARK_POLLS;
  for (unsigned long i = 0; i < n && (g = tomp_load_acq(&t->go)) != GO_WORK && g != GO_END; i++)
    tomp_wait_pause();
  return tomp_load_acq(&t->go);
}

static void *worker_main(void *arg) {
  tomp_thread_t *t = arg;
  tomp_self = t;
  t->lwp = gettid();
  tomp_store_rel(&t->cpu_word, rseq_cpu_word()); /* others may read it (wait.c) */
  tomp_set_state(t, ompt_state_idle, 0);
  tomp_ev_thread_begin(t);
  tomp_ev_idle(t, true);
  for (;;) {
    /* Park until a master assigns a team (GO_WORK) or finalization asks for our
     * thread_end (GO_END: a value of its own, so that it never merges with a team's post). */
    uint32_t g = tomp_load_acq(&t->go);
    if (g != GO_WORK && g != GO_END) {
      unsigned long n = tomp_spins();
      for (unsigned long i = 0; i < n && (g = tomp_load_acq(&t->go)) != GO_WORK && g != GO_END;
           i++)
        tomp_wait_pause();
      while (g != GO_WORK && g != GO_END) {
        uint32_t idle = GO_IDLE;
        TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, WAIT, 2); /* the exchange to sleep, the futex wait */
        if (tomp_load_rlx(&t->park_word)) {
          g = park(t, g);
          continue;
        }
        if (g == GO_IDLE && !tomp_cas(&t->go, &idle, GO_SLEEP)) {
          g = idle;
          continue;
        }
        tomp_futex_wait(&t->go, GO_SLEEP);
        g = tomp_load_acq(&t->go);
      }
    }
    if (tomp_unlikely(tomp_load_acq(&t->ompt_end_req))) {
      /* the tool is being finalized: report our end (ompt_life keeps it to one report) */
      tomp_ev_thread_end(t);
      tomp_store_rel(&t->ompt_end_req, 0);
    }
    if (g == GO_END) {
      uint32_t e = GO_END;
      if (tomp_cas(&t->go, &e, GO_IDLE)) continue;
      /* a fork posted a team meanwhile (go == GO_WORK): take it */
    }
    TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, WRITE, 1); /* go and team_busy: the primary's line next */
    tomp_store_rlx(&t->go, GO_BUSY);
    tomp_team_t *team = t->next_team;
    if (!team) { /* ended by tomp_pool_release_idle */
      tomp_ev_idle(t, false);
      break;
    }
    if (tomp_listening())
      run_region(t, team, true);
    else
      run_region(t, team, false);
    /* The next fork may already have handed us a team (it waits for team_busy, not for
     * this): then go is GO_WORK and we take it at once. */
    uint32_t busy = GO_BUSY;
    TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, RMW, 1);
    tomp_cas(&t->go, &busy, GO_IDLE);
  }
  tomp_ev_thread_end(t);
  __atomic_sub_fetch(&tomp_nthreads_live, 1, __ATOMIC_RELAXED);
  table_remove(t);
  /* The descriptor stays allocated: a reader of the thread table may still hold it.  GO_DEAD
   * makes every later hand-off attempt (tomp_worker_request_thread_end) fail cleanly. */
  tomp_store_rel(&t->go, GO_DEAD);
  return NULL;
}

/* Start a new worker thread; NULL (after one message) if the system refuses. */
static tomp_thread_t *spawn_worker(void) {
  static bool warned;
  pthread_once(&worker_attr_once, worker_attr_init);
  tomp_thread_t *t = aligned_alloc(TOMP_CACHELINE, (sizeof *t + TOMP_CACHELINE - 1) &
                                                       ~(size_t)(TOMP_CACHELINE - 1));
  if (!t) {
    if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
      tomp_warn("out of memory for a thread descriptor; running with a smaller team");
    return NULL;
  }
  init_thread_desc(t, 2 /* ompt_thread_worker */);
  t->go = GO_IDLE;
  /* in the table (a debugger reads it) and maybe in a team before it first runs: waiting for
   * work, not "outside all parallel regions" */
  t->state = ompt_state_idle;
  table_add(t); /* before it runs: its thread_begin may already read the number */
  int rc = pthread_create(&t->pthread, &worker_attr, worker_main, t);
  if (rc) {
    if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
      tomp_warn("cannot create a thread (%s); running with a smaller team", strerror(rc));
    table_remove(t); /* its number retires unused; the descriptor stays (readers) */
    return NULL;
  }
  __atomic_add_fetch(&tomp_nthreads_live, 1, __ATOMIC_RELAXED);
  return t;
}

/* An idle worker: from the pool, else a new thread.  NULL if none can be had. */
tomp_thread_t *tomp_worker_get(void) {
  tomp_thread_t *t = NULL;
  if (tomp_load_rlx(&pool_head)) {
    tomp_mutex_lock(&pool_lock);
    t = pool_head;
    if (t) tomp_store_rlx(&pool_head, t->pool_next);
    tomp_mutex_unlock(&pool_lock);
  }
  return t ? t : spawn_worker();
}

/* Wait until worker t no longer reads its previous team's shared state (it may still be
 * in the closing barrier's code, but only to leave it). */
void tomp_worker_wait_out(tomp_thread_t *t) {
  for (unsigned i = 0; __atomic_load_n(&t->team_busy, __ATOMIC_SEQ_CST); i++)
    tomp_wait_backoff(i);
}

/* Wait until worker t has left its previous region (it may still be leaving a barrier). */
void tomp_worker_wait_idle(tomp_thread_t *t) {
  /* Nearly always already idle; when threads outnumber CPUs the worker may need our CPU to
   * get there, so yield (or sleep a moment) rather than spin. */
  for (unsigned i = 0; tomp_load_acq(&t->go) < GO_IDLE; i++) tomp_wait_backoff(i);
}

void tomp_worker_put(tomp_thread_t *t) {
  tomp_worker_wait_idle(t);
  tomp_mutex_lock(&pool_lock);
  t->pool_next = pool_head;
  tomp_store_rlx(&pool_head, t);
  tomp_mutex_unlock(&pool_lock);
}

void tomp_park_wake(uint32_t *word) {
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, RMW, 1);
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, WAKE, 1);
  __atomic_add_fetch(word, 1, __ATOMIC_SEQ_CST);
  tomp_futex_wake(word, 0x7fffffff);
}

/* The rare part of a hand-over: t was asleep.  Parked, it stored park_word before, and it
 * stays asleep on that word until someone bumps it: read after the exchange.  (A stray
 * wake-up can let it start the region and store its new team's word meanwhile: then we wake
 * a word it no longer sleeps on, which costs a stray wake-up elsewhere, nothing more.) */
static __attribute__((noinline, cold)) bool hand_wake(tomp_thread_t *t, tomp_team_t *team,
                                                      uint32_t was) {
  if (was == GO_SLEEP) {
    TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, WAKE, 1);
    tomp_futex_wake(&t->go, 1);
    return false;
  }
  uint32_t *w = tomp_load_rlx(&t->park_word);
  /* NULL: a stray wake-up let t start this region already, and its team, nested deeper than
   * the team cache, has no park word (run_region stores NULL then; park() clears it only
   * after moving go out of GO_PARKED, so a waker that found GO_PARKED never sees that) */
  if (!w) return false;
  if (team && w == tomp_team_park_word(team)) return true;
  tomp_park_wake(w); /* a worker from the pool, parked on its last team's word */
  return false;
}

bool tomp_worker_hand(tomp_thread_t *t, tomp_team_t *team, unsigned tid, void (*fn)(void *),
                      void *data) {
  t->next_team = team;
  t->next_tid = tid;
  t->fn = fn;
  t->fn_data = data;
  /* the fields share go's line: one exchange takes it */
  TOMP_COUNT_ADD(TOMP_CNT_FORKJOIN, RMW, 1);
  uint32_t was = tomp_xchg(&t->go, GO_WORK);
  if (tomp_likely(was != GO_SLEEP && was != GO_PARKED)) return false;
  return hand_wake(t, team, was);
}

bool tomp_worker_parked(tomp_thread_t *t) {
  return tomp_load_rlx(&t->go) == GO_PARKED;
}

/* Hand worker t (idle) its part of team. */
void tomp_worker_start(tomp_thread_t *t, tomp_team_t *team, unsigned tid, void (*fn)(void *),
                       void *data) {
  if (tomp_worker_hand(t, team, tid, fn, data)) tomp_park_wake(tomp_team_park_word(team));
}

/* Finalization of the tool: wake parked worker w to report its thread_end on its own
 * thread.  False if w is busy in a region. */
bool tomp_worker_request_thread_end(tomp_thread_t *w) {
  tomp_store_rel(&w->ompt_end_req, 1);
  for (;;) {
    uint32_t g = tomp_load_acq(&w->go);
    if (g != GO_IDLE && g != GO_SLEEP && g != GO_PARKED) break;
    if (tomp_cas(&w->go, &g, GO_END)) {
      if (g == GO_SLEEP || g == GO_PARKED) hand_wake(w, NULL, g);
      return true;
    }
  }
  tomp_store_rel(&w->ompt_end_req, 0);
  return false;
}

/* omp_pause_resource(omp_pause_hard): return the workers the caller's cached teams keep
 * parked, then end every worker in the pool.  Only outside any region of the caller; workers
 * other initial threads hold stay.  Later regions start new workers. */
void tomp_pool_release_idle(tomp_thread_t *thr) {
  size_t ncache = sizeof thr->team_cache / sizeof thr->team_cache[0];
  for (size_t d = 0; d < ncache; d++) {
    tomp_team_t *team = thr->team_cache[d];
    if (!team) continue;
    while (team->nreserved > 0) tomp_worker_put(team->threads[team->nreserved--]);
  }
  tomp_mutex_lock(&pool_lock);
  tomp_thread_t *list = pool_head;
  tomp_store_rlx(&pool_head, NULL); /* tomp_worker_get peeks at it without the lock */
  tomp_mutex_unlock(&pool_lock);
  for (tomp_thread_t *w = list; w; w = w->pool_next) {
    tomp_worker_wait_idle(w);
    /* w exits once it sees the NULL team (it no longer touches pool_next) */
    tomp_worker_start(w, NULL, 0, NULL, NULL);
  }
  /* Return only when they are gone: a thread still in its exit path can hold a libc or
   * sanitizer allocator lock, and a fork() right after the pause (the reason programs pause)
   * would give the child that lock held forever. */
  for (tomp_thread_t *w = list; w; w = w->pool_next) pthread_join(w->pthread, NULL);
}

/* After fork() in a child process only the forking thread exists: forget every worker so
 * the child's first region starts a fresh pool instead of waiting for threads that are gone. */
static void atfork_child(void) {
  /* atomic stores: the parent's threads last wrote these atomically (TSan compares) */
  tomp_store_rlx(&pool_head, NULL);
  tomp_store_rlx(&pool_lock.v, 0);
  tomp_store_rlx(&tomp_nthreads_live, 1);
  tomp_wait_atfork_child(); /* the sleepers and busy verdicts were the parent's */
  tomp_store_rlx(&table_lock.v, 0);
  tomp_thread_t *t;
  for (uint32_t g = 0; (t = tomp_thread_next(&g)) != NULL;)
    if (t != tomp_self) table_remove(t);
  if (tomp_self) {
    tomp_team_cache_forget_workers(tomp_self);
    if (tomp_self->ompt_type != 1) tomp_self->ompt_type = 1;
  }
}

__attribute__((constructor(102))) static void thread_ctor(void) {
  pthread_atfork(NULL, NULL, atfork_child);
}
