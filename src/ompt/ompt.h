/* The OMPT layer: what the rest of tomp needs to know about an attached tool.
 *
 * tomp_listeners (core/event.h) has TOMP_OBS_OMPT while a tool is active and wants the
 * tool path: from the moment its initialize returned 1 (or, for a tool that registered no
 * callback and looked up none of the entry points that read tool-path records, from its
 * first such request: tomp_ompt_want_path) until its finalize is called.  Registered callbacks live
 * in tomp_ompt_cb, one slot per ompt_callbacks_t value, readable both by name (typed) and by index
 * (for ompt_set_callback).  The OMPT observer's hooks (hooks.c) receive the core's events. */
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
 * calling thread counts itself in (thr->ompt_in_cb), re-reads tomp_listeners, makes the
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
    return (__atomic_load_n(&tomp_listeners, __ATOMIC_SEQ_CST) & TOMP_OBS_OMPT) != 0;
  }
  if (t) __atomic_store_n(&t->ompt_in_cb, t->ompt_in_cb + 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return (__atomic_load_n(&tomp_listeners, __ATOMIC_RELAXED) & TOMP_OBS_OMPT) != 0;
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
/* The same from a hook given the calling thread's descriptor (its thr: the event layer calls
 * every hook on the thread the event happens on, and core has used thr before): no
 * thread-local load, no test for a thread tomp does not know. */
#define TOMP_OMPT_CALL_ON(thr, f, ...)                                                             \
  do {                                                                                             \
    tomp_thread_t *cq_ = (thr);                                                                    \
    if (__builtin_expect(cq_ == NULL, 0)) __builtin_unreachable();                                 \
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
/* A tool is being initialized or is attached (not one whose initialize returned 0). */
bool tomp_ompt_active(void) TOMP_HIDDEN;
ompt_set_result_t tomp_ompt_support(int event) TOMP_HIDDEN;

/* omp_control_tool's answer and the tool's control_tool callback (init.c) */
int tomp_ompt_control_tool(int command, int modifier, void *arg, const void *ra,
                           void *fp) TOMP_HIDDEN;

/* The observer's hooks (hooks.c) */
void tomp_ompt_thread_begin_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_thread_end_(tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_ompt_initial_task_(tomp_thread_t *thr, ompt_scope_endpoint_t ep) TOMP_HIDDEN;
/* The event layer's interest bits follow the registered callbacks: after every change. */
void tomp_ompt_sync_wants(void) TOMP_HIDDEN;
/* Thread registry for finalization (init.c) */
void tomp_ompt_initial_thread_started_(tomp_thread_t *thr) TOMP_HIDDEN;

#endif
