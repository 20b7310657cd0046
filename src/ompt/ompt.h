/* The OMPT layer: what the rest of tomp needs to know about an attached tool.
 *
 * tomp_ompt_enabled (internal.h) has TOMP_TOOL_OMPT while a tool is active and wants the
 * tool path: from the moment its initialize returned 1 (or, for a tool that registered no
 * callback and looked up none of the entry points that read tool-path records, from its
 * first such request: tomp_ompt_want_path) until its finalize is called.  Registered callbacks live in
 * tomp_ompt_cb, one slot per ompt_callbacks_t value, readable both by name (typed) and by
 * index (for ompt_set_callback).  Emission helpers are in ompt-events.h. */
#ifndef TOMP_OMPT_H
#define TOMP_OMPT_H

#include "internal.h"

#define TOMP_VERSION "0.1"
/* The OpenMP version whose OMPT interface tomp implements: 5.2 (November 2021). */
#define TOMP_OMPT_OMP_VERSION 202111
#define TOMP_OMPT_NSLOTS 38 /* ompt_callback_error + 1 */

typedef union tomp_ompt_callbacks {
  ompt_callback_t slot[TOMP_OMPT_NSLOTS];
  struct {
    ompt_callback_t unused0;
    ompt_callback_thread_begin_t thread_begin;         /* 1 */
    ompt_callback_thread_end_t thread_end;             /* 2 */
    ompt_callback_parallel_begin_t parallel_begin;     /* 3 */
    ompt_callback_parallel_end_t parallel_end;         /* 4 */
    ompt_callback_task_create_t task_create;           /* 5 */
    ompt_callback_task_schedule_t task_schedule;       /* 6 */
    ompt_callback_implicit_task_t implicit_task;       /* 7 */
    ompt_callback_target_t target;                     /* 8 */
    ompt_callback_target_data_op_t target_data_op;     /* 9 */
    ompt_callback_target_submit_t target_submit;       /* 10 */
    ompt_callback_control_tool_t control_tool;         /* 11 */
    ompt_callback_device_initialize_t device_initialize; /* 12 */
    ompt_callback_device_finalize_t device_finalize;   /* 13 */
    ompt_callback_device_load_t device_load;           /* 14 */
    ompt_callback_device_unload_t device_unload;       /* 15 */
    ompt_callback_sync_region_t sync_region_wait;      /* 16 */
    ompt_callback_mutex_t mutex_released;              /* 17 */
    ompt_callback_dependences_t dependences;           /* 18 */
    ompt_callback_task_dependence_t task_dependence;   /* 19 */
    ompt_callback_work_t work;                         /* 20 */
    ompt_callback_masked_t masked;                     /* 21 */
    ompt_callback_target_map_t target_map;             /* 22 */
    ompt_callback_sync_region_t sync_region;           /* 23 */
    ompt_callback_mutex_acquire_t lock_init;           /* 24 */
    ompt_callback_mutex_t lock_destroy;                /* 25 */
    ompt_callback_mutex_acquire_t mutex_acquire;       /* 26 */
    ompt_callback_mutex_t mutex_acquired;              /* 27 */
    ompt_callback_nest_lock_t nest_lock;               /* 28 */
    ompt_callback_flush_t flush;                       /* 29 */
    ompt_callback_cancel_t cancel;                     /* 30 */
    ompt_callback_sync_region_t reduction;             /* 31 */
    ompt_callback_dispatch_t dispatch;                 /* 32 */
    ompt_callback_target_emi_t target_emi;             /* 33 */
    ompt_callback_target_data_op_emi_t target_data_op_emi; /* 34 */
    ompt_callback_target_submit_emi_t target_submit_emi;   /* 35 */
    ompt_callback_target_map_emi_t target_map_emi;     /* 36 */
    ompt_callback_error_t error;                       /* 37 */
  } cb;
} tomp_ompt_callbacks_t;

extern tomp_ompt_callbacks_t tomp_ompt_cb TOMP_HIDDEN;

/* Mutex implementations reported by ompt_enumerate_mutex_impls (the impl argument of
 * mutex_acquire / lock_init). */
enum {
  TOMP_MUTEX_IMPL_FUTEX = 1, /* tomp_mutex_t: spin, then futex */
  TOMP_MUTEX_IMPL_SPIN = 2,  /* pure spinning (atomic emulation, ordered) */
};

/* Quiescence at finalization.  Every call into the tool goes through TOMP_OMPT_CALL: the
 * calling thread counts itself in (thr->ompt_in_cb), re-reads tomp_ompt_enabled, makes the
 * call only if it is still set, and counts itself out.  tomp_ompt_finalize clears the flag,
 * makes sure every thread sees that (membarrier, or a sequentially consistent increment here
 * when the kernel lacks it),
 * then waits until no other thread is inside a callback: no callback runs after the tool's
 * finalize, and none started before it is still running.  Only the tool-attached path pays:
 * a thread-local store, a compiler fence and a reload. */
extern int tomp_ompt_fence TOMP_HIDDEN; /* 1: no membarrier, use a locked increment per call */

static inline bool tomp_ompt_call_enter(tomp_thread_t *t) {
  if (tomp_unlikely(tomp_ompt_fence)) { /* store-load ordering without membarrier */
    if (t) __atomic_add_fetch(&t->ompt_in_cb, 1, __ATOMIC_SEQ_CST);
    return (__atomic_load_n(&tomp_ompt_enabled, __ATOMIC_SEQ_CST) & TOMP_TOOL_OMPT) != 0;
  }
  if (t) __atomic_store_n(&t->ompt_in_cb, t->ompt_in_cb + 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return (__atomic_load_n(&tomp_ompt_enabled, __ATOMIC_RELAXED) & TOMP_TOOL_OMPT) != 0;
}

static inline void tomp_ompt_call_leave(tomp_thread_t *t) {
  if (t) __atomic_store_n(&t->ompt_in_cb, t->ompt_in_cb - 1, __ATOMIC_RELEASE);
}

#define TOMP_OMPT_CALL(f, ...)                                                                     \
  do {                                                                                             \
    tomp_thread_t *cq_ = tomp_self;                                                                \
    if (tomp_ompt_call_enter(cq_)) (f)(__VA_ARGS__);                                               \
    tomp_ompt_call_leave(cq_);                                                                     \
  } while (0)

/* Lifecycle (init.c) */
void tomp_ompt_init(void) TOMP_HIDDEN;
void tomp_ompt_finalize(void) TOMP_HIDDEN;
/* The tool registered a callback or looked up an entry point whose answers need the tool
 * path (entry.c decides which): turn the path on, now or when initialize returns. */
void tomp_ompt_want_path(void) TOMP_HIDDEN;

/* Entry points (entry.c) */
ompt_interface_fn_t tomp_ompt_lookup(const char *name) TOMP_HIDDEN;
ompt_set_result_t tomp_ompt_support(int event) TOMP_HIDDEN;

/* Cold bodies of the emission helpers (emit.c) */
void tomp_ompt_thread_begin_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_thread_end_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_initial_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
void tomp_ompt_fork_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) TOMP_HIDDEN;
void tomp_ompt_implicit_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
void tomp_ompt_join_(tomp_thread_t *thr, tomp_team_t *team, tomp_task_t *ptask) TOMP_HIDDEN;
void tomp_ompt_barrier_(tomp_thread_t *thr, int state, ompt_scope_endpoint_t ep, bool wait,
                        const void *codeptr) TOMP_HIDDEN;
void tomp_ompt_serial_barrier_(tomp_thread_t *thr, const void *codeptr) TOMP_HIDDEN;
void tomp_ompt_idle_(tomp_thread_t *thr, bool begin) TOMP_HIDDEN;
void tomp_ompt_thread_registered_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_initial_thread_started_(tomp_thread_t *thr) TOMP_HIDDEN;
/* The parallel region a task binds to: its team's, or its initial thread's implicit one. */
ompt_data_t *tomp_ompt_parallel_data_of(tomp_task_t *task) TOMP_HIDDEN;

/* Constructs of the worksharing, tasking, synchronisation and device modules (events.c).
 * Each is called only when tomp_ompt_on(); codeptr_ra is thr->codeptr unless given. */
void tomp_ompt_work_(tomp_thread_t *thr, int wstype, ompt_scope_endpoint_t ep,
                     uint64_t count) TOMP_HIDDEN;
void tomp_ompt_dispatch_chunk_(tomp_thread_t *thr, int kind, uint64_t start,
                               uint64_t iterations) TOMP_HIDDEN;
void tomp_ompt_dispatch_section_(tomp_thread_t *thr, uint64_t number) TOMP_HIDDEN;
void tomp_ompt_single_begin_(tomp_thread_t *thr, bool executor, bool deferred_end) TOMP_HIDDEN;
void tomp_ompt_single_end_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_single_flush_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_sync_(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
void tomp_ompt_task_create_(tomp_thread_t *thr, tomp_task_t *parent, tomp_task_t *task,
                            bool has_deps) TOMP_HIDDEN;
void tomp_ompt_task_schedule_(tomp_task_t *prior, int status, tomp_task_t *next) TOMP_HIDDEN;
void tomp_ompt_mutex_(int which, tomp_thread_t *thr, int kind, unsigned hint,
                      const void *wait_id) TOMP_HIDDEN;
void tomp_ompt_cancel_(tomp_thread_t *thr, int flags) TOMP_HIDDEN;
/* -- ompt3 -- doacross: dependences of the current task, n entries of type source or sink
 * whose variable.value is the iteration vector (logical iteration numbers) */
void tomp_ompt_doacross_(tomp_thread_t *thr, int type, const uint64_t *v, unsigned n) TOMP_HIDDEN;
void tomp_ompt_error_(tomp_thread_t *thr, int severity, const char *msg, size_t len) TOMP_HIDDEN;
typedef struct tomp_ompt_target {
  ompt_data_t data;
  uint64_t id;
} tomp_ompt_target_t;
void tomp_ompt_target_(tomp_thread_t *thr, int kind, ompt_scope_endpoint_t ep,
                       tomp_task_t *task, tomp_ompt_target_t *r) TOMP_HIDDEN;
/* A host teams region (league): parallel_begin/end with ompt_parallel_league, and the
 * implicit-task begin/end of each team's initial task. */
void tomp_ompt_league_(tomp_thread_t *thr, ompt_scope_endpoint_t ep, tomp_task_t *enc,
                       ompt_data_t *pdata, unsigned nteams) TOMP_HIDDEN;
void tomp_ompt_region_task_(ompt_scope_endpoint_t ep, tomp_region_task_t *rt,
                            unsigned index) TOMP_HIDDEN;
enum { TOMP_OMPT_ACQUIRE, TOMP_OMPT_ACQUIRED, TOMP_OMPT_RELEASED, TOMP_OMPT_LOCK_INIT,
       TOMP_OMPT_LOCK_DESTROY, TOMP_OMPT_NEST_BEGIN, TOMP_OMPT_NEST_END };

/* Worksharing module (loop.c): work-begin of the construct a combined parallel loop or
 * sections pre-entered, for the calling thread. */
void tomp_ompt_ws_initial(tomp_thread_t *thr) TOMP_HIDDEN;

/* Thread module (thread.c): ask a parked worker to emit its thread_end; false if busy. */
bool tomp_worker_request_thread_end(tomp_thread_t *w) TOMP_HIDDEN;

#endif
