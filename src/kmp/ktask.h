/* The tasking half of LLVM's ABI: how the front-end lays out a clang task on core's tasks, and
 * the entry points of task.c, taskdep.c, taskloop.c, taskgroup.c, taskred.c, cancel.c,
 * teams.c and alloc.c (the error directive is sync.c's).
 *
 * A task's argument area (core's, tomp_task_alloc) holds a front-end header, then the
 * compiler's kmp_task_t with its privates (sizeof_kmp_task_t bytes), then the shareds
 * (sizeof_shareds bytes, pointer-aligned; kmp_task_t.shareds points there).  Core runs
 * tomp_kmp_task_run on the area, which calls the compiler's routine(gtid, task): core never
 * sees LLVM's calling convention, and kmp_task_t pointers are never core's. */
#ifndef TOMP_KTASK_H
#define TOMP_KTASK_H

#include "kmp.h"
#include "task.h"

typedef struct tomp_kmp_thdr {
  tomp_task_t *core;     /* core's task, until submitted (NULL in a taskloop's chunk copies) */
  tomp_task_t *proxy;    /* a proxy task's core task, which __kmpc_proxy_task_completed ends */
  tomp_included_t saved; /* if(0) tasks: the thread's state across the body */
  uint32_t kflags;       /* __kmpc_omp_task_alloc's flags (KMP_TASK_*) */
  uint32_t size;         /* bytes of the whole area (header included) */
  uint8_t again;         /* untied: the body queued itself again at a scheduling point */
  uint8_t looping;       /* a caller of the body runs it again while `again` is set */
  uint8_t staged;        /* the area is on the thread's staging stack (taskstage.c) */
} __attribute__((aligned(16))) tomp_kmp_thdr_t;

static inline tomp_kmp_thdr_t *tomp_kmp_thdr(kmp_task_t *t) {
  return (tomp_kmp_thdr_t *)((char *)t - sizeof(tomp_kmp_thdr_t));
}
static inline kmp_task_t *tomp_kmp_task_of(tomp_kmp_thdr_t *h) {
  return (kmp_task_t *)(h + 1);
}

/* taskstage.c: the thread's staging stack */
#define TOMP_KMP_STAGE_BYTES (64 * 1024)
typedef struct tomp_kmp_stage {
  char *base;
  uint32_t top;  /* bytes in use */
  uint32_t live; /* areas handed out and not released */
} tomp_kmp_stage_t;
extern __thread tomp_kmp_stage_t tomp_kmp_stage __attribute__((tls_model("initial-exec")))
TOMP_HIDDEN;
/* the thread's first area (the stack is made), or NULL when the stack is full */
tomp_kmp_thdr_t *tomp_kmp_stage_first(size_t n) TOMP_HIDDEN;
static inline uint32_t tomp_kmp_stage_size(size_t n) {
  return (uint32_t)((n + 15) & ~(size_t)15);
}
/* an area of n bytes, or NULL */
static inline tomp_kmp_thdr_t *tomp_kmp_stage_alloc(size_t n) {
  tomp_kmp_stage_t *s = &tomp_kmp_stage;
  if (tomp_unlikely(!s->base || n > TOMP_KMP_STAGE_BYTES ||
                    s->top + tomp_kmp_stage_size(n) > TOMP_KMP_STAGE_BYTES))
    return tomp_kmp_stage_first(n);
  tomp_kmp_thdr_t *h = (tomp_kmp_thdr_t *)(s->base + s->top);
  s->top += tomp_kmp_stage_size(n);
  s->live++;
  return h;
}
static inline void tomp_kmp_stage_release(tomp_kmp_thdr_t *h) {
  tomp_kmp_stage_t *s = &tomp_kmp_stage;
  if (--s->live == 0)
    s->top = 0;
  else if ((char *)h + tomp_kmp_stage_size(h->size) == s->base + s->top)
    s->top = (uint32_t)((char *)h - s->base);
}
/* a copy of the area at from now at area: its shareds pointer follows; not staged, no core */
void tomp_kmp_task_relocate(void *area, void *from) TOMP_HIDDEN;
/* core's description of the task h heads */
tomp_task_spec_t tomp_kmp_task_spec(const tomp_kmp_thdr_t *h) TOMP_HIDDEN;
/* a staged task moved into a core task (room for ndeps dependences); others as they are */
kmp_task_t *tomp_kmp_task_unstage(tomp_thread_t *thr, kmp_task_t *task, size_t ndeps) TOMP_HIDDEN;
/* submit a staged task without dependences (or, now, run it at once: the caller knows its
 * dependences are met): false if it must be unstaged (a tool listens) */
bool tomp_kmp_stage_submit(tomp_thread_t *thr, kmp_task_t *task, bool now) TOMP_HIDDEN;
/* the core task of a staged if(0) task, running on the staged area */
tomp_task_t *tomp_kmp_stage_included(tomp_thread_t *thr, kmp_task_t *task) TOMP_HIDDEN;

/* task.c */
/* core's function of every clang task: the compiler's routine (again while an untied task
 * queues itself), then the destructors of its privates */
void tomp_kmp_task_run(void *area) TOMP_HIDDEN;
/* the front-end's half of a submit: NULL deps for none; n counts deps */
void tomp_kmp_task_submit(tomp_thread_t *thr, kmp_task_t *task, const tomp_depend_t *deps,
                          size_t n) TOMP_HIDDEN;
/* priority-var of a task (its data2 when the flags say so), clamped */
int tomp_kmp_task_priority(kmp_task_t *task) TOMP_HIDDEN;
/* free a task that is never submitted (the taskloop pattern), running its destructors */
void tomp_kmp_task_discard(kmp_task_t *task) TOMP_HIDDEN;

kmp_task_t *__kmpc_omp_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                  size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                  kmp_routine_entry_t task_entry) TOMP_EXPORT;
kmp_task_t *__kmpc_omp_target_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                         size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                         kmp_routine_entry_t task_entry,
                                         kmp_int64 device_id) TOMP_EXPORT;
kmp_int32 __kmpc_omp_task(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task) TOMP_EXPORT;
kmp_int32 __kmpc_omp_task_parts(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task) TOMP_EXPORT;
void __kmpc_proxy_task_completed(kmp_int32 gtid, kmp_task_t *ptask) TOMP_EXPORT;
void __kmpc_proxy_task_completed_ooo(kmp_task_t *ptask) TOMP_EXPORT;
void __kmpc_omp_task_begin_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task) TOMP_EXPORT;
void __kmpc_omp_task_complete_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task) TOMP_EXPORT;
kmp_int32 __kmpc_omp_taskwait(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
kmp_int32 __kmpc_omp_taskyield(ident_t *loc, kmp_int32 gtid, int end_part) TOMP_EXPORT;
/* affinity clause: kmp_task_affinity_info_t {base, len, flags} entries, a hint tomp ignores */
kmp_int32 __kmpc_omp_reg_task_with_affinity(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task,
                                            kmp_int32 naffins, void *affin_list) TOMP_EXPORT;
void *__kmpc_task_allow_completion_event(ident_t *loc, kmp_int32 gtid,
                                         kmp_task_t *task) TOMP_EXPORT;

/* taskdep.c */
kmp_int32 __kmpc_omp_task_with_deps(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task,
                                    kmp_int32 ndeps, kmp_depend_info_t *dep_list,
                                    kmp_int32 ndeps_noalias,
                                    kmp_depend_info_t *noalias_dep_list) TOMP_EXPORT;
void __kmpc_omp_wait_deps(ident_t *loc, kmp_int32 gtid, kmp_int32 ndeps,
                          kmp_depend_info_t *dep_list, kmp_int32 ndeps_noalias,
                          kmp_depend_info_t *noalias_dep_list) TOMP_EXPORT;
void __kmpc_omp_taskwait_deps_51(ident_t *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                 kmp_depend_info_t *dep_list, kmp_int32 ndeps_noalias,
                                 kmp_depend_info_t *noalias_dep_list,
                                 kmp_int32 has_no_wait) TOMP_EXPORT;

/* taskloop.c: lb and ub point into task's privates, where the chunk bodies read their
 * bounds (inclusive); sched 0 none, 1 grainsize, 2 num_tasks */
typedef void (*kmp_task_dup_t)(kmp_task_t *dst, kmp_task_t *src, kmp_int32 lastpriv);
void __kmpc_taskloop(ident_t *loc, kmp_int32 gtid, kmp_task_t *task, kmp_int32 if_val,
                     kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st, kmp_int32 nogroup,
                     kmp_int32 sched, kmp_uint64 grainsize, void *task_dup) TOMP_EXPORT;
void __kmpc_taskloop_5(ident_t *loc, kmp_int32 gtid, kmp_task_t *task, kmp_int32 if_val,
                       kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st, kmp_int32 nogroup,
                       kmp_int32 sched, kmp_uint64 grainsize, kmp_int32 modifier,
                       void *task_dup) TOMP_EXPORT;

/* taskgroup.c */
void __kmpc_taskgroup(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_end_taskgroup(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;

/* taskred.c */
/* The registrations this front-end made in taskgroup tg (not those it inherits), or NULL;
 * after tg has ended, tomp_kmp_taskred_finish combines and frees them. */
tomp_redset_t *tomp_kmp_taskred_own(tomp_taskgroup_t *tg) TOMP_HIDDEN;
void tomp_kmp_taskred_finish(tomp_thread_t *thr, tomp_redset_t *r,
                             const tomp_redset_t *stop) TOMP_HIDDEN;
void *__kmpc_taskred_init(kmp_int32 gtid, kmp_int32 num, void *data) TOMP_EXPORT;
void *__kmpc_task_reduction_init(kmp_int32 gtid, kmp_int32 num, void *data) TOMP_EXPORT;
void *__kmpc_taskred_modifier_init(ident_t *loc, kmp_int32 gtid, kmp_int32 is_ws, kmp_int32 num,
                                   void *data) TOMP_EXPORT;
void *__kmpc_task_reduction_modifier_init(ident_t *loc, kmp_int32 gtid, kmp_int32 is_ws,
                                          kmp_int32 num, void *data) TOMP_EXPORT;
void __kmpc_task_reduction_modifier_fini(ident_t *loc, kmp_int32 gtid, kmp_int32 is_ws) TOMP_EXPORT;
void *__kmpc_task_reduction_get_th_data(kmp_int32 gtid, void *tg, void *data) TOMP_EXPORT;

/* cancel.c: cncl_kind 1 parallel, 2 loop, 3 sections, 4 taskgroup; 1 = cancelled */
kmp_int32 __kmpc_cancel(ident_t *loc, kmp_int32 gtid, kmp_int32 cncl_kind) TOMP_EXPORT;
kmp_int32 __kmpc_cancellationpoint(ident_t *loc, kmp_int32 gtid, kmp_int32 cncl_kind) TOMP_EXPORT;
kmp_int32 __kmpc_cancel_barrier(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;

/* teams.c */
void __kmpc_push_num_teams(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams,
                           kmp_int32 num_threads) TOMP_EXPORT;
void __kmpc_push_num_teams_51(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams_lb,
                              kmp_int32 num_teams_ub, kmp_int32 num_threads) TOMP_EXPORT;
void __kmpc_fork_teams(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...) TOMP_EXPORT;

/* alloc.c */
void *__kmpc_alloc(kmp_int32 gtid, size_t size, uintptr_t allocator) TOMP_EXPORT;
void *__kmpc_aligned_alloc(kmp_int32 gtid, size_t align, size_t size,
                           uintptr_t allocator) TOMP_EXPORT;
void *__kmpc_calloc(kmp_int32 gtid, size_t nmemb, size_t size, uintptr_t allocator) TOMP_EXPORT;
void *__kmpc_realloc(kmp_int32 gtid, void *ptr, size_t size, uintptr_t allocator,
                     uintptr_t free_allocator) TOMP_EXPORT;
void __kmpc_free(kmp_int32 gtid, void *ptr, uintptr_t allocator) TOMP_EXPORT;
uintptr_t __kmpc_init_allocator(kmp_int32 gtid, uintptr_t memspace, int ntraits,
                                void *traits) TOMP_EXPORT;
void __kmpc_destroy_allocator(kmp_int32 gtid, uintptr_t allocator) TOMP_EXPORT;
void __kmpc_set_default_allocator(kmp_int32 gtid, uintptr_t allocator) TOMP_EXPORT;
uintptr_t __kmpc_get_default_allocator(kmp_int32 gtid) TOMP_EXPORT;

#endif
