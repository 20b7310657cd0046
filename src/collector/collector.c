/* __omp_collector_api: the OpenMP ARB Collector API (Sun white paper, 2007).
 *
 * Sessions.  OMP_REQ_START opens a session (initialising the runtime first if the collector
 * calls before tomp's constructor ran), OMP_REQ_STOP closes it and cancels every callback;
 * a later START opens a new one.  Outside a session every request but START gets
 * OMP_ERRCODE_SEQUENCE_ERR.  While a session is open the collector listens (TOMP_OBS_COLLECTOR
 * in the event layer's tomp_listeners, core/event.h) and its hooks below map the core's events
 * onto the white paper's; PAUSE only stops delivery (region ids keep being assigned, states
 * stay current).  Thread states and region ids are read from the core fields every observer
 * reads (thr->state, thr->wait_id, the teams).
 *
 * Requests that change the session are serialised by one lock; STATE, CURRENT_PRID and
 * PARENT_PRID take no lock, allocate nothing and touch only the calling thread's descriptor
 * (initial-exec TLS) and atomics, so a SIGPROF handler may issue them at any point.
 *
 * Record layout (see omp_collector_api.h).  Arguments and replies are copied with memcpy,
 * so no alignment beyond the 4-byte record header is required.  REGISTER's argument is the
 * int event immediately followed by the callback pointer (mem + 4: the layout of the TAU and
 * OpenUH collectors, sz = 28); a record of 32 bytes or more may instead hold the pointer
 * naturally aligned at mem + 8 (struct { int event; void *cb; }), recognised because only one
 * of the two readings is a code address (in a mapped object); a word that is neither is
 * refused.  STATE replies the int state followed
 * immediately by the 8-byte wait id (12 bytes; with only 4 bytes of room, the state alone). */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "omp_collector_api.h"

#define NEVENTS (OMP_EVENT_THR_END_ATWT + 1)

static tomp_mutex_t session_lock = TOMP_MUTEX_INIT;
static int running;   /* a session is open (written under session_lock, read anywhere) */
static int paused;
static omp_collector_callback_t callbacks[NEVENTS];
static uint64_t last_prid;

/* fork(): a child has only the forking thread, so a lock another thread held at the fork would
 * stay held in the child forever -- a START or STOP there would hang.  Both locks a session
 * change takes are taken around every fork, in their nesting order (session, then the tool
 * keys' lock inside tomp_tool_keys_sync), so a fork waits for a rewrite in progress and the
 * child inherits code that is either all keyed on or all off, with its pages read-only. */
static void fork_prepare(void) {
  tomp_mutex_lock(&session_lock);
  tomp_tool_keys_lock();
}

static void fork_parent(void) {
  tomp_tool_keys_unlock();
  tomp_mutex_unlock(&session_lock);
}

static void fork_child(void) {
  tomp_tool_keys_unlock();
  tomp_store_rlx(&session_lock.v, 0); /* free, and no waiter: the parent's are not here */
}

static void want_events(bool on);

__attribute__((constructor)) static void collector_ctor(void) {
  pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* ---- region ids and states (async-signal-safe) ---------------------------------------- */

/* Teams forked while no session was open get their id on first request. */
static uint64_t prid_of(tomp_team_t *team) {
  uint64_t id = __atomic_load_n(&team->coll_prid, __ATOMIC_RELAXED);
  if (id) return id;
  uint64_t fresh = __atomic_add_fetch(&last_prid, 1, __ATOMIC_RELAXED);
  if (__atomic_compare_exchange_n(&team->coll_prid, &id, fresh, false, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED))
    return fresh;
  return id;
}

static int map_state(int st) {
  switch (st) {
  case ompt_state_work_serial: return THR_SERIAL_STATE;
  case ompt_state_work_parallel: return THR_WORK_STATE;
  case ompt_state_work_reduction: return THR_REDUC_STATE;
  case ompt_state_wait_barrier:
  case ompt_state_wait_barrier_implicit_parallel:
  case ompt_state_wait_barrier_implicit_workshare:
  case ompt_state_wait_barrier_implicit:
  case ompt_state_wait_barrier_implementation:
  case ompt_state_wait_barrier_teams: return THR_IBAR_STATE;
  case ompt_state_wait_barrier_explicit: return THR_EBAR_STATE;
  case ompt_state_wait_mutex:
  case ompt_state_wait_lock: return THR_LKWT_STATE;
  case ompt_state_wait_critical: return THR_CTWT_STATE;
  case ompt_state_wait_atomic: return THR_ATWT_STATE;
  case ompt_state_wait_ordered: return THR_ODWT_STATE;
  case ompt_state_idle: return THR_IDLE_STATE;
  default: return THR_OVHD_STATE; /* taskwait, taskgroup, target waits, overhead */
  }
}

/* Outside its waits, whether a thread works, is serial or idle follows from whether it is in
 * a team, so STATE agrees with CURRENT_PRID (0 exactly when serial or idle) even in the
 * instants where a worker has joined or left a team but not yet changed thr->state. */
static int thr_state(const tomp_thread_t *thr) {
  int c = map_state(__atomic_load_n(&thr->state, __ATOMIC_RELAXED));
  if (c != THR_WORK_STATE && c != THR_SERIAL_STATE && c != THR_IDLE_STATE) return c;
  if (!thr->team) return thr->ompt_type == ompt_thread_worker ? THR_IDLE_STATE : THR_SERIAL_STATE;
  return c == THR_IDLE_STATE ? THR_OVHD_STATE : THR_WORK_STATE;
}

static bool has_wait_id(int cstate) {
  return cstate == THR_IBAR_STATE || cstate == THR_EBAR_STATE || cstate == THR_LKWT_STATE ||
         cstate == THR_CTWT_STATE || cstate == THR_ATWT_STATE || cstate == THR_ODWT_STATE;
}

/* ---- request records ------------------------------------------------------------------- */

typedef struct {
  char *rec;     /* the record: sz, r, ec, rsz, then mem */
  size_t memsz;  /* bytes of mem */
} req_t;

static inline char *mem_of(req_t *q) { return q->rec + OMP_COLLECTORAPI_HEADERSIZE; }

static void reply(req_t *q, int ec, int rsz) {
  memcpy(q->rec + 8, &ec, sizeof ec);
  memcpy(q->rec + 12, &rsz, sizeof rsz);
}

static void reply_u64(req_t *q, uint64_t v) {
  if (q->memsz < sizeof v) {
    reply(q, OMP_ERRCODE_MEM_TOO_SMALL, (int)sizeof v);
    return;
  }
  memcpy(mem_of(q), &v, sizeof v);
  reply(q, OMP_ERRCODE_OK, (int)sizeof v);
}

static bool session_open(void) { return __atomic_load_n(&running, __ATOMIC_ACQUIRE) != 0; }

static void req_state(req_t *q) {
  int need = (int)(sizeof(int) + sizeof(uint64_t));
  if (q->memsz < sizeof(int)) {
    reply(q, OMP_ERRCODE_MEM_TOO_SMALL, need);
    return;
  }
  tomp_thread_t *thr = tomp_self;
  int st = THR_SERIAL_STATE; /* a thread tomp does not know is outside any region */
  uint64_t wid = 0;
  if (thr && __atomic_load_n(&thr->coll_forking, __ATOMIC_RELAXED)) {
    st = THR_OVHD_STATE;
  } else if (thr) {
    st = thr_state(thr);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (has_wait_id(st)) wid = thr->wait_id;
  }
  memcpy(mem_of(q), &st, sizeof st);
  if (q->memsz < (size_t)need) {
    reply(q, OMP_ERRCODE_OK, (int)sizeof st);
    return;
  }
  memcpy(mem_of(q) + sizeof st, &wid, sizeof wid);
  reply(q, OMP_ERRCODE_OK, need);
}

static void req_current_prid(req_t *q) {
  tomp_thread_t *thr = tomp_self;
  uint64_t id = 0;
  if (thr) {
    tomp_team_t *f = __atomic_load_n(&thr->coll_forking, __ATOMIC_RELAXED);
    tomp_team_t *team = f ? f : thr->team;
    if (team) id = prid_of(team);
  }
  reply_u64(q, id);
}

/* Meaningful for the master of a team (thread 0), and during its OMP_EVENT_FORK. */
static void req_parent_prid(req_t *q) {
  tomp_thread_t *thr = tomp_self;
  if (!thr) {
    reply(q, OMP_ERRCODE_THREAD_ERR, 0);
    return;
  }
  tomp_team_t *parent;
  if (__atomic_load_n(&thr->coll_forking, __ATOMIC_RELAXED)) {
    parent = thr->team;
  } else if (thr->team && thr->tid == 0) {
    parent = thr->team->parent;
  } else {
    reply(q, OMP_ERRCODE_THREAD_ERR, 0);
    return;
  }
  reply_u64(q, parent ? prid_of(parent) : 0);
}

/* A plausible user-space code address: above the never-mapped first 64 KiB and within the
 * 47-bit user half of a canonical x86-64 / 48-bit AArch64 address space. */
static bool plausible_code(uintptr_t p) {
  return p >= 0x10000 && (sizeof p < 8 || (uint64_t)p >> 47 == 0);
}

/* ... and inside an object the dynamic loader has mapped (the executable or a library): a
 * word that merely looks like an address (the packed reading of an aligned struct's padding
 * and pointer half, say) is not called. */
static bool code_address(uintptr_t p) {
  Dl_info info;
  return plausible_code(p) && dladdr((void *)p, &info) != 0 && info.dli_fbase != NULL;
}

static bool known_event(int ev) { return ev >= OMP_EVENT_FORK && ev <= OMP_EVENT_THR_END_ATWT; }

/* master is inlined by gcc (omp_get_thread_num() == 0): tomp never sees one. */
static bool supported_event(int ev) {
  return ev != OMP_EVENT_THR_BEGIN_MASTER && ev != OMP_EVENT_THR_END_MASTER;
}

static int event_ec(int ev) {
  if (!known_event(ev)) return OMP_ERRCODE_UNKNOWN;
  return supported_event(ev) ? OMP_ERRCODE_OK : OMP_ERRCODE_UNSUPPORTED;
}

static void req_register(req_t *q) {
  int ev;
  uintptr_t packed, aligned = 0;
  if (q->memsz < sizeof ev + sizeof packed) {
    reply(q, OMP_ERRCODE_ERROR, 0);
    return;
  }
  memcpy(&ev, mem_of(q), sizeof ev);
  memcpy(&packed, mem_of(q) + sizeof ev, sizeof packed);
  if (q->memsz >= 2 * sizeof packed) memcpy(&aligned, mem_of(q) + sizeof packed, sizeof aligned);
  uintptr_t fn = packed;
  if (!code_address(packed) && code_address(aligned)) fn = aligned;
  int ec = event_ec(ev);
  /* neither reading is a code address (NULL among them): refused, never called */
  if (ec == OMP_ERRCODE_OK && !code_address(fn)) ec = OMP_ERRCODE_ERROR;
  if (ec == OMP_ERRCODE_OK)
    __atomic_store_n(&callbacks[ev], (omp_collector_callback_t)fn, __ATOMIC_RELEASE);
  reply(q, ec, 0);
}

static void req_unregister(req_t *q) {
  int ev;
  if (q->memsz < sizeof ev) {
    reply(q, OMP_ERRCODE_ERROR, 0);
    return;
  }
  memcpy(&ev, mem_of(q), sizeof ev);
  int ec = event_ec(ev);
  if (ec == OMP_ERRCODE_OK) __atomic_store_n(&callbacks[ev], NULL, __ATOMIC_RELEASE);
  reply(q, ec, 0);
}

static void clear_callbacks(void) {
  for (int i = 0; i < NEVENTS; i++) __atomic_store_n(&callbacks[i], NULL, __ATOMIC_RELEASE);
}

static void req_start(req_t *q) {
  tomp_init(); /* the collector may come before tomp's constructor */
  tomp_mutex_lock(&session_lock);
  int ec = OMP_ERRCODE_SEQUENCE_ERR;
  if (!running) {
    clear_callbacks();
    __atomic_store_n(&paused, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&running, 1, __ATOMIC_RELEASE);
    want_events(true);
    ec = OMP_ERRCODE_OK;
    if (!tomp_listen(
            TOMP_OBS_COLLECTOR)) { /* the event sites cannot be turned on (the key code said why) */
      want_events(false);
      __atomic_store_n(&running, 0, __ATOMIC_RELEASE);
      ec = OMP_ERRCODE_ERROR;
    }
  }
  tomp_mutex_unlock(&session_lock);
  reply(q, ec, 0);
}

static void req_stop(req_t *q) {
  tomp_unlisten(TOMP_OBS_COLLECTOR);
  want_events(false);
  clear_callbacks();
  __atomic_store_n(&running, 0, __ATOMIC_RELEASE);
  reply(q, OMP_ERRCODE_OK, 0);
}

static void process(req_t *q, int r) {
  if (r < OMP_REQ_START || r >= OMP_REQ_LAST) {
    reply(q, OMP_ERRCODE_UNKNOWN, 0);
    return;
  }
  if (r == OMP_REQ_START) {
    req_start(q);
    return;
  }
  if (!session_open()) {
    reply(q, OMP_ERRCODE_SEQUENCE_ERR, 0);
    return;
  }
  switch (r) {
  case OMP_REQ_STATE: req_state(q); return;
  case OMP_REQ_CURRENT_PRID: req_current_prid(q); return;
  case OMP_REQ_PARENT_PRID: req_parent_prid(q); return;
  default: break;
  }
  /* the session-changing requests: one at a time, and only within the session */
  tomp_mutex_lock(&session_lock);
  if (!running) {
    reply(q, OMP_ERRCODE_SEQUENCE_ERR, 0);
  } else {
    switch (r) {
    case OMP_REQ_REGISTER: req_register(q); break;
    case OMP_REQ_UNREGISTER: req_unregister(q); break;
    case OMP_REQ_STOP: req_stop(q); break;
    case OMP_REQ_PAUSE:
      __atomic_store_n(&paused, 1, __ATOMIC_RELAXED);
      reply(q, OMP_ERRCODE_OK, 0);
      break;
    default: /* OMP_REQ_RESUME */
      __atomic_store_n(&paused, 0, __ATOMIC_RELAXED);
      reply(q, OMP_ERRCODE_OK, 0);
      break;
    }
  }
  tomp_mutex_unlock(&session_lock);
}

TOMP_EXPORT int __omp_collector_api(void *arg) {
  char *p = arg;
  if (!p || ((uintptr_t)p & 3)) return -1;
  for (;;) {
    int sz, r;
    memcpy(&sz, p, sizeof sz);
    if (sz == 0) return 0;
    if (sz < OMP_COLLECTORAPI_HEADERSIZE || (sz & 3)) return -1;
    memcpy(&r, p + 4, sizeof r);
    req_t q = {p, (size_t)sz - OMP_COLLECTORAPI_HEADERSIZE};
    process(&q, r);
    p += sz;
  }
}

/* ---- events ---------------------------------------------------------------------------- */

static void deliver(int event) {
  if (__atomic_load_n(&paused, __ATOMIC_RELAXED)) return;
  omp_collector_callback_t f = __atomic_load_n(&callbacks[event], __ATOMIC_ACQUIRE);
  if (f) f((OMP_COLLECTORAPI_EVENT)event);
}

static void idle(tomp_thread_t *thr, bool begin) {
  deliver(begin ? OMP_EVENT_THR_BEGIN_IDLE : OMP_EVENT_THR_END_IDLE);
}

/* The encountering thread forks team: give the region its id, deliver OMP_EVENT_FORK (during
 * which CURRENT_PRID is the new region's id and PARENT_PRID the enclosing one's). */
static void parallel_begin(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *enc,
                           unsigned requested, int flags) {
  __atomic_store_n(&team->coll_prid, __atomic_add_fetch(&last_prid, 1, __ATOMIC_RELAXED),
                   __ATOMIC_RELAXED);
  __atomic_store_n(&thr->coll_forking, team, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  deliver(OMP_EVENT_FORK);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&thr->coll_forking, NULL, __ATOMIC_RELAXED);
}

static void parallel_end(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *enc) {
  deliver(OMP_EVENT_JOIN);
}

/* A barrier's wait begins or ends; taskwait and taskgroup have no Collector API event. */
static void sync_region(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep, bool wait,
                        const void *codeptr) {
  if (!wait) return;
  bool begin = ep == ompt_scope_begin;
  switch (state) {
  case ompt_state_wait_barrier_explicit:
    deliver(begin ? OMP_EVENT_THR_BEGIN_EBAR : OMP_EVENT_THR_END_EBAR);
    return;
  case ompt_state_wait_barrier:
  case ompt_state_wait_barrier_implicit_parallel:
  case ompt_state_wait_barrier_implicit_workshare:
  case ompt_state_wait_barrier_implicit:
  case ompt_state_wait_barrier_implementation:
  case ompt_state_wait_barrier_teams:
    deliver(begin ? OMP_EVENT_THR_BEGIN_IBAR : OMP_EVENT_THR_END_IBAR);
    return;
  default:
    return;
  }
}

/* The executor of a single enters and leaves its block. */
static void work(tomp_thread_t *thr, tomp_task_t *task, int wstype, ompt_scope_endpoint_t ep,
                 uint64_t count, const void *codeptr) {
  if (wstype == ompt_work_single_executor)
    deliver(ep == ompt_scope_begin ? OMP_EVENT_THR_BEGIN_SINGLE : OMP_EVENT_THR_END_SINGLE);
}

/* The wait events of a mutex kind: {begin, end}; test locks never wait. */
static const int wait_events[][2] = {
    [ompt_mutex_lock] = {OMP_EVENT_THR_BEGIN_LKWT, OMP_EVENT_THR_END_LKWT},
    [ompt_mutex_nest_lock] = {OMP_EVENT_THR_BEGIN_LKWT, OMP_EVENT_THR_END_LKWT},
    [ompt_mutex_critical] = {OMP_EVENT_THR_BEGIN_CTWT, OMP_EVENT_THR_END_CTWT},
    [ompt_mutex_atomic] = {OMP_EVENT_THR_BEGIN_ATWT, OMP_EVENT_THR_END_ATWT},
    [ompt_mutex_ordered] = {OMP_EVENT_THR_BEGIN_ODWT, OMP_EVENT_THR_END_ODWT},
};

static void mutex(tomp_thread_t *thr, int which, int kind, unsigned hint, const void *wait_id,
                  const void *codeptr) {
  if (kind < 0 || kind > ompt_mutex_ordered) return;
  const int *w = wait_events[kind];
  switch (which) {
  case TOMP_MUTEX_EV_ACQUIRE:
    if (w[0]) deliver(w[0]);
    return;
  case TOMP_MUTEX_EV_ACQUIRED:
    if (w[1]) deliver(w[1]);
    if (kind == ompt_mutex_ordered) deliver(OMP_EVENT_THR_BEGIN_ORDERED);
    return;
  case TOMP_MUTEX_EV_RELEASED:
    if (kind == ompt_mutex_ordered) deliver(OMP_EVENT_THR_END_ORDERED);
    return;
  default: return;
  }
}

static const tomp_observer_t collector_observer = {
    .name = "Collector API",
    .idle = idle,
    .parallel_begin = parallel_begin,
    .parallel_end = parallel_end,
    .sync_region = sync_region,
    .work = work,
    .mutex = mutex,
};

TOMP_OBSERVER(TOMP_OBS_SLOT_COLLECTOR, collector_observer);

/* The events a session needs from the event layer (its interest in each). */
static void want_events(bool on) {
  static const tomp_event_t evs[] = {TOMP_EV_PARALLEL,       TOMP_EV_SYNC,
                                     TOMP_EV_WORK,           TOMP_EV_MUTEX_ACQUIRE,
                                     TOMP_EV_MUTEX_ACQUIRED, TOMP_EV_MUTEX_RELEASED};
  for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
    tomp_ev_set_wanted(TOMP_OBS_COLLECTOR, evs[i], on);
}
