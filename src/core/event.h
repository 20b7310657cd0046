/* The event layer: what the core tells observers (src/ompt, src/collector, later src/ompd)
 * and what it costs when nobody listens.  docs/architecture.md explains the layer;
 * docs/ompt-support.md ("Cost without a tool") measures its no-listener path.
 *
 * Three mechanisms, each one name:
 *  - tomp_listeners, the listening word: one bit per attached observer (TOMP_OBS_*).  Core
 *    code never loads it on a hot path; it asks tomp_listening(), a tool key (toolkey.c): a
 *    five-byte no-op that tomp rewrites into a jump while the word is nonzero.
 *  - tomp_ev_want[TOMP_EV_*]: per event, the bits of the observers that want it.  Tested only
 *    behind tomp_listening(), so an observer that wants few events costs few calls.
 *  - one typed hook per event (tomp_observer_t).  An observer fills in the hooks it handles
 *    and registers it with TOMP_OBSERVER (a pointer in a linker section, so it is there before
 *    any constructor runs: a Collector API client may call from preinit); core calls the
 *    observers in slot order through the dispatchers in event.c.
 * Core owns the state observers read (thread states and wait ids, task frames and data, the
 * thread table); observers own only what they add (tool data is core's ompt_data_t fields).
 * The vocabulary is OpenMP's (omp-tools.h enumerations): it is the standard's, not OMPT's. */
#ifndef TOMP_EVENT_H
#define TOMP_EVENT_H

#ifndef TOMP_INTERNAL_H
#error "include internal.h, which includes event.h after the types it needs"
#endif

/* ---- Who listens --------------------------------------------------------------------- */

/* Observers, by slot; bit (1 << slot) in tomp_listeners and in tomp_ev_want[]. */
enum { TOMP_OBS_SLOT_OMPT, TOMP_OBS_SLOT_COLLECTOR, TOMP_OBS_SLOT_OMPD, TOMP_OBS_NSLOTS };
#define TOMP_OBS_OMPT (1 << TOMP_OBS_SLOT_OMPT)
#define TOMP_OBS_COLLECTOR (1 << TOMP_OBS_SLOT_COLLECTOR)
#define TOMP_OBS_OMPD (1 << TOMP_OBS_SLOT_OMPD)

/* Nonzero while an observer listens.  Hot code does not load it: it asks tomp_listening(). */
extern int tomp_listeners TOMP_HIDDEN;

/* `make NO_OMPT=1` (build-noompt/): the event layer compiled out, every event site folds
 * away.  Only for measuring what observability costs: such a build never finds a tool. */
#ifdef TOMP_NO_OMPT
#define TOMP_LISTENING() 0
#define TOMP_TOOL_KEYS 0
#elif defined(__x86_64__)
/* A tool key (toolkey.c): a five-byte no-op that tomp_tool_keys_sync rewrites into a jump to
 * the `on` branch while tomp_listeners is nonzero, so the no-listener path evaluates nothing.
 * The no-op never straddles an aligned 8-byte word (.balign 8,,4 pads only when it would),
 * so one 8-byte store rewrites it; the record holds both addresses relative to itself. */
#define TOMP_TOOL_KEYS 1
static inline __attribute__((always_inline)) bool tomp_tool_key_(void) {
  __asm__ goto(".balign 8,,4\n"
               "1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
               ".pushsection tomp_tool_keys, \"a\"\n\t"
               ".balign 4\n\t"
               ".long 1b - ., %l[on] - .\n\t"
               ".popsection"
               :
               :
               :
               : on);
  return false;
on:
  __attribute__((cold));
  return true;
}
#define TOMP_LISTENING() tomp_tool_key_()
#else
#define TOMP_LISTENING() (__atomic_load_n(&tomp_listeners, __ATOMIC_RELAXED) != 0)
#define TOMP_TOOL_KEYS 0
#endif

/* The one question every event site asks: is anyone listening? */
static inline __attribute__((always_inline)) bool tomp_listening(void) {
  return tomp_unlikely(TOMP_LISTENING() != 0);
}

/* An observer starts or stops listening: its bit, then the code (toolkey.c).  tomp_listen
 * answers false when the code cannot be rewritten: the bit is gone again and the caller
 * says so (the key code already printed why). */
bool tomp_listen(int obs_bit) TOMP_HIDDEN;
void tomp_unlisten(int obs_bit) TOMP_HIDDEN;
/* After every change of tomp_listeners: the keys follow the word (toolkey.c). */
bool tomp_tool_keys_sync(void) TOMP_HIDDEN;
/* The lock tomp_tool_keys_sync holds, for fork handlers: taken before fork(), released after
 * it in parent and child. */
void tomp_tool_keys_lock(void) TOMP_HIDDEN;
void tomp_tool_keys_unlock(void) TOMP_HIDDEN;

/* ---- What they want ------------------------------------------------------------------- */

typedef enum {
  TOMP_EV_PARALLEL,      /* parallel (and league) begin/end */
  TOMP_EV_IMPLICIT_TASK, /* implicit and initial task begin/end */
  TOMP_EV_WORK,          /* worksharing begin/end (loops, sections, single, taskloop) */
  TOMP_EV_DISPATCH,      /* chunks, sections, taskloop chunks */
  TOMP_EV_SYNC,          /* barriers, taskwait, taskgroup: region and wait */
  TOMP_EV_REDUCTION,     /* task reductions */
  TOMP_EV_TASK_CREATE,
  TOMP_EV_TASK_SCHEDULE,
  TOMP_EV_DEPENDENCES,     /* a task's (or a doacross iteration's) dependences */
  TOMP_EV_TASK_DEPENDENCE, /* an edge between two sibling tasks */
  TOMP_EV_MUTEX_ACQUIRE,
  TOMP_EV_MUTEX_ACQUIRED,
  TOMP_EV_MUTEX_RELEASED,
  TOMP_EV_LOCK_INIT,
  TOMP_EV_LOCK_DESTROY,
  TOMP_EV_NEST_LOCK, /* a nest lock re-acquired or partly released */
  TOMP_EV_CANCEL,
  TOMP_EV_MASKED, /* masked and master regions (only LLVM's ABI calls the runtime for them) */
  TOMP_EV_FLUSH,  /* flush constructs (likewise) */
  TOMP_EV_NEVENTS
} tomp_event_t;

/* Bits of the observers that want each event (set and cleared with atomic or/and). */
extern uint8_t tomp_ev_want[TOMP_EV_NEVENTS] TOMP_HIDDEN;
#define TOMP_EV_WANTED(ev) (__atomic_load_n(&tomp_ev_want[ev], __ATOMIC_RELAXED) != 0)
/* An observer's interest: set (on) or clear its bit for event ev. */
void tomp_ev_set_wanted(int obs_bit, tomp_event_t ev, bool on) TOMP_HIDDEN;

/* ---- The hooks ------------------------------------------------------------------------ */

/* What a host target region or a league carries for its events. */
typedef struct tomp_ev_target {
  ompt_data_t data; /* the observer's (OMPT: the EMI target_data) */
  uint64_t id;      /* a fresh id per region, assigned at begin */
} tomp_ev_target_t;

enum {
  TOMP_MUTEX_EV_ACQUIRE,
  TOMP_MUTEX_EV_ACQUIRED,
  TOMP_MUTEX_EV_RELEASED,
  TOMP_MUTEX_EV_LOCK_INIT,
  TOMP_MUTEX_EV_LOCK_DESTROY,
  TOMP_MUTEX_EV_NEST_BEGIN,
  TOMP_MUTEX_EV_NEST_END
};

/* One typed hook per event: X(name, (parameters), (arguments)).  Every hook runs on the thread
 * the event happens on, after the core state it describes is current.  codeptr is the user
 * return address the event reports (see tomp_ev_codeptr). */
#define TOMP_OBSERVER_HOOKS(X)                                                                     \
  X(thread_begin, (tomp_thread_t * thr), (thr))                                                    \
  X(thread_end, (tomp_thread_t * thr), (thr))                                                      \
  X(idle, (tomp_thread_t * thr, bool begin), (thr, begin))                                         \
  /* a team was forked (flags: ompt_parallel_flag_t; requested: the parallelism asked for) */      \
  X(parallel_begin,                                                                                \
    (tomp_thread_t * thr, tomp_team_t * team, tomp_task_t * enc, unsigned requested, int flags),   \
    (thr, team, enc, requested, flags))                                                            \
  X(parallel_end, (tomp_thread_t * thr, tomp_team_t * team, tomp_task_t * enc), (thr, team, enc))  \
  /* a league (host teams region) begins or ends: its parallel data is pdata */                    \
  X(league,                                                                                        \
    (tomp_thread_t * thr, ompt_scope_endpoint_t ep, tomp_task_t * enc, ompt_data_t * pdata,        \
     unsigned nteams, const void *codeptr),                                                        \
    (thr, ep, enc, pdata, nteams, codeptr))                                                        \
  /* the calling thread's implicit task of its team begins or ends */                              \
  X(implicit_task, (tomp_thread_t * thr, ompt_scope_endpoint_t ep), (thr, ep))                     \
  /* the initial task of a league's team or of a target region */                                  \
  X(initial_task,                                                                                  \
    (tomp_thread_t * thr, ompt_scope_endpoint_t ep, tomp_region_task_t * rt, unsigned index),      \
    (thr, ep, rt, index))                                                                          \
  X(work,                                                                                          \
    (tomp_thread_t * thr, tomp_task_t * task, int wstype, ompt_scope_endpoint_t ep,                \
     uint64_t count, const void *codeptr),                                                         \
    (thr, task, wstype, ep, count, codeptr))                                                       \
  /* kind: ompt_dispatch_t; a: a chunk's first iteration value or a section's number, n: the       \
   * chunk's iteration count; task: the task that executes it */                                   \
  X(dispatch, (tomp_thread_t * thr, tomp_task_t * task, int kind, uint64_t a, uint64_t n),         \
    (thr, task, kind, a, n))                                                                       \
  /* state: the wait state (ompt_state_wait_barrier_*, _taskwait, _taskgroup) naming the           \
   * region; wait: the waiting part nested inside the region */                                    \
  X(sync_region,                                                                                   \
    (tomp_thread_t * thr, int state, ompt_scope_endpoint_t ep, bool wait, const void *codeptr),    \
    (thr, state, ep, wait, codeptr))                                                               \
  X(reduction, (tomp_thread_t * thr, ompt_scope_endpoint_t ep, const void *codeptr),               \
    (thr, ep, codeptr))                                                                            \
  /* the thread that executes a masked (or master) region enters or leaves it */                   \
  X(masked, (tomp_thread_t * thr, ompt_scope_endpoint_t ep, const void *codeptr),                  \
    (thr, ep, codeptr))                                                                            \
  X(flush, (tomp_thread_t * thr, const void *codeptr), (thr, codeptr))                             \
  X(task_create,                                                                                   \
    (tomp_thread_t * thr, tomp_task_t * parent, tomp_task_t * task, bool has_deps,                 \
     const void *codeptr),                                                                         \
    (thr, parent, task, has_deps, codeptr))                                                        \
  X(task_schedule, (tomp_task_t * prior, int status, tomp_task_t *next), (prior, status, next))    \
  X(dependences, (tomp_task_t * task, const ompt_dependence_t *deps, int n), (task, deps, n))      \
  X(task_dependence, (tomp_task_t * pred, tomp_task_t * succ), (pred, succ))                       \
  /* which: TOMP_MUTEX_EV_*; kind: ompt_mutex_t; wait_id: the user-visible object */               \
  X(mutex,                                                                                         \
    (tomp_thread_t * thr, int which, int kind, unsigned hint, const void *wait_id,                 \
     const void *codeptr),                                                                         \
    (thr, which, kind, hint, wait_id, codeptr))                                                    \
  /* task: the task that met the cancellation, or the discarded task (in thr's current task) */ \
  X(cancel, (tomp_thread_t * thr, tomp_task_t * task, int flags, const void *codeptr),             \
    (thr, task, flags, codeptr))                                                                   \
  X(error, (tomp_thread_t * thr, int severity, const char *msg, size_t len, const void *codeptr),  \
    (thr, severity, msg, len, codeptr))                                                            \
  X(target,                                                                                        \
    (tomp_thread_t * thr, int kind, ompt_scope_endpoint_t ep, tomp_task_t *task,                   \
     tomp_ev_target_t *r, const void *codeptr),                                                    \
    (thr, kind, ep, task, r, codeptr))

/* An observer: a name, a start hook (tomp_init calls it once core is ready; OMPT looks for a
 * tool there) and the hooks it handles (NULL: it ignores the event). */
typedef struct tomp_observer {
  const char *name;
  void (*start)(void);
  /* omp_control_tool, whether or not the observer listens: its answer (omp_control_tool_*);
   * ra and fp are the API routine's return address and frame (for TOMP_ENTRY_AT). */
  int (*control_tool)(int command, int modifier, void *arg, const void *ra, void *fp);
#define TOMP_HOOK_FIELD_(name, params, args) void(*name) params;
  TOMP_OBSERVER_HOOKS(TOMP_HOOK_FIELD_)
#undef TOMP_HOOK_FIELD_
} tomp_observer_t;

/* An observer plugs in: TOMP_OBSERVER(slot, ops) at file scope puts a pointer to ops in the
 * section tomp_observers, which core reads (event.c).  No constructor: the linker's table is
 * complete from the moment the library is loaded, whatever runs first. */
typedef struct tomp_observer_reg {
  int slot; /* TOMP_OBS_SLOT_* */
  const tomp_observer_t *obs;
} tomp_observer_reg_t;
#define TOMP_OBSERVER(slot_, ops_)                                                                 \
  static const tomp_observer_reg_t tomp_observer_reg_                                              \
      __attribute__((used, section("tomp_observers"), aligned(sizeof(void *)))) = {(slot_),        \
                                                                                   &(ops_)}
/* tomp_init: every attached observer's start hook. */
void tomp_observers_start(void) TOMP_HIDDEN;
/* The dispatchers' table follows tomp_listeners: per hook, the one listening observer's
 * function, a fan-out to several, or NULL.  tomp_tool_keys_sync calls it (under its lock)
 * after every change of the word, so one load and one indirect call deliver an event. */
void tomp_observers_sync(void) TOMP_HIDDEN;

/* omp_control_tool: the first observer that answers it (OMPT), else -2
 * (omp_control_tool_notool). */
int tomp_ev_control_tool(int command, int modifier, void *arg, const void *ra,
                         void *fp) TOMP_HIDDEN;

/* ---- Event-layer state and helpers (event.c) -------------------------------------------- */

/* The parallel region a task binds to: its team's, a league's or target region's, or its
 * initial thread's implicit one. */
ompt_data_t *tomp_ev_parallel_data_outside_(tomp_task_t *task) TOMP_HIDDEN;
static inline ompt_data_t *tomp_ev_parallel_data_of(tomp_task_t *task) {
  /* inline for a task of a team, the case of every frequent event */
  return task->team ? &task->team->parallel_data : tomp_ev_parallel_data_outside_(task);
}
/* The user return address an event of thr reports: the one its outermost entry point
 * recorded, else the team's region's. */
static inline const void *tomp_ev_codeptr(tomp_thread_t *thr) {
  if (thr->codeptr) return thr->codeptr;
  return thr->team ? thr->team->codeptr : NULL;
}

/* ---- Dispatchers: the cold halves of the event sites (event.c) --------------------------- */

void tomp_ev_thread_begin_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ev_thread_end_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ev_idle_(tomp_thread_t *thr, bool begin) TOMP_HIDDEN;
void tomp_ev_league_(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_task_t *enc,
                     ompt_data_t *pdata, unsigned nteams) TOMP_HIDDEN;
void tomp_ev_region_task_(ompt_scope_endpoint_t ep, tomp_region_task_t *rt,
                          unsigned index) TOMP_HIDDEN;
/* state: the barrier's kind (ompt_state_wait_barrier_explicit or _implicit_workshare) */
void tomp_ev_serial_barrier_(tomp_thread_t *thr, int state, const void *codeptr) TOMP_HIDDEN;
/* taskwait / taskgroup regions (state ompt_state_wait_taskwait / _taskgroup): the region and
 * its wait, nested */
void tomp_ev_sync_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
void tomp_ev_reduction_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
void tomp_ev_masked_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
void tomp_ev_flush_(tomp_thread_t *thr) TOMP_HIDDEN;
/* single: executor or not; deferred_end: gcc calls nothing at the block's end (event.c) */
void tomp_ev_single_begin_(tomp_thread_t *thr, bool executor, bool deferred_end) TOMP_HIDDEN;
void tomp_ev_single_end_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ev_single_flush_(tomp_thread_t *thr) TOMP_HIDDEN;
/* doacross: the current task's dependences, n entries of type source or sink whose
 * variable.value is the iteration vector (logical iteration numbers) */
void tomp_ev_doacross_(tomp_thread_t *thr, int type, const uint64_t *v, unsigned n) TOMP_HIDDEN;
void tomp_ev_error_(tomp_thread_t *thr, int severity, const char *msg, size_t len) TOMP_HIDDEN;
void tomp_ev_target_(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep, tomp_task_t *task,
                     tomp_ev_target_t *r) TOMP_HIDDEN;
/* Worksharing module (loop.c): work-begin of the construct a combined parallel loop or
 * sections pre-entered, for the calling thread. */
void tomp_ev_ws_initial(tomp_thread_t *thr) TOMP_HIDDEN;

/* ---- Dispatchers inlined at their sites (the frequent events; event.c has the rest) ------- */

/* The inlined dispatchers below are a few instructions each: inlined at every site even where
 * the compiler would rather call (task.c calls task_schedule from several places). */
#define TOMP_EV_INLINE static inline __attribute__((always_inline))

/* The hooks events go to now (tomp_observers_sync, event.c).  Never NULL: a hook no
 * listening observer handles is an empty function, so a site that finds someone listening
 * (even while the table is being rewritten) calls without testing. */
extern tomp_observer_t tomp_hooks TOMP_HIDDEN;
/* Deliver an event to the observers listening now: one load, one indirect call. */
#define TOMP_EV_CALL(hook, ...) __atomic_load_n(&tomp_hooks.hook, __ATOMIC_RELAXED)(__VA_ARGS__)

static inline void tomp_ev_fork_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  int flags = ompt_parallel_team |
              (thr->ev_fork_flags ? thr->ev_fork_flags : ompt_parallel_invoker_runtime);
  unsigned req = thr->ev_requested ? thr->ev_requested : team->nthreads;
  thr->ev_fork_flags = 0;
  thr->ev_requested = 0;
  team->ev_flags = flags;
  TOMP_EV_CALL(parallel_begin, thr, team, ptask, req, flags);
}

/* ---- The join's wait for the workers' end events ------------------------------------------
 * tomp promises more than OpenMP 5.2 asks: every worker's implicit-task end (and its closing
 * barrier's end events before it) precedes the region's parallel end (docs/ompt-support.md,
 * "Event order at the end of a region").  An observed fork arms team->ev_left with the number
 * of workers; each worker of the region, on its observed path, decrements it once it has
 * reported everything (tomp_ev_worker_done), and the primary waits for zero on that one word:
 * polls for the wait policy's budget, then sleeps on it with the waiter bit set, which the
 * last worker's decrement sees and wakes.  A worker that started while nobody listened does
 * not count itself; tomp_listen_epoch (bumped at every change of tomp_listeners) tells the
 * join whether listening went on and off during the region, and then it waits for each worker
 * to park instead. */
extern uint32_t tomp_listen_epoch TOMP_HIDDEN;
/* An observer that changes tomp_listeners without tomp_listen/tomp_unlisten calls this before
 * the change and again after tomp_tool_keys_sync (event.c says why). */
void tomp_listen_epoch_bump(void) TOMP_HIDDEN;
#define TOMP_EV_LEFT_WAITER (1u << 31)

/* The join waits (tomp_ev_join) when parallel or implicit-task events are wanted. */
#define TOMP_EV_JOIN_WANTED()                                                                      \
  (TOMP_EV_WANTED(TOMP_EV_PARALLEL) || TOMP_EV_WANTED(TOMP_EV_IMPLICIT_TASK))

/* tomp_fork, on its observed path, after the team's workers are known and before any starts.
 * Armed only when the join will wait: a listener that wants neither event (a tool of barrier
 * or task callbacks only) costs the workers no shared read-modify-write per region. */
static inline void tomp_ev_fork_arm(tomp_team_t *team, unsigned n) {
  team->ev_epoch = __atomic_load_n(&tomp_listen_epoch, __ATOMIC_SEQ_CST);
  team->ev_join = TOMP_EV_JOIN_WANTED(); /* published by the hand-over, as ev_left */
  if (team->ev_join) __atomic_store_n(&team->ev_left, n - 1, __ATOMIC_RELAXED);
}

/* A worker on its observed path, after its region's last event and before it lets the next
 * fork have the team (team_busy).  Only in a region whose fork armed the word (a region
 * forked without a listener has ev_join from an earlier fork: then the word is stale and
 * nobody waits on it, the decrement is harmless, the next observed fork re-arms it). */
static inline void tomp_ev_worker_done(tomp_team_t *team) {
  if (team->ev_join &&
      __atomic_sub_fetch(&team->ev_left, 1, __ATOMIC_SEQ_CST) == TOMP_EV_LEFT_WAITER)
    tomp_futex_wake(&team->ev_left, 1);
}

/* The primary, before parallel end: until every worker has reported its end events. */
void tomp_ev_join_wait(tomp_team_t *team) TOMP_HIDDEN;

/* Runs in the encountering task after the closing barrier and its own implicit-task end. */
static inline void tomp_ev_join_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  if (team->nthreads > 1) tomp_ev_join_wait(team);
  TOMP_EV_CALL(parallel_end, thr, team, ptask);
}

static inline void tomp_ev_implicit_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (ep == ompt_scope_end && thr->ev_single) tomp_ev_single_flush_(thr);
  TOMP_EV_CALL(implicit_task, thr, ep);
  if (ep == ompt_scope_begin && thr->team->ws_initial) tomp_ev_ws_initial(thr);
}

TOMP_EV_INLINE void tomp_ev_barrier_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep,
                                     bool wait, const void *codeptr) {
  if (ep == ompt_scope_begin && !wait && thr->ev_single && state != ompt_state_wait_taskwait &&
      state != ompt_state_wait_taskgroup)
    tomp_ev_single_flush_(thr); /* a barrier cannot be inside the single: it has ended */
  TOMP_EV_CALL(sync_region, thr, state, ep, wait, codeptr);
}

TOMP_EV_INLINE void tomp_ev_work_(tomp_thread_t *thr, int wstype, ompt_scope_endpoint_t ep,
                                  uint64_t count) {
  if (ep == ompt_scope_begin && thr->ev_single && wstype != ompt_work_taskloop)
    tomp_ev_single_flush_(thr); /* worksharing cannot nest in the single: it has ended */
  TOMP_EV_CALL(work, thr, thr->task, wstype, ep, count, tomp_ev_codeptr(thr));
}

TOMP_EV_INLINE void tomp_ev_dispatch_(tomp_thread_t *thr, int kind, uint64_t a, uint64_t n) {
  TOMP_EV_CALL(dispatch, thr, thr->task, kind, a, n);
}

TOMP_EV_INLINE void tomp_ev_task_create_(tomp_thread_t *thr, tomp_task_t *parent, tomp_task_t *task,
                                         bool has_deps) {
  task->task_data.value = 0;
  TOMP_EV_CALL(task_create, thr, parent, task, has_deps, tomp_ev_codeptr(thr));
}

TOMP_EV_INLINE void tomp_ev_task_schedule_(tomp_task_t *prior, int status, tomp_task_t *next) {
  TOMP_EV_CALL(task_schedule, prior, status, next);
}

TOMP_EV_INLINE void tomp_ev_dependences_(tomp_task_t *task, const ompt_dependence_t *deps, int n) {
  TOMP_EV_CALL(dependences, task, deps, n);
}

TOMP_EV_INLINE void tomp_ev_task_dependence_(tomp_task_t *pred, tomp_task_t *succ) {
  TOMP_EV_CALL(task_dependence, pred, succ);
}

TOMP_EV_INLINE void tomp_ev_mutex_(int which, tomp_thread_t *thr, int kind, unsigned hint,
                                   const void *wid) {
  TOMP_EV_CALL(mutex, thr, which, kind, hint, wid, tomp_ev_codeptr(thr));
}

TOMP_EV_INLINE void tomp_ev_cancel_(tomp_thread_t *thr, int flags) {
  TOMP_EV_CALL(cancel, thr, thr->task, flags, tomp_ev_codeptr(thr));
}

/* ---- Inline event sites ---------------------------------------------------------------- */

static inline void tomp_ev_thread_begin(tomp_thread_t *thr) {
  if (tomp_listening()) tomp_ev_thread_begin_(thr);
}
static inline void tomp_ev_thread_end(tomp_thread_t *thr) {
  if (tomp_listening()) tomp_ev_thread_end_(thr);
}
/* A worker parks in the pool (begin) or leaves it (end). */
static inline void tomp_ev_idle(tomp_thread_t *thr, bool begin) {
  if (tomp_listening()) tomp_ev_idle_(thr, begin);
}
/* tomp_fork, after the team is set up and before any worker starts. */
static inline void tomp_ev_fork(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  if (!tomp_listening()) return;
  if (TOMP_EV_WANTED(TOMP_EV_PARALLEL)) {
    tomp_ev_fork_(thr, team, ptask);
  } else {
    thr->ev_fork_flags = 0;
    thr->ev_requested = 0;
  }
}
/* Each thread, in its implicit task: begin before the task body, end after the region's
 * closing barrier (the thread still belongs to the team). */
static inline void tomp_ev_implicit_task(tomp_thread_t *thr, ompt_scope_endpoint_t ep) {
  if (tomp_listening() && (TOMP_EV_WANTED(TOMP_EV_IMPLICIT_TASK) || thr->ev_single ||
                           (ep == ompt_scope_begin && thr->team->ws_initial)))
    tomp_ev_implicit_task_(thr, ep);
}
/* tomp_join, back in the encountering task: parallel end, after every worker's end events
 * (tomp_ev_join_wait) when parallel or implicit-task events are wanted. */
static inline void tomp_ev_join(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) {
  if (tomp_listening() && TOMP_EV_JOIN_WANTED()) tomp_ev_join_(thr, team, ptask);
}
/* Barriers: whether tomp_ev_barrier_ has anything to do (given someone listens): a sync
 * event wanted, or a pending single end to close. */
static inline bool tomp_ev_barrier_wanted(tomp_thread_t *thr) {
  return thr->ev_single || TOMP_EV_WANTED(TOMP_EV_SYNC);
}
/* The frame through which the runtime calls a task body: set just before the call, cleared
 * when it returns.  fp is __builtin_frame_address(0) of the calling runtime function. */
static inline void tomp_ev_exit_frame(tomp_task_t *task, void *fp) {
  if (tomp_listening()) {
    task->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    task->frame.exit_frame.ptr = fp;
  }
}

/* Mutual exclusion.  Call them only when tomp_listening().  wait_id is the address of the
 * user-visible object (lock, critical name, atomic lock word).  The interest is tested
 * inline, so an observer that did not ask for the event costs no call. */
static inline void tomp_ev_lock_init(tomp_thread_t *thr, int kind, unsigned hint, void *wait_id) {
  if (TOMP_EV_WANTED(TOMP_EV_LOCK_INIT))
    tomp_ev_mutex_(TOMP_MUTEX_EV_LOCK_INIT, thr, kind, hint, wait_id);
}
static inline void tomp_ev_lock_destroy(tomp_thread_t *thr, int kind, void *wait_id) {
  if (TOMP_EV_WANTED(TOMP_EV_LOCK_DESTROY))
    tomp_ev_mutex_(TOMP_MUTEX_EV_LOCK_DESTROY, thr, kind, 0, wait_id);
}
static inline void tomp_ev_mutex_acquire(tomp_thread_t *thr, int kind, unsigned hint,
                                         void *wait_id) {
  if (TOMP_EV_WANTED(TOMP_EV_MUTEX_ACQUIRE))
    tomp_ev_mutex_(TOMP_MUTEX_EV_ACQUIRE, thr, kind, hint, wait_id);
}
static inline void tomp_ev_mutex_acquired(tomp_thread_t *thr, int kind, void *wait_id) {
  if (TOMP_EV_WANTED(TOMP_EV_MUTEX_ACQUIRED))
    tomp_ev_mutex_(TOMP_MUTEX_EV_ACQUIRED, thr, kind, 0, wait_id);
}
static inline void tomp_ev_mutex_released(tomp_thread_t *thr, int kind, void *wait_id) {
  if (TOMP_EV_WANTED(TOMP_EV_MUTEX_RELEASED))
    tomp_ev_mutex_(TOMP_MUTEX_EV_RELEASED, thr, kind, 0, wait_id);
}
/* ompt_scope_begin on re-acquire, ompt_scope_end on a partial release */
static inline void tomp_ev_nest_lock(tomp_thread_t *thr, bool begin, void *wait_id) {
  if (TOMP_EV_WANTED(TOMP_EV_NEST_LOCK))
    tomp_ev_mutex_(begin ? TOMP_MUTEX_EV_NEST_BEGIN : TOMP_MUTEX_EV_NEST_END, thr, 0, 0, wait_id);
}

/* ---- Entry points: frames and return addresses for observers ---------------------------- */

#define TOMP_CODEPTR() __builtin_return_address(0)
/* The entry point's frame address as tools see it: where its frame pointer points once the
 * frame is set up.  On x86-64 that is the canonical frame address minus the return address
 * and the saved frame pointer; computing it from the CFA lets the compiler leave the frame
 * out of an entry point's no-listener path (__builtin_frame_address forces one on every
 * path, 3-5 instructions per call). */
#if defined(__x86_64__)
#define TOMP_ENTRY_FRAME() ((void *)((char *)__builtin_dwarf_cfa() - 2 * sizeof(void *)))
#else
#define TOMP_ENTRY_FRAME() __builtin_frame_address(0)
#endif

/* TOMP_ENTRY(thr) opens every exported entry point (a declaration: write it once per
 * function, before other statements).  While someone listens, the outermost entry of a task
 * records the user's return address (thr->codeptr) and the entry point's frame as the task's
 * enter_frame; both are undone when the entry point returns (cleanup attribute), so a sample
 * taken in user code never sees a stale enter_frame.  Without a listener: a tool key (a
 * no-op) on entry, a test of a local that is NULL on exit. */
typedef struct tomp_entry_guard {
  struct tomp_thread *thr; /* non-NULL when this entry set the task's enter_frame */
  tomp_task_t *task;
  const void *codeptr; /* thr->codeptr before this entry */
} tomp_entry_guard_t;

static inline __attribute__((always_inline)) void
tomp_entry_enter_(struct tomp_thread *thr, tomp_entry_guard_t *g, const void *ra, void *fp) {
  tomp_task_t *t = thr ? thr->task : NULL;
  if (!t || t->frame.enter_frame.ptr) return; /* nested inside another entry point */
  g->thr = thr;
  g->task = t;
  g->codeptr = thr->codeptr;
  thr->codeptr = ra;
  t->frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  __atomic_signal_fence(__ATOMIC_SEQ_CST); /* flags before address, for signal handlers */
  t->frame.enter_frame.ptr = fp;
}

static inline void tomp_entry_leave_(tomp_entry_guard_t *g) {
  if (tomp_unlikely(g->thr != NULL)) {
    g->task->frame.enter_frame.ptr = NULL;
    g->thr->codeptr = g->codeptr;
  }
}

#define TOMP_ENTRY(thr) TOMP_ENTRY_AT(thr, TOMP_CODEPTR(), TOMP_ENTRY_FRAME())
/* The same for a function that works on behalf of an entry point, given that entry point's
 * return address and frame (see TOMP_OBSERVED_PATH). */
#define TOMP_ENTRY_AT(thr, ra, fp)                                                                 \
  tomp_entry_guard_t tomp_entry_guard_ __attribute__((cleanup(tomp_entry_leave_))) = {0};          \
  if (tomp_listening()) tomp_entry_enter_((thr), &tomp_entry_guard_, (ra), (fp))

/* The hottest entry points (locks, critical, atomic) are split in two.  Their first statement
 * is TOMP_OBSERVED_PATH(fn, args...): while someone listens it returns fn(ra, fp, args...), an
 * out-of-line twin that opens with TOMP_ENTRY_AT(thr, ra, fp) and emits the events; without
 * a listener, the rest of the entry point runs with no event code at all, so the cost is
 * that one tool key, a no-op.  fp stays right even if the compiler makes the call a tail
 * call: the twin's frame then takes the entry point's place at the same address. */
#define TOMP_OBSERVED_PATH(fn, ...)                                                                \
  do {                                                                                             \
    if (tomp_listening()) return fn(TOMP_CODEPTR(), TOMP_ENTRY_FRAME(), ##__VA_ARGS__);            \
  } while (0)
/* The same for an entry point that needs the calling thread: declares thr = tomp_self and
 * also takes the twin when the thread is one tomp has not seen yet (the twin's tomp_thread()
 * sets it up).  One rare branch instead of two keeps the fast path free of a stack frame
 * (two rare calls make the compiler set the frame up on entry: 5-9 instructions a call). */
#define TOMP_OBSERVED_PATH_THR(thr, fn, ...)                                                       \
  tomp_thread_t *thr = tomp_self;                                                                  \
  do {                                                                                             \
    if (tomp_unlikely(TOMP_LISTENING() || thr == NULL))                                            \
      return fn(TOMP_CODEPTR(), TOMP_ENTRY_FRAME(), ##__VA_ARGS__);                                \
  } while (0)
#define TOMP_OBSERVED_TWIN __attribute__((noinline))

#endif
