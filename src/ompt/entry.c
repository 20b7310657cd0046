/* The runtime entry points a tool obtains through the lookup function passed to its
 * initialize (OpenMP 5.2 sec. 19.6).
 *
 * The inquiry entry points may be called from signal handlers at any instruction: they
 * take no lock, allocate nothing, and read only tomp_self (initial-exec TLS) and the core
 * structures it reaches, which tomp never frees while a thread can still point at them.  A
 * thread tomp does not know gets NULL data, "no region", processor and place -1 and the state
 * work_serial (as from LLVM's libomp). */
#include <sched.h>
#include <string.h>

#include "ompt.h"
#include "abi.h"
#include "affinity.h"
#include "state_names.h"
#include "task.h"

/* What ompt_set_callback answers, per event, for gcc-compiled programs: `always` where every
 * occurrence of the event reaches tomp, `sometimes(_paired)` where gcc inlines some of them.
 * Callbacks of OpenMP 5.2 Table 19.2 (thread, parallel, task, implicit task, target, device,
 * control_tool) must answer `always`: those whose event cannot happen in tomp (no devices, no
 * data motion) are never invoked.  clang_support below has the answers that differ when only
 * clang-built OpenMP code is loaded.  See docs/ompt-support.md. */
static const unsigned char support[TOMP_OMPT_NSLOTS] = {
    [ompt_callback_thread_begin] = ompt_set_always,
    [ompt_callback_thread_end] = ompt_set_always,
    [ompt_callback_parallel_begin] = ompt_set_always,
    [ompt_callback_parallel_end] = ompt_set_always,
    [ompt_callback_task_create] = ompt_set_always,
    [ompt_callback_task_schedule] = ompt_set_always,
    [ompt_callback_implicit_task] = ompt_set_always,
    [ompt_callback_target] = ompt_set_always,
    [ompt_callback_target_data_op] = ompt_set_always,
    [ompt_callback_target_submit] = ompt_set_always,
    [ompt_callback_control_tool] = ompt_set_always,
    [ompt_callback_device_initialize] = ompt_set_always,
    [ompt_callback_device_finalize] = ompt_set_always,
    [ompt_callback_device_load] = ompt_set_always,
    [ompt_callback_device_unload] = ompt_set_always,
    [ompt_callback_target_emi] = ompt_set_always,
    [ompt_callback_target_data_op_emi] = ompt_set_always,
    [ompt_callback_target_submit_emi] = ompt_set_always,
    /* gcc inlines the end barrier of static loops as GOMP_barrier (reported as explicit) */
    [ompt_callback_sync_region] = ompt_set_sometimes_paired,
    [ompt_callback_sync_region_wait] = ompt_set_sometimes_paired,
    [ompt_callback_dependences] = ompt_set_always,
    [ompt_callback_task_dependence] = ompt_set_always,
    /* static loops, distribute, workshare, plain scope are inlined; single has no end call */
    [ompt_callback_work] = ompt_set_sometimes_paired,
    [ompt_callback_dispatch] = ompt_set_sometimes,
    /* hardware atomics are inlined; only GOMP_atomic_start/end reach tomp */
    [ompt_callback_mutex_acquire] = ompt_set_sometimes,
    [ompt_callback_mutex_acquired] = ompt_set_sometimes,
    [ompt_callback_mutex_released] = ompt_set_sometimes,
    [ompt_callback_lock_init] = ompt_set_always,
    [ompt_callback_lock_destroy] = ompt_set_always,
    [ompt_callback_nest_lock] = ompt_set_always,
    /* every cancel, cancellation point and cancellable barrier reaches tomp */
    [ompt_callback_cancel] = ompt_set_always,
    /* gcc combines most reductions inline; only task reductions reach tomp (clang: simd and
     * inscan reductions are inline too) */
    [ompt_callback_reduction] = ompt_set_sometimes_paired,
    [ompt_callback_error] = ompt_set_always,
    /* masked/master and flush: gcc inlines them (a thread-number test, a fence), clang calls
     * __kmpc_masked/master and __kmpc_flush, and a gcc-built program may load clang-built
     * code: sometimes (never would be false once such code runs) */
    [ompt_callback_masked] = ompt_set_sometimes_paired,
    [ompt_callback_flush] = ompt_set_sometimes,
    /* target_map: nothing is mapped (never) */
};

/* Only clang-built OpenMP code loaded: what clang's ABI shows that gcc's hides.  Every masked
 * and master region calls __kmpc_masked/master and its end, every flush construct
 * __kmpc_flush; every worksharing construct clang 14-19 compiles calls the runtime at its
 * begin and end (static loops and sections __kmpc_for_static_init/fini, single
 * __kmpc_single/end_single), and every barrier is a call whose ident_t says its kind. */
static const unsigned char clang_support[TOMP_OMPT_NSLOTS] = {
    [ompt_callback_masked] = ompt_set_always,
    [ompt_callback_flush] = ompt_set_always,
    [ompt_callback_work] = ompt_set_always,
    [ompt_callback_sync_region] = ompt_set_always,
    [ompt_callback_sync_region_wait] = ompt_set_always,
};

ompt_set_result_t tomp_ompt_support(int event) {
  if (event < 1 || event >= TOMP_OMPT_NSLOTS) return ompt_set_error;
  if (clang_support[event] && tomp_llvm_only())
    return (ompt_set_result_t)clang_support[event];
  return support[event] ? (ompt_set_result_t)support[event] : ompt_set_never;
}

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t callback) {
  ompt_set_result_t r = tomp_ompt_support(event);
  if (r == ompt_set_error) return r;
  __atomic_store_n(&tomp_ompt_cb.slot[event], callback, __ATOMIC_RELEASE);
  tomp_ompt_sync_wants();
  if (callback) tomp_ompt_want_path();
  return r;
}

static int get_callback(ompt_callbacks_t event, ompt_callback_t *callback) {
  if (tomp_ompt_support(event) == ompt_set_error) return 0;
  ompt_callback_t f = __atomic_load_n(&tomp_ompt_cb.slot[event], __ATOMIC_ACQUIRE);
  if (!f) return 0;
  if (callback) *callback = f;
  return 1;
}

static const struct {
  int value;
  const char *name;
} states[] = {
#define TOMP_STATE_ROW_(st) {st, #st},
    TOMP_STATE_NAMES(TOMP_STATE_ROW_)
#undef TOMP_STATE_ROW_
};
#define NSTATES (int)(sizeof states / sizeof states[0])

/* Enumeration starts from ompt_state_undefined; returns 0 once current is the last. */
static int enumerate_states(int current, int *next, const char **name) {
  int i = 0;
  if (current != ompt_state_undefined) {
    while (i < NSTATES && states[i].value != current) i++;
    if (i == NSTATES) return 0;
    i++;
  }
  if (i >= NSTATES) return 0;
  if (next) *next = states[i].value;
  if (name) *name = states[i].name;
  return 1;
}

static const struct {
  int value;
  const char *name;
} impls[] = {
    {TOMP_MUTEX_IMPL_FUTEX, "tomp_futex"},
    {TOMP_MUTEX_IMPL_SPIN, "tomp_spin"},
};
#define NIMPLS (int)(sizeof impls / sizeof impls[0])

static int enumerate_mutex_impls(int current, int *next, const char **name) {
  int i = 0;
  if (current != ompt_mutex_impl_none) {
    while (i < NIMPLS && impls[i].value != current) i++;
    if (i == NIMPLS) return 0;
    i++;
  }
  if (i >= NIMPLS) return 0;
  if (next) *next = impls[i].value;
  if (name) *name = impls[i].name;
  return 1;
}

/* The calling thread for the inquiry entry points, or NULL: also when no tool is active (a
 * program that kept the entry points of a tool whose initialize returned 0).  The
 * specification does not say what they answer then; libomp answers as for a thread it does
 * not know (no thread data, no parallel region or task, place and processor -1), and so do
 * we (LLVM's misc/api_calls_without_ompt). */
static tomp_thread_t *self_if_active(void) {
  return tomp_ompt_active() ? tomp_self : NULL;
}

static ompt_data_t *get_thread_data(void) {
  tomp_thread_t *thr = self_if_active();
  return thr ? &thr->thread_data : NULL;
}

static int get_num_procs(void) { return (int)tomp_num_procs; }

/* Places: the table affinity.c builds at start-up and never changes afterwards, so reading
 * it is async-signal-safe; the answers are omp_get_num_places() and its relatives'. */
static int get_num_places(void) { return tomp_nplaces; }

/* The number of processors in place; up to n of their ids into ids. */
static int get_place_proc_ids(int place, int n, int *ids) {
  if (place < 0 || place >= tomp_nplaces) return 0;
  const tomp_place_t *p = &tomp_places[place];
  for (int i = 0; ids && i < n && i < p->nprocs; i++) ids[i] = p->procs[i];
  return p->nprocs;
}

static int get_place_num(void) {
  tomp_thread_t *thr = self_if_active();
  return thr && tomp_nplaces > 0 ? thr->place : -1;
}

static int get_partition_place_nums(int n, int *nums) {
  tomp_thread_t *thr = self_if_active();
  if (!thr) return 0;
  int first, count = tomp_affinity_partition(thr, &first);
  for (int i = 0; nums && i < n && i < count; i++) nums[i] = first + i;
  return count;
}

/* A thread tomp does not know (or a declined tool): -1, as for its place, and as libomp
 * answers. */
static int get_proc_id(void) { return self_if_active() ? sched_getcpu() : -1; }

/* A thread tomp does not know: ompt_state_work_serial, LLVM's libomp's answer (its
 * misc/api_calls_from_other_thread test wants it; tools written against it read
 * ompt_get_thread_data() == NULL, not the state, as "not an OpenMP thread"). */
static int get_state(ompt_wait_id_t *wait_id) {
  tomp_thread_t *thr = tomp_self;
  if (!thr) {
    if (wait_id) *wait_id = 0;
    return ompt_state_work_serial;
  }
  int st = __atomic_load_n(&thr->state, __ATOMIC_RELAXED);
  if (wait_id) *wait_id = thr->wait_id;
  return st;
}

/* The thread number of thr in team, an ancestor of (or equal to) thr's current team. */
static int thread_num_in(tomp_thread_t *thr, tomp_team_t *team) {
  unsigned tid = thr->tid;
  for (tomp_team_t *t = thr->team; t; t = t->parent) {
    if (t == team) return (int)tid;
    tid = t->parent_tid;
  }
  return 0;
}

static tomp_region_task_t *region_root(tomp_task_t *task) {
  while (task->parent) task = task->parent;
  return (task->flags & TOMP_TASK_OWN_REGION) ? (tomp_region_task_t *)task : NULL;
}

static tomp_thread_t *initial_thread_of(tomp_task_t *task) {
  while (task->parent) task = task->parent;
  if (!(task->flags & TOMP_TASK_INITIAL) || (task->flags & TOMP_TASK_OWN_REGION)) return NULL;
  return (tomp_thread_t *)((char *)task - offsetof(tomp_thread_t, initial_task));
}

/* Levels count every parallel region, serialized ones (teams of one) included; above the
 * outermost team is the initial task's implicit parallel region. */
static int get_parallel_info(int level, ompt_data_t **parallel_data, int *team_size) {
  tomp_thread_t *thr = self_if_active();
  if (!thr || level < 0) return 0;
  tomp_task_t *task = thr->task;
  if (!task) return 0; /* a parked worker */
  tomp_team_t *team = task->team;
  for (; level > 0; level--) {
    if (!team) return 0;
    team = team->parent;
  }
  if (team) {
    if (parallel_data) *parallel_data = &team->parallel_data;
    if (team_size) *team_size = (int)team->nthreads;
    return 2;
  }
  tomp_task_t *root = task;
  while (root->parent) root = root->parent;
  if (root->flags & TOMP_TASK_OWN_REGION) { /* a host teams or target region */
    tomp_region_task_t *rt = (tomp_region_task_t *)root;
    if (parallel_data) *parallel_data = &rt->parallel_data;
    if (team_size) *team_size = (int)rt->size;
    return 2;
  }
  tomp_thread_t *it = initial_thread_of(task);
  if (!it) return 0;
  if (parallel_data) *parallel_data = &it->implicit_parallel_data;
  if (team_size) *team_size = 1;
  return 2;
}

static int get_task_info(int level, int *flags, ompt_data_t **task_data,
                         ompt_frame_t **task_frame, ompt_data_t **parallel_data,
                         int *thread_num) {
  tomp_thread_t *thr = self_if_active();
  if (!thr || level < 0) return 0;
  tomp_task_t *task = thr->task;
  /* the tasks whose frames are on this thread's stack (OpenMP 5.2 sec. 19.6.1.14): a running
   * explicit task sits on the task its thread suspended for it (sched_parent), an implicit
   * task on the task that encountered its parallel construct.  The tiny task (no tool) never
   * runs while a tool can ask. */
  for (; task && level > 0; level--)
    task = (task->flags & TOMP_TASK_EXPLICIT) && task->sched_parent ? task->sched_parent
                                                                     : task->parent;
  if (!task) return 0;
  if (flags) {
    *flags = (int)(task->flags & ~TOMP_TASK_OWN_REGION);
    /* the implicit task of a team of one runs at once, its encountering task suspended: an
     * undeferred task, as LLVM's libomp reports it (LLVM's task_types tests check it) */
    if ((task->flags & TOMP_TASK_IMPLICIT) && task->team && task->team->nthreads == 1)
      *flags |= ompt_task_undeferred;
  }
  if (task_data) *task_data = &task->task_data;
  if (task_frame) *task_frame = &task->frame;
  if (parallel_data) {
    if (task->team) {
      *parallel_data = &task->team->parallel_data;
    } else if (region_root(task)) {
      *parallel_data = &region_root(task)->parallel_data;
    } else {
      tomp_thread_t *it = initial_thread_of(task);
      *parallel_data = it ? &it->implicit_parallel_data : NULL;
    }
  }
  if (thread_num) {
    if (task->flags & TOMP_TASK_IMPLICIT) *thread_num = (int)task->thread_num;
    else if (!task->team) *thread_num = 0;
    else *thread_num = thread_num_in(thr, task->team);
  }
  return 2;
}

/* OpenMP 5.2 sec. 19.6.1.14: block `block` of the current task's memory; the result says
 * whether more blocks follow.  An explicit task has one block, its argument block (gcc's
 * struct of firstprivate values and pointers to shared ones, which tomp copies into the task
 * allocation for a deferred task); implicit and initial tasks, and tasks without arguments,
 * have none: size 0.  Always 0: there is never a block after block 0. */
static int get_task_memory(void **addr, size_t *size, int block) {
  void *a = NULL;
  size_t n = 0;
  tomp_thread_t *thr = tomp_self;
  if (block == 0 && thr && tomp_task_memory(thr->task, &a, &n)) {
    if (addr) *addr = a;
  }
  if (size) *size = n;
  return 0;
}

static int get_target_info(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id) {
  (void)device_num;
  (void)target_id;
  (void)host_op_id;
  return 0; /* never inside a target region: tomp has no devices */
}

static int get_num_devices(void) { return 0; }

/* its own cache line: a tool may take ids at every event, while the line before holds the
 * spin budgets every waiting thread reads */
static uint64_t next_id __attribute__((aligned(64))) = 1;
static uint64_t get_unique_id(void) { return __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED); }

static void finalize_tool(void) { tomp_ompt_finalize(); }

/* path: the entry point reads what only the tool path keeps (states and wait ids of every
 * wait, frames, task and region records of the no-tool fast paths), so looking it up turns
 * the tool path on (tomp_ompt_want_path).  The others answer the same either way. */
#define ENTRY(fn, name) {name, (ompt_interface_fn_t)(fn), false}
#define PATH_ENTRY(fn, name) {name, (ompt_interface_fn_t)(fn), true}
static const struct {
  const char *name;
  ompt_interface_fn_t fn;
  bool path;
} entries[] = {
    ENTRY(enumerate_states, "ompt_enumerate_states"),
    ENTRY(enumerate_mutex_impls, "ompt_enumerate_mutex_impls"),
    ENTRY(set_callback, "ompt_set_callback"),
    ENTRY(get_callback, "ompt_get_callback"),
    ENTRY(get_thread_data, "ompt_get_thread_data"),
    ENTRY(get_num_procs, "ompt_get_num_procs"),
    ENTRY(get_num_places, "ompt_get_num_places"),
    ENTRY(get_place_proc_ids, "ompt_get_place_proc_ids"),
    ENTRY(get_place_num, "ompt_get_place_num"),
    ENTRY(get_partition_place_nums, "ompt_get_partition_place_nums"),
    ENTRY(get_proc_id, "ompt_get_proc_id"),
    PATH_ENTRY(get_state, "ompt_get_state"),
    PATH_ENTRY(get_parallel_info, "ompt_get_parallel_info"),
    PATH_ENTRY(get_task_info, "ompt_get_task_info"),
    PATH_ENTRY(get_task_memory, "ompt_get_task_memory"),
    ENTRY(get_target_info, "ompt_get_target_info"),
    ENTRY(get_num_devices, "ompt_get_num_devices"),
    ENTRY(get_unique_id, "ompt_get_unique_id"),
    ENTRY(finalize_tool, "ompt_finalize_tool"),
};

/* Device-tracing entry points (ompt_set_trace_ompt, ompt_start_trace, ...) belong to a
 * device's own lookup function, handed out by device_initialize; tomp has no devices, so the
 * host lookup returns NULL for them like for any unknown name. */
ompt_interface_fn_t tomp_ompt_lookup(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
    if (!strcmp(entries[i].name, name)) {
      if (entries[i].path) tomp_ompt_want_path();
      return entries[i].fn;
    }
  return NULL;
}
