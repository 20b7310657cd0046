/* Parallel regions of LLVM's ABI: __kmpc_fork_call and the clauses pushed before it,
 * serialized regions (if(false)), the barrier, and the thread-number queries.  Each region
 * runs on core's fork/join (tomp_parallel), so OMPT and the other observers see clang's
 * regions as they see gcc's. */
#include <stdarg.h>
#include <stddef.h>

#include "kmp.h"
#include "runner.h"
#include "omp.h"

__thread tomp_kmp_push_t tomp_kmp_push __attribute__((tls_model("initial-exec")));

/* What every thread of the team needs to call the microtask. */
typedef struct kmp_region {
  kmpc_micro fn;
  int argc;
  void **argv;
} kmp_region_t;

/* The region whose microtask the calling thread runs (innermost), for
 * __kmpc_invoke_task_func. */
static __thread const kmp_region_t *cur_region __attribute__((tls_model("initial-exec")));

static void region_body(void *data) {
  const kmp_region_t *r = data;
  tomp_thread_t *thr = tomp_self;
  kmp_int32 gtid = (kmp_int32)thr->gtid, btid = (kmp_int32)thr->tid;
  const kmp_region_t *outer = cur_region;
  cur_region = r;
  tomp_kmp_invoke(r->fn, &gtid, &btid, r->argc, r->argv, tomp_kmp_exit_slot(thr));
  cur_region = outer;
}
/* a debugger shows the microtask, not region_body, as the region's function */
TOMP_RUNNER(region_body, offsetof(kmp_region_t, fn));

/* The clauses pushed for the next region, consumed (they apply to one region only). */
static inline void take_push(unsigned *nthreads, unsigned *bind) {
  tomp_kmp_push_t *p = &tomp_kmp_push;
  *nthreads = p->nthreads;
  *bind = p->bind;
  p->nthreads = 0;
  p->bind = 0;
}

TOMP_EXPORT void __kmpc_fork_call(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...) {
  (void)loc;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_unlikely(argc < 0)) {
    tomp_warn("__kmpc_fork_call: negative argument count %d, none passed", (int)argc);
    argc = 0;
  }
  void *argv[argc < TOMP_KMP_ARGV_MIN ? TOMP_KMP_ARGV_MIN : argc];
  va_list ap;
  va_start(ap, microtask);
  for (int i = 0; i < argc; i++)
    argv[i] = va_arg(ap, void *);
  va_end(ap);
  for (int i = argc; i < TOMP_KMP_ARGV_MIN; i++)
    argv[i] = NULL;
  kmp_region_t r = {microtask, argc, argv};
  unsigned nthreads, bind;
  take_push(&nthreads, &bind);
  if (tomp_listening())
    tomp_parallel(region_body, &r, tomp_team_size(thr, nthreads, true), bind);
  else
    tomp_parallel_quiet(region_body, &r, nthreads, bind);
}

/* flang's form (OpenMPIRBuilder): the if clause as an argument; false runs a team of one */
TOMP_EXPORT void __kmpc_fork_call_if(ident_t *loc, kmp_int32 argc, kmpc_micro microtask,
                                     kmp_int32 cond, void *args) {
  (void)loc;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  void **pa = args, *argv[argc < TOMP_KMP_ARGV_MIN ? TOMP_KMP_ARGV_MIN : (argc > 0 ? argc : 1)];
  if (argc < 0) argc = 0;
  for (int i = 0; i < TOMP_KMP_ARGV_MIN || i < argc; i++)
    argv[i] = i < argc ? pa[i] : NULL;
  kmp_region_t r = {microtask, argc, argv};
  unsigned nthreads, bind;
  take_push(&nthreads, &bind);
  tomp_parallel(region_body, &r, tomp_team_size(thr, nthreads, cond != 0), bind);
}

TOMP_EXPORT void __kmpc_push_num_threads(ident_t *loc, kmp_int32 gtid, kmp_int32 num_threads) {
  (void)loc, (void)gtid;
  /* OpenMP 5.2 10.1.2: the num_threads expression must be positive; a bad one gets the
   * default rather than a crash */
  if (tomp_unlikely(num_threads <= 0)) {
    tomp_warn("num_threads(%d) is not positive; using the default", (int)num_threads);
    num_threads = 0;
  }
  tomp_thread();
  tomp_kmp_push.nthreads = (unsigned)num_threads;
}

/* num_threads(strict: n) (OpenMP 6.0): tomp gives the team it can, as without strict */
TOMP_EXPORT void __kmpc_push_num_threads_strict(ident_t *loc, kmp_int32 gtid, kmp_int32 num_threads,
                                                int severity, const char *message) {
  (void)severity, (void)message;
  __kmpc_push_num_threads(loc, gtid, num_threads);
}

/* num_threads with a list (one value per nesting level): the first applies to this region;
 * the inner ones are not kept (nthreads-var lists come only from OMP_NUM_THREADS here) */
TOMP_EXPORT void __kmpc_push_num_threads_list(ident_t *loc, kmp_int32 gtid, kmp_uint32 list_length,
                                              kmp_int32 *num_threads_list) {
  if (list_length > 0 && num_threads_list) __kmpc_push_num_threads(loc, gtid, num_threads_list[0]);
}

TOMP_EXPORT void __kmpc_push_num_threads_list_strict(ident_t *loc, kmp_int32 gtid,
                                                     kmp_uint32 list_length,
                                                     kmp_int32 *num_threads_list, int severity,
                                                     const char *message) {
  (void)severity, (void)message;
  __kmpc_push_num_threads_list(loc, gtid, list_length, num_threads_list);
}

/* libomp pops nothing here either: a pushed num_threads applies to the next region only and
 * that region consumes it (LLVM's own comment: "automatically popped") */
TOMP_EXPORT void __kmpc_pop_num_threads(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}

/* Runs the microtask of the region the calling thread is in, once more, on this thread, with
 * the region's arguments (what a worker of libomp runs as its implicit task; LLVM exports it,
 * no compiler calls it).  Returns 1, as libomp does; 0 with one message outside any region
 * forked by __kmpc_fork_call (libomp has no microtask there either). */
TOMP_EXPORT int __kmpc_invoke_task_func(int gtid) {
  (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  const kmp_region_t *r = cur_region;
  if (!r) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      tomp_warn("__kmpc_invoke_task_func: the thread is in no clang parallel region; nothing run");
    return 0;
  }
  region_body((void *)r);
  return 1;
}

TOMP_EXPORT void __kmpc_push_proc_bind(ident_t *loc, kmp_int32 gtid, int proc_bind) {
  (void)loc, (void)gtid;
  /* LLVM's kmp_proc_bind_t: false, true, primary (master), close, spread share OpenMP's
   * values; intel (5) and default (6) mean no clause. */
  tomp_kmp_push.bind = proc_bind >= 0 && proc_bind <= TOMP_BIND_SPREAD ? (unsigned)proc_bind : 0;
}

static void serialized_none(void *data) {
  (void)data;
}

/* if(false): a team of one whose body the program runs itself, between these two calls. */
TOMP_EXPORT void __kmpc_serialized_parallel(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  unsigned nthreads, bind;
  take_push(&nthreads, &bind);
  (void)nthreads;
  if (tomp_listening()) {
    /* if(false) asks for one thread: requested_parallelism 1, as gcc's code passes 1 to
     * GOMP_parallel for it and libomp reports (LLVM's parallel/parallel_if0) */
    thr->ev_requested = 1;
    thr->ev_fork_flags = ompt_parallel_invoker_program;
  }
  tomp_fork(serialized_none, NULL, 1, bind, NULL, NULL);
  /* the program, not tomp, calls the body: its exit frame is the caller's own frame, the one
   * that calls the body (libomp's choice too; LLVM's parallel/parallel_if0 wants it set) */
  if (tomp_listening()) thr->task->frame.exit_frame.ptr = tomp_kmp_caller_frame();
  /* the encountering task stays suspended in the region until end_serialized_parallel: its
   * enter frame stays set (as for an if(0) task: task.c), marked the application's so the
   * end can tell it from another entry point's */
  if (tomp_entry_guard_.thr) {
    tomp_entry_guard_.task->frame.enter_frame_flags = ompt_frame_application | ompt_frame_framepointer;
    thr->codeptr = tomp_entry_guard_.codeptr;
    tomp_entry_guard_.thr = NULL;
  }
}

TOMP_EXPORT void __kmpc_end_serialized_parallel(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_self;
  TOMP_ENTRY(thr);
  tomp_join();
  tomp_task_t *p = thr ? thr->task : NULL;
  if (p && p->frame.enter_frame.ptr && (p->frame.enter_frame_flags & ompt_frame_application))
    p->frame.enter_frame.ptr = NULL;
}

/* The barrier serves explicit barriers and the implicit ones at the end of worksharing
 * constructs: ident_t's flags tell which (OMPT reports them as different kinds). */
static int barrier_kind(const ident_t *loc) {
  if (loc && (loc->flags & KMP_IDENT_BARRIER_IMPL))
    return ompt_state_wait_barrier_implicit_workshare;
  return ompt_state_wait_barrier_explicit;
}

static TOMP_OBSERVED_TWIN void barrier_observed(const void *ra, void *fp, ident_t *loc) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  if (!thr->team) {
    /* an orphaned worksharing construct's barrier keeps its kind (LLVM 19's barrier/for_simd) */
    if (tomp_listening()) tomp_ev_serial_barrier_(thr, barrier_kind(loc), thr->codeptr);
    return;
  }
  tomp_barrier_wait(thr, barrier_kind(loc), false);
}

TOMP_EXPORT void __kmpc_barrier(ident_t *loc, kmp_int32 gtid) {
  (void)gtid;
  TOMP_OBSERVED_PATH_THR(thr, barrier_observed, loc);
  if (thr->team) tomp_barrier_wait_quiet(thr, barrier_kind(loc), false);
}

/* The combined barrier and master of libomp's ABI (LLVM exports them; clang does not emit
 * them).  __kmpc_barrier_master: every thread of the team arrives; the primary thread returns
 * 1 and runs the master block while the others wait until its __kmpc_end_barrier_master
 * (here a second barrier, which the others enter at once and the primary at its end), then
 * return 0.  The _nowait form: after the barrier the primary returns 1, the others 0 at once,
 * and no end call follows. */
static bool is_primary(const tomp_thread_t *thr) {
  return !thr->team || thr->tid == 0;
}

TOMP_EXPORT kmp_int32 __kmpc_barrier_master(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  __kmpc_barrier(loc, gtid);
  if (is_primary(thr)) return 1;
  __kmpc_barrier(loc, gtid);
  return 0;
}

TOMP_EXPORT void __kmpc_end_barrier_master(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  __kmpc_barrier(loc, gtid);
}

TOMP_EXPORT kmp_int32 __kmpc_barrier_master_nowait(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  __kmpc_barrier(loc, gtid);
  return is_primary(thr);
}

/* ---- thread numbers and team queries -------------------------------------------------- */

TOMP_EXPORT kmp_int32 __kmpc_bound_thread_num(ident_t *loc) {
  (void)loc;
  return (kmp_int32)tomp_thread()->tid;
}

TOMP_EXPORT kmp_int32 __kmpc_bound_num_threads(ident_t *loc) {
  (void)loc;
  tomp_team_t *team = tomp_thread()->team;
  return team ? (kmp_int32)team->nthreads : 1;
}

/* Threads the runtime knows (libomp: __kmp_all_nth), here the numbers handed out. */
TOMP_EXPORT kmp_int32 __kmpc_global_num_threads(ident_t *loc) {
  (void)loc;
  tomp_thread();
  return (kmp_int32)tomp_thread_count();
}

TOMP_EXPORT kmp_int32 __kmpc_in_parallel(ident_t *loc) {
  (void)loc;
  tomp_team_t *team = tomp_thread()->team;
  return team && team->active_level > 0;
}

TOMP_EXPORT kmp_int32 __kmpc_ok_to_fork(ident_t *loc) {
  (void)loc;
  return 1;
}

/* scope (OpenMP 5.1): the compiler emits its privatisation and barrier itself; these mark
 * the construct's extent */
TOMP_EXPORT void __kmpc_scope(ident_t *loc, kmp_int32 gtid, void *reserved) {
  (void)loc, (void)gtid, (void)reserved;
}
TOMP_EXPORT void __kmpc_end_scope(ident_t *loc, kmp_int32 gtid, void *reserved) {
  (void)loc, (void)gtid, (void)reserved;
}

/* target-offload-var for libomptarget, in libomp's encoding: 0 disabled, 1 default,
 * 2 mandatory */
TOMP_EXPORT int __kmpc_get_target_offload(void) {
  tomp_thread();
  switch (tomp_g.target_offload) {
  case TOMP_OFFLOAD_DISABLED:
    return 0;
  case TOMP_OFFLOAD_MANDATORY:
    return 2;
  default:
    return 1;
  }
}

/* Library start and end markers some compilers emit: tomp initialises when loaded and
 * finalises at exit, so there is nothing to do. */
TOMP_EXPORT void __kmpc_begin(ident_t *loc, kmp_int32 flags) {
  (void)loc, (void)flags;
}
TOMP_EXPORT void __kmpc_end(ident_t *loc) {
  (void)loc;
}

/* `thread_limit` on a target construct run on the host (newer clangs): the encountering
 * task's thread-limit-var (OpenMP 5.2 13.8: the clause sets it for the target task's data
 * environment); the teams and parallel regions it starts obey it.  Not positive: ignored. */
TOMP_EXPORT void __kmpc_set_thread_limit(ident_t *loc, kmp_int32 gtid, kmp_int32 thread_limit) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  if (thread_limit > 0) thr->task->icv.thread_limit = (unsigned)thread_limit;
}

/* libomp's pause entry (kmp_pause_status_t: 0 resume, 1 soft, 2 hard; 0 answered on
 * success).  tomp restarts its workers on demand after a pause, so a resume has nothing to
 * do. */
TOMP_EXPORT int __kmpc_pause_resource(int level) {
  if (level == 0) return 0;
  if (level != omp_pause_soft && level != omp_pause_hard) return 1;
  return omp_pause_resource_all((omp_pause_resource_t)level) != 0;
}

/* A number for the current task and for its parent (0: none), as libomp's debugging aids
 * give: tomp's task descriptors are unique while the task lives, so their addresses are. */
TOMP_EXPORT kmp_uint64 __kmpc_get_taskid(void) {
  tomp_thread_t *thr = tomp_self;
  return thr && thr->task ? (kmp_uint64)(uintptr_t)thr->task : 0;
}

TOMP_EXPORT kmp_uint64 __kmpc_get_parent_taskid(void) {
  tomp_thread_t *thr = tomp_self;
  return thr && thr->task && thr->task->parent ? (kmp_uint64)(uintptr_t)thr->task->parent : 0;
}
