/* Prototypes of GCC's libgomp ABI (the GOMP_* entry points gcc emits calls to), as exported
 * by GCC 12's libgomp.so.1.  Signatures are ABI facts; the comments say what tomp does. */
#ifndef TOMP_GOMP_H
#define TOMP_GOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "omp.h"

/* Flag bits of GOMP_task / GOMP_taskloop (gomp-constants.h) */
#define GOMP_TASK_FLAG_UNTIED (1 << 0)
#define GOMP_TASK_FLAG_FINAL (1 << 1)
#define GOMP_TASK_FLAG_MERGEABLE (1 << 2)
#define GOMP_TASK_FLAG_DEPEND (1 << 3)
#define GOMP_TASK_FLAG_PRIORITY (1 << 4)
#define GOMP_TASK_FLAG_UP (1 << 8)
#define GOMP_TASK_FLAG_GRAINSIZE (1 << 9)
#define GOMP_TASK_FLAG_IF (1 << 10)
#define GOMP_TASK_FLAG_NOGROUP (1 << 11)
#define GOMP_TASK_FLAG_REDUCTION (1 << 12)
#define GOMP_TASK_FLAG_DETACH (1 << 13)
#define GOMP_TASK_FLAG_STRICT (1 << 14)

/* Dependence kinds in GCC's depend objects (omp_depend_t {address, kind}) */
#define GOMP_DEPEND_IN 1
#define GOMP_DEPEND_OUT 2
#define GOMP_DEPEND_INOUT 3
#define GOMP_DEPEND_MUTEXINOUTSET 4
#define GOMP_DEPEND_INOUTSET 5

/* The device argument of GOMP_target* when no device clause is given / an if clause is false */
#define GOMP_DEVICE_ICV (-1)
#define GOMP_DEVICE_HOST_FALLBACK (-2)

/* device.c: tomp_device_host (src/core/device.h) for a device construct's GOMP device argument
 * (GOMP_DEVICE_ICV: the default device); the construct then runs on the host in every case
 * that returns. */
void tomp_device_construct(int device, const char *who) TOMP_HIDDEN;

/* task_reduction.c: core's descriptor (tomp_redset_t, src/core/task.h) of gcc's task-reduction
 * array `data` (and the arrays chained to it; NULL for NULL), malloc'd and kept in data[5]; freed
 * where gcc's code unregisters (GOMP_taskgroup_reduction_unregister,
 * GOMP_workshare_task_reduction_unregister). */
struct tomp_redset *tomp_gomp_redset_new(uintptr_t *data) TOMP_HIDDEN;
/* inline so that the constructs' entry points without reductions keep a constant NULL */
static inline struct tomp_redset *tomp_gomp_redset(uintptr_t *data) {
  return data ? tomp_gomp_redset_new(data) : NULL;
}

/* GOMP_cancel / GOMP_cancellation_point "which" */
#define GOMP_CANCEL_PARALLEL 1
#define GOMP_CANCEL_LOOP 2
#define GOMP_CANCEL_FOR GOMP_CANCEL_LOOP
#define GOMP_CANCEL_DO GOMP_CANCEL_LOOP
#define GOMP_CANCEL_SECTIONS 4
#define GOMP_CANCEL_TASKGROUP 8

/* GOMP_loop_start / GOMP_parallel_loop sched argument */
#define GFS_RUNTIME 0
#define GFS_STATIC 1
#define GFS_DYNAMIC 2
#define GFS_GUIDED 3
#define GFS_AUTO 4
#define GFS_MONOTONIC 0x80000000u

/* GOMP_parallel flags: low 3 bits proc_bind */
#define GOMP_PARALLEL_BIND_MASK 7u

typedef unsigned long long gomp_ull;

/* parallel.c */
void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
void GOMP_parallel_end(void);
unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                  unsigned flags);
void GOMP_barrier(void);
bool GOMP_barrier_cancel(void);

/* loop.c (long) */
bool GOMP_loop_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_start(long, long, long, long sched, long chunk, long *, long *, uintptr_t *reductions,
                     void **mem);
bool GOMP_loop_ordered_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_ordered_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_ordered_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_ordered_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_ordered_start(long, long, long, long sched, long chunk, long *, long *,
                             uintptr_t *reductions, void **mem);
bool GOMP_loop_doacross_static_start(unsigned ncounts, long *counts, long chunk, long *, long *);
bool GOMP_loop_doacross_dynamic_start(unsigned, long *, long, long *, long *);
bool GOMP_loop_doacross_guided_start(unsigned, long *, long, long *, long *);
bool GOMP_loop_doacross_runtime_start(unsigned, long *, long *, long *);
bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk, long *,
                              long *, uintptr_t *reductions, void **mem);
bool GOMP_loop_static_next(long *, long *);
bool GOMP_loop_dynamic_next(long *, long *);
bool GOMP_loop_guided_next(long *, long *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_next(long *, long *);
bool GOMP_loop_nonmonotonic_guided_next(long *, long *);
bool GOMP_loop_nonmonotonic_runtime_next(long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *, long *);
bool GOMP_loop_ordered_static_next(long *, long *);
bool GOMP_loop_ordered_dynamic_next(long *, long *);
bool GOMP_loop_ordered_guided_next(long *, long *);
bool GOMP_loop_ordered_runtime_next(long *, long *);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
bool GOMP_loop_end_cancel(void);

void GOMP_parallel_loop_static_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_dynamic_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_guided_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_runtime_start(void (*)(void *), void *, unsigned, long, long, long);
void GOMP_parallel_loop_static(void (*)(void *), void *, unsigned, long, long, long, long,
                               unsigned flags);
void GOMP_parallel_loop_dynamic(void (*)(void *), void *, unsigned, long, long, long, long,
                                unsigned);
void GOMP_parallel_loop_guided(void (*)(void *), void *, unsigned, long, long, long, long,
                               unsigned);
void GOMP_parallel_loop_runtime(void (*)(void *), void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_dynamic(void (*)(void *), void *, unsigned, long, long, long,
                                             long, unsigned);
void GOMP_parallel_loop_nonmonotonic_guided(void (*)(void *), void *, unsigned, long, long, long,
                                            long, unsigned);
void GOMP_parallel_loop_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long, long,
                                             unsigned);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long,
                                                   long, unsigned);

/* loop_ull.c */
bool GOMP_loop_ull_static_start(bool up, gomp_ull, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                gomp_ull *);
bool GOMP_loop_ull_dynamic_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                 gomp_ull *);
bool GOMP_loop_ull_guided_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                gomp_ull *);
bool GOMP_loop_ull_runtime_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_nonmonotonic_dynamic_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull,
                                              gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_nonmonotonic_guided_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull,
                                             gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_nonmonotonic_runtime_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                              gomp_ull *);
bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start(bool, gomp_ull, gomp_ull, gomp_ull,
                                                    gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_start(bool, gomp_ull, gomp_ull, gomp_ull, long sched, gomp_ull chunk,
                         gomp_ull *, gomp_ull *, uintptr_t *reductions, void **mem);
bool GOMP_loop_ull_ordered_static_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                        gomp_ull *);
bool GOMP_loop_ull_ordered_dynamic_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull,
                                         gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_ordered_guided_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                        gomp_ull *);
bool GOMP_loop_ull_ordered_runtime_start(bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull *,
                                         gomp_ull *);
bool GOMP_loop_ull_ordered_start(bool, gomp_ull, gomp_ull, gomp_ull, long sched, gomp_ull chunk,
                                 gomp_ull *, gomp_ull *, uintptr_t *reductions, void **mem);
bool GOMP_loop_ull_doacross_static_start(unsigned, gomp_ull *, gomp_ull, gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_doacross_dynamic_start(unsigned, gomp_ull *, gomp_ull, gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_doacross_guided_start(unsigned, gomp_ull *, gomp_ull, gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_doacross_runtime_start(unsigned, gomp_ull *, gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_doacross_start(unsigned, gomp_ull *, long sched, gomp_ull chunk, gomp_ull *,
                                  gomp_ull *, uintptr_t *reductions, void **mem);
bool GOMP_loop_ull_static_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_dynamic_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_guided_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_runtime_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_nonmonotonic_dynamic_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_nonmonotonic_guided_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_nonmonotonic_runtime_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_ordered_static_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_ordered_dynamic_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_ordered_guided_next(gomp_ull *, gomp_ull *);
bool GOMP_loop_ull_ordered_runtime_next(gomp_ull *, gomp_ull *);

/* ordered.c / doacross */
void GOMP_ordered_start(void);
void GOMP_ordered_end(void);
void GOMP_doacross_post(long *counts);
void GOMP_doacross_wait(long first, ...);
void GOMP_doacross_ull_post(gomp_ull *counts);
void GOMP_doacross_ull_wait(gomp_ull first, ...);

/* sections.c */
unsigned GOMP_sections_start(unsigned count);
unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem);
unsigned GOMP_sections_next(void);
void GOMP_sections_end(void);
void GOMP_sections_end_nowait(void);
bool GOMP_sections_end_cancel(void);
void GOMP_parallel_sections_start(void (*)(void *), void *, unsigned, unsigned count);
void GOMP_parallel_sections(void (*)(void *), void *, unsigned, unsigned count, unsigned flags);

/* single.c */
bool GOMP_single_start(void);
void *GOMP_single_copy_start(void);
void GOMP_single_copy_end(void *data);

/* scope */
void GOMP_scope_start(uintptr_t *reductions);

/* critical.c / atomic */
void GOMP_critical_start(void);
void GOMP_critical_end(void);
void GOMP_critical_name_start(void **pptr);
void GOMP_critical_name_end(void **pptr);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);

/* task.c */
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                   long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                   long start, long end, long step);
void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                       long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
                       int priority, gomp_ull start, gomp_ull end, gomp_ull step);
void GOMP_taskwait(void);
void GOMP_taskwait_depend(void **depend);
void GOMP_taskyield(void);
void GOMP_taskgroup_start(void);
void GOMP_taskgroup_end(void);
void GOMP_taskgroup_reduction_register(uintptr_t *data);
void GOMP_taskgroup_reduction_unregister(uintptr_t *data);
void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs);
void GOMP_workshare_task_reduction_unregister(bool cancelled);

/* cancel.c */
bool GOMP_cancel(int which, bool do_cancel);
bool GOMP_cancellation_point(int which);

/* teams / target (host fallback) */
void GOMP_teams(unsigned num_teams, unsigned thread_limit);
bool GOMP_teams4(unsigned num_teams_lower, unsigned num_teams_upper, unsigned thread_limit,
                 bool first);
void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams, unsigned thread_limit,
                    unsigned flags);
void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                 void **hostaddrs, size_t *sizes, unsigned char *kinds);
void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                     size_t *sizes, unsigned short *kinds, unsigned flags, void **depend,
                     void **args);
void GOMP_target_data(int device, const void *unused, size_t mapnum, void **hostaddrs,
                      size_t *sizes, unsigned char *kinds);
void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                          unsigned short *kinds);
void GOMP_target_end_data(void);
void GOMP_target_update(int device, const void *unused, size_t mapnum, void **hostaddrs,
                        size_t *sizes, unsigned char *kinds);
void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                            unsigned short *kinds, unsigned flags, void **depend);
void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                 unsigned short *kinds, unsigned flags, void **depend);
void GOMP_offload_register(const void *host_table, int target_type, const void *target_data);
void GOMP_offload_unregister(const void *host_table, int target_type, const void *target_data);
void GOMP_offload_register_ver(unsigned version, const void *host_table, int target_type,
                               const void *target_data);
void GOMP_offload_unregister_ver(unsigned version, const void *host_table, int target_type,
                                 const void *target_data);

/* error.c, alloc.c */
void GOMP_error(const char *msg, size_t msglen);
void GOMP_warning(const char *msg, size_t msglen);
void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator);
void GOMP_free(void *ptr, uintptr_t allocator);

/* loop.c: the tool twin of the loop end entry points (loop_ull.c shares it; the per-chunk
 * ones have tomp_loop_next_observed, src/core/ws.h) */
bool tomp_gomp_loop_end_observed(const void *ra, void *fp, int how) TOMP_HIDDEN;

/* OMP_1.0 (GCC < 4.4) nest locks: 8 bytes, owned by threads (lock.c); exported only under
 * the omp_*_nest_lock@OMP_1.0 names (.symver) */
void tomp_init_nest_lock_10(omp_nest_lock_t *l);
void tomp_destroy_nest_lock_10(omp_nest_lock_t *l);
void tomp_set_nest_lock_10(omp_nest_lock_t *l);
void tomp_unset_nest_lock_10(omp_nest_lock_t *l);
int tomp_test_nest_lock_10(omp_nest_lock_t *l);

#endif
