/* LLVM's OpenMP runtime ABI (the __kmpc_* entry points clang, icx/ifx, AOCC and flang emit
 * calls to, as exported by libomp.so.5): its types and constants.  Layouts and values are ABI
 * facts (LLVM 14 openmp/runtime/src/kmp.h; docs/kmp-abi.md lists every entry point and its
 * status); the front-end (the files of src/kmp) translate them onto core (src/core) as src/gomp
 * does for GCC's ABI.  Both front-ends serve one process with one runtime and one thread pool. */
#ifndef TOMP_KMP_H
#define TOMP_KMP_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

typedef int32_t kmp_int32;
typedef uint32_t kmp_uint32;
typedef int64_t kmp_int64;
typedef uint64_t kmp_uint64;

/* Source location of a construct: every entry point's first argument (may be NULL). */
typedef struct ident {
  kmp_int32 reserved_1;
  kmp_int32 flags; /* KMP_IDENT_* */
  kmp_int32 reserved_2;
  kmp_int32 reserved_3; /* clang: strlen(psource) */
  const char *psource;  /* ";file;function;line;column;;" (";unknown;unknown;0;0;;" without -g) */
} ident_t;

#define KMP_IDENT_KMPC 0x02
#define KMP_IDENT_BARRIER_EXPL 0x20
#define KMP_IDENT_BARRIER_IMPL 0x40
#define KMP_IDENT_BARRIER_IMPL_MASK 0x1C0
#define KMP_IDENT_BARRIER_IMPL_FOR 0x40
#define KMP_IDENT_BARRIER_IMPL_SECTIONS 0xC0
#define KMP_IDENT_BARRIER_IMPL_SINGLE 0x140
#define KMP_IDENT_WORK_LOOP 0x200
#define KMP_IDENT_WORK_SECTIONS 0x400
#define KMP_IDENT_WORK_DISTRIBUTE 0x800

/* The outlined body of a parallel or teams region: (&gtid, &bound tid, shared pointers...). */
typedef void (*kmpc_micro)(kmp_int32 *global_tid, kmp_int32 *bound_tid, ...);

/* A lock the compiler allocates for critical sections and reductions: 32 zeroed bytes. */
typedef kmp_int32 kmp_critical_name[8];

/* Explicit tasks (__kmpc_omp_task_alloc returns one; privates follow it in the same block). */
typedef kmp_int32 (*kmp_routine_entry_t)(kmp_int32 gtid, void *task);
typedef union kmp_cmplrdata {
  kmp_int32 priority;
  kmp_routine_entry_t destructors;
} kmp_cmplrdata_t;
typedef struct kmp_task {
  void *shareds;
  kmp_routine_entry_t routine;
  kmp_int32 part_id;
  kmp_cmplrdata_t data1; /* destructors */
  kmp_cmplrdata_t data2; /* priority */
} kmp_task_t;            /* 40 bytes */

/* kmp_tasking_flags_t: the compiler's bits of __kmpc_omp_task_alloc's flags */
#define KMP_TASK_TIED 0x01
#define KMP_TASK_FINAL 0x02
#define KMP_TASK_MERGED_IF0 0x04
#define KMP_TASK_DESTRUCTORS 0x08
#define KMP_TASK_PROXY 0x10
#define KMP_TASK_PRIORITY 0x20
#define KMP_TASK_DETACHABLE 0x40
#define KMP_TASK_HIDDEN_HELPER 0x80

/* A dependence (depend clause item), 24 bytes */
typedef struct kmp_depend_info {
  intptr_t base_addr;
  size_t len;
  uint8_t flags; /* KMP_DEP_* */
} kmp_depend_info_t;
#define KMP_DEP_IN 0x01
#define KMP_DEP_OUT 0x02
#define KMP_DEP_MTX 0x04
#define KMP_DEP_SET 0x08
#define KMP_DEP_ALL 0x80

/* doacross loop dimensions */
typedef struct kmp_dim {
  kmp_int64 lo, up, st;
} kmp_dim_t;

/* Task reductions (__kmpc_taskred_init, __kmpc_taskred_modifier_init) */
typedef struct kmp_taskred_input {
  void *reduce_shar;
  void *reduce_orig;
  size_t reduce_size;
  void *reduce_init;
  void *reduce_fini;
  void *reduce_comb;
  uint32_t flags; /* bit 0: lazy_priv */
} kmp_taskred_input_t;
/* the older form (__kmpc_task_reduction_init): no reduce_orig */
typedef struct kmp_task_red_input {
  void *reduce_shar;
  size_t reduce_size;
  void *reduce_init;
  void *reduce_fini;
  void *reduce_comb;
  uint32_t flags;
} kmp_task_red_input_t;

/* Schedule codes (enum sched_type) */
#define KMP_SCH_STATIC_CHUNKED 33
#define KMP_SCH_STATIC 34
#define KMP_SCH_DYNAMIC_CHUNKED 35
#define KMP_SCH_GUIDED_CHUNKED 36
#define KMP_SCH_RUNTIME 37
#define KMP_SCH_AUTO 38
#define KMP_SCH_TRAPEZOIDAL 39
#define KMP_SCH_STATIC_GREEDY 40
#define KMP_SCH_STATIC_BALANCED 41
#define KMP_SCH_GUIDED_ITERATIVE 42
#define KMP_SCH_GUIDED_ANALYTICAL 43
#define KMP_SCH_STATIC_STEAL 44
#define KMP_SCH_STATIC_BALANCED_CHUNKED 45
#define KMP_SCH_GUIDED_SIMD 46
#define KMP_SCH_RUNTIME_SIMD 47
#define KMP_ORD_STATIC_CHUNKED 65
#define KMP_ORD_STATIC 66
#define KMP_ORD_DYNAMIC_CHUNKED 67
#define KMP_ORD_GUIDED_CHUNKED 68
#define KMP_ORD_RUNTIME 69
#define KMP_ORD_AUTO 70
#define KMP_ORD_TRAPEZOIDAL 71
#define KMP_DISTRIBUTE_STATIC_CHUNKED 91
#define KMP_DISTRIBUTE_STATIC 92
#define KMP_NM_OFFSET 128 /* the "nomerge" codes: 161 = 33 + 128, ... */
#define KMP_SCH_MODIFIER_MONOTONIC (1 << 29)
#define KMP_SCH_MODIFIER_NONMONOTONIC (1 << 30)
#define KMP_SCH_WITHOUT_MODIFIERS(s)                                                               \
  ((s) & ~(KMP_SCH_MODIFIER_MONOTONIC | KMP_SCH_MODIFIER_NONMONOTONIC))

/* __kmpc_reduce / __kmpc_reduce_nowait answers */
#define KMP_REDUCE_NOTHING 0
#define KMP_REDUCE_COMBINE 1 /* the caller combines, then calls __kmpc_end_reduce* */
#define KMP_REDUCE_ATOMIC 2  /* the caller combines with atomics */

/* The calling thread's descriptor and its global thread number (the thread table's gtid:
 * what every __kmpc_* entry point receives back as its gtid argument).  tomp does not trust
 * a gtid argument for anything but a consistency check: the descriptor is tomp_self. */
static inline kmp_int32 tomp_kmp_gtid(void) {
  return (kmp_int32)tomp_thread()->gtid;
}

/* ---- Entry points (prototypes, by the file that defines them) ------------------------- */

/* thread.c */
kmp_int32 __kmpc_global_thread_num(ident_t *loc) TOMP_EXPORT;

/* invoke.c: fn(gtid, btid, argv[0], ..., argv[argc-1]); argv has at least TOMP_KMP_ARGV_MIN
 * entries (unused ones NULL) whatever argc is.  exit_frame (NULL: none) gets the invoker's
 * frame, the exit frame of the task fn runs in. */
#define TOMP_KMP_ARGV_MIN 4
void tomp_kmp_invoke(kmpc_micro fn, kmp_int32 *gtid, kmp_int32 *btid, int argc, void **argv,
                     void **exit_frame) TOMP_HIDDEN;
/* The frame pointer of the function that called the caller (tomp is built with frame
 * pointers, so the saved one is in place; the value is only compared, never followed):
 * __builtin_frame_address(1), which gcc warns about. */
#define tomp_kmp_caller_frame() (*(void *const *)__builtin_frame_address(0))
/* The exit-frame slot of thr's current task while a tool listens, else NULL. */
static inline void **tomp_kmp_exit_slot(tomp_thread_t *thr) {
  return tomp_listening() ? &thr->task->frame.exit_frame.ptr : NULL;
}

/* parallel.c: the clauses __kmpc_push_* record for the calling thread's next region (0: no
 * clause); the region's entry point consumes them. */
typedef struct tomp_kmp_push {
  unsigned nthreads; /* num_threads */
  unsigned bind;     /* proc_bind, TOMP_BIND_* */
} tomp_kmp_push_t;
extern __thread tomp_kmp_push_t tomp_kmp_push __attribute__((tls_model("initial-exec")))
TOMP_HIDDEN;

void __kmpc_fork_call(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...) TOMP_EXPORT;
void __kmpc_fork_call_if(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, kmp_int32 cond,
                         void *args) TOMP_EXPORT;
void __kmpc_push_num_threads(ident_t *loc, kmp_int32 gtid, kmp_int32 num_threads) TOMP_EXPORT;
void __kmpc_push_num_threads_strict(ident_t *loc, kmp_int32 gtid, kmp_int32 num_threads,
                                    int severity, const char *message) TOMP_EXPORT;
void __kmpc_push_num_threads_list(ident_t *loc, kmp_int32 gtid, kmp_uint32 list_length,
                                  kmp_int32 *num_threads_list) TOMP_EXPORT;
void __kmpc_push_num_threads_list_strict(ident_t *loc, kmp_int32 gtid, kmp_uint32 list_length,
                                         kmp_int32 *num_threads_list, int severity,
                                         const char *message) TOMP_EXPORT;
void __kmpc_scope(ident_t *loc, kmp_int32 gtid, void *reserved) TOMP_EXPORT;
void __kmpc_end_scope(ident_t *loc, kmp_int32 gtid, void *reserved) TOMP_EXPORT;
int __kmpc_get_target_offload(void) TOMP_EXPORT;
void __kmpc_push_proc_bind(ident_t *loc, kmp_int32 gtid, int proc_bind) TOMP_EXPORT;
void __kmpc_serialized_parallel(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_end_serialized_parallel(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_barrier(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
kmp_int32 __kmpc_barrier_master(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_end_barrier_master(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
kmp_int32 __kmpc_barrier_master_nowait(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_pop_num_threads(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
int __kmpc_invoke_task_func(int gtid) TOMP_EXPORT;
kmp_int32 __kmpc_bound_thread_num(ident_t *loc) TOMP_EXPORT;
kmp_int32 __kmpc_bound_num_threads(ident_t *loc) TOMP_EXPORT;
kmp_int32 __kmpc_global_num_threads(ident_t *loc) TOMP_EXPORT;
kmp_int32 __kmpc_in_parallel(ident_t *loc) TOMP_EXPORT;
kmp_int32 __kmpc_ok_to_fork(ident_t *loc) TOMP_EXPORT;
void __kmpc_begin(ident_t *loc, kmp_int32 flags) TOMP_EXPORT;
void __kmpc_end(ident_t *loc) TOMP_EXPORT;
void __kmpc_set_thread_limit(ident_t *loc, kmp_int32 gtid, kmp_int32 thread_limit) TOMP_EXPORT;
int __kmpc_pause_resource(int level) TOMP_EXPORT;
kmp_uint64 __kmpc_get_taskid(void) TOMP_EXPORT;
kmp_uint64 __kmpc_get_parent_taskid(void) TOMP_EXPORT;

/* loop.c: one prototype per integer variant (4: int32, 4u: uint32, 8: int64, 8u: uint64) */
#define TOMP_KMP_LOOP_PROTOS(suffix, T, ST)                                                        \
  void __kmpc_for_static_init_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype,          \
                                       kmp_int32 *plast, T *plb, T *pub, ST *pst, ST incr,         \
                                       ST chunk) TOMP_EXPORT;                                      \
  void __kmpc_team_static_init_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 *plast, T *plb,    \
                                        T *pub, ST *pst, ST incr, ST chunk) TOMP_EXPORT;           \
  void __kmpc_dist_for_static_init_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule,      \
                                            kmp_int32 *plast, T *plb, T *pub, T *pupperD, ST *pst, \
                                            ST incr, ST chunk) TOMP_EXPORT;                        \
  void __kmpc_dispatch_init_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, T lb, T ub, \
                                     ST st, ST chunk) TOMP_EXPORT;                                 \
  int __kmpc_dispatch_next_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 *plast, T *plb,        \
                                    T *pub, ST *pst) TOMP_EXPORT;                                  \
  void __kmpc_dispatch_fini_##suffix(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;                    \
  void __kmpc_dist_dispatch_init_##suffix(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule,        \
                                          kmp_int32 *plast, T lb, T ub, ST st, ST chunk)           \
      TOMP_EXPORT;
TOMP_KMP_LOOP_PROTOS(4, kmp_int32, kmp_int32)
TOMP_KMP_LOOP_PROTOS(4u, kmp_uint32, kmp_int32)
TOMP_KMP_LOOP_PROTOS(8, kmp_int64, kmp_int64)
TOMP_KMP_LOOP_PROTOS(8u, kmp_uint64, kmp_int64)
void __kmpc_for_static_fini(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_dispatch_deinit(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;

/* sections.c */
kmp_int32 __kmpc_sections_init(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
kmp_int32 __kmpc_next_section(ident_t *loc, kmp_int32 gtid, kmp_int32 n) TOMP_EXPORT;
void __kmpc_end_sections(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;

/* loop.c: trip count of lb..ub (inclusive) by st, the values widened to 64 bits (sign-extended
 * for signed variants, zero-extended for unsigned ones); 0 for an empty loop or a zero st. */
uint64_t tomp_kmp_trip(bool is_signed, uint64_t lb, uint64_t ub, int64_t st) TOMP_HIDDEN;

/* collapse.c: one level of a collapsed loop nest (LLVM's bounds_info_t, kmp_collapse.h):
 * types (loop_type of the bounds and step, loop_iv_type of the variable: 0..7 = u8 i8 u16 i16
 * u32 i32 u64 i64), comparison (0 <=, 1 >=, 2 !=, 3 <, 4 >), the level lb1/ub1 multiply, then
 * the bounds lb0 + lb1 * outer, ub0 + ub1 * outer and the step (32-bit values in the low
 * half), and the level's trip count (rectangular nests). */
typedef struct kmp_loop_bounds {
  kmp_int32 loop_type;
  kmp_int32 loop_iv_type;
  kmp_int32 comparison;
  kmp_int32 outer_iv;
  kmp_uint64 lb0_u64, lb1_u64, ub0_u64, ub1_u64;
  kmp_int64 step_64;
  kmp_uint64 trip_count;
} kmp_loop_bounds_t;
kmp_uint64 __kmpc_process_loop_nest_rectang(ident_t *loc, kmp_int32 gtid, kmp_loop_bounds_t *nest,
                                            kmp_int32 n) TOMP_EXPORT;
void __kmpc_calc_original_ivs_rectang(ident_t *loc, kmp_uint64 new_iv,
                                      const kmp_loop_bounds_t *nest, kmp_uint64 *ivs,
                                      kmp_int32 n) TOMP_EXPORT;
kmp_int32 __kmpc_for_collapsed_init(ident_t *loc, kmp_int32 gtid, kmp_loop_bounds_t *nest,
                                    kmp_loop_bounds_t *chunk, kmp_int32 n,
                                    kmp_int32 *plastiter) TOMP_EXPORT;

/* schedule.c: run-sched-var as clang code reads it (libomp's initial value while the ICV
 * holds its initial one): omp_get_schedule@VERSION, and schedule(runtime) /
 * schedule(simd:runtime) (simd: the simd width, 0 for plain runtime) resolved into core's
 * loop arguments over n iterations. */
void tomp_kmp_get_schedule(int *kind, int *chunk) TOMP_EXPORT; /* omp_sched_t *kind */
void tomp_kmp_get_schedule_(int32_t *kind, int32_t *chunk) TOMP_EXPORT;
void tomp_kmp_runtime_sched(tomp_thread_t *thr, uint64_t n, uint64_t simd, int *sched,
                            uint64_t *chunk, bool *nonmono) TOMP_HIDDEN;

/* doacross.c: the calling thread's doacross loop between __kmpc_doacross_init and _fini
 * (ndim 0: none).  dispatch: the loop's __kmpc_dispatch_* calls take their chunks of outer
 * iterations from the doacross construct, at values dlb + i * dst. */
#define TOMP_KMP_DX_MAXDIM 16
typedef struct tomp_kmp_dx {
  unsigned ndim;
  bool entered; /* the construct is entered (by the loop's init call: tomp_kmp_dx_enter) */
  bool dispatch;
  int64_t dlb, dst;
  int64_t lo[TOMP_KMP_DX_MAXDIM], st[TOMP_KMP_DX_MAXDIM];
  uint64_t n[TOMP_KMP_DX_MAXDIM];
} tomp_kmp_dx_t;
extern __thread tomp_kmp_dx_t tomp_kmp_dx __attribute__((tls_model("initial-exec"))) TOMP_HIDDEN;
/* The loop's init call (static or dispatch) enters the doacross construct, reporting the
 * loop's schedule as OMPT work type wstype (doacross_init cannot know it yet). */
void tomp_kmp_dx_enter(tomp_thread_t *thr, int wstype) TOMP_HIDDEN;
void __kmpc_doacross_init(ident_t *loc, kmp_int32 gtid, kmp_int32 num_dims,
                          const kmp_dim_t *dims) TOMP_EXPORT;
void __kmpc_doacross_wait(ident_t *loc, kmp_int32 gtid, const kmp_int64 *vec) TOMP_EXPORT;
void __kmpc_doacross_post(ident_t *loc, kmp_int32 gtid, const kmp_int64 *vec) TOMP_EXPORT;
void __kmpc_doacross_fini(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;

/* sync.c */
void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit) TOMP_EXPORT;
void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit,
                               uint32_t hint) TOMP_EXPORT;
void __kmpc_end_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit) TOMP_EXPORT;
kmp_int32 __kmpc_masked(ident_t *loc, kmp_int32 gtid, kmp_int32 filter) TOMP_EXPORT;
void __kmpc_end_masked(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
kmp_int32 __kmpc_master(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_end_master(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
kmp_int32 __kmpc_single(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_end_single(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_copyprivate(ident_t *loc, kmp_int32 gtid, size_t cpy_size, void *cpy_data,
                        void (*cpy_func)(void *, void *), kmp_int32 didit) TOMP_EXPORT;
void *__kmpc_copyprivate_light(ident_t *loc, kmp_int32 gtid, void *cpy_data) TOMP_EXPORT;
void __kmpc_flush(ident_t *loc) TOMP_EXPORT;
void __kmpc_ordered(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_end_ordered(ident_t *loc, kmp_int32 gtid) TOMP_EXPORT;
void __kmpc_error(ident_t *loc, int severity, const char *message) TOMP_EXPORT;

/* reduce.c */
kmp_int32 __kmpc_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars, size_t reduce_size,
                               void *reduce_data, void (*reduce_func)(void *lhs, void *rhs),
                               kmp_critical_name *lck) TOMP_EXPORT;
void __kmpc_end_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck) TOMP_EXPORT;
kmp_int32 __kmpc_reduce(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars, size_t reduce_size,
                        void *reduce_data, void (*reduce_func)(void *lhs, void *rhs),
                        kmp_critical_name *lck) TOMP_EXPORT;
void __kmpc_end_reduce(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck) TOMP_EXPORT;

/* lock.c: clang's omp_nest_lock_t (8 bytes: a pointer to an API nest lock), the routines
 * exported as omp_*_nest_lock@VERSION */
typedef struct kmp_nest_lock {
  void *lk;
} kmp_nest_lock_t;
void tomp_kmp_init_nest_lock(kmp_nest_lock_t *l) TOMP_EXPORT;
void tomp_kmp_init_nest_lock_with_hint(kmp_nest_lock_t *l, int hint) TOMP_EXPORT;
void tomp_kmp_destroy_nest_lock(kmp_nest_lock_t *l) TOMP_EXPORT;
void tomp_kmp_set_nest_lock(kmp_nest_lock_t *l) TOMP_EXPORT;
void tomp_kmp_unset_nest_lock(kmp_nest_lock_t *l) TOMP_EXPORT;
int tomp_kmp_test_nest_lock(kmp_nest_lock_t *l) TOMP_EXPORT;
void __kmpc_init_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_init_lock_with_hint(ident_t *loc, kmp_int32 gtid, void **user_lock,
                                uintptr_t hint) TOMP_EXPORT;
void __kmpc_destroy_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_set_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_unset_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
int __kmpc_test_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_init_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_init_nest_lock_with_hint(ident_t *loc, kmp_int32 gtid, void **user_lock,
                                     uintptr_t hint) TOMP_EXPORT;
void __kmpc_destroy_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_set_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
void __kmpc_unset_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;
int __kmpc_test_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock) TOMP_EXPORT;

/* atomic.c: the __kmpc_atomic_* routines provided (N: 1, 2, 4, 8 bytes) */
#define TOMP_KMP_ATOMIC_PROTOS(N, T)                                                               \
  bool __kmpc_atomic_bool_##N##_cas(ident_t *loc, int gtid, T *x, T e, T d) TOMP_EXPORT;           \
  T __kmpc_atomic_val_##N##_cas(ident_t *loc, int gtid, T *x, T e, T d) TOMP_EXPORT;               \
  bool __kmpc_atomic_bool_##N##_cas_cpt(ident_t *loc, int gtid, T *x, T e, T d, T *pv)             \
      TOMP_EXPORT;                                                                                 \
  T __kmpc_atomic_val_##N##_cas_cpt(ident_t *loc, int gtid, T *x, T e, T d, T *pv) TOMP_EXPORT;    \
  void __kmpc_atomic_fixed##N##_add(ident_t *loc, int gtid, T *x, T v) TOMP_EXPORT;
TOMP_KMP_ATOMIC_PROTOS(1, int8_t)
TOMP_KMP_ATOMIC_PROTOS(2, int16_t)
TOMP_KMP_ATOMIC_PROTOS(4, int32_t)
TOMP_KMP_ATOMIC_PROTOS(8, int64_t)
void __kmpc_atomic_float10_max(ident_t *loc, int gtid, long double *x, long double v) TOMP_EXPORT;
void __kmpc_atomic_float10_min(ident_t *loc, int gtid, long double *x, long double v) TOMP_EXPORT;
long double __kmpc_atomic_float10_max_cpt(ident_t *loc, int gtid, long double *x, long double v,
                                          int flag) TOMP_EXPORT;
long double __kmpc_atomic_float10_min_cpt(ident_t *loc, int gtid, long double *x, long double v,
                                          int flag) TOMP_EXPORT;

/* threadprivate.c */
void *__kmpc_threadprivate_cached(ident_t *loc, kmp_int32 gtid, void *data, size_t size,
                                  void ***cache) TOMP_EXPORT;
void *__kmpc_threadprivate(ident_t *loc, kmp_int32 gtid, void *data, size_t size) TOMP_EXPORT;
void __kmpc_threadprivate_register(ident_t *loc, void *data, void *(*ctor)(void *),
                                   void *(*cctor)(void *, void *),
                                   void (*dtor)(void *)) TOMP_EXPORT;
void __kmpc_threadprivate_register_vec(ident_t *loc, void *data, void *(*ctor)(void *, size_t),
                                       void *(*cctor)(void *, void *, size_t),
                                       void (*dtor)(void *, size_t), size_t vec_len) TOMP_EXPORT;

/* api.c: libomp's extension routines (a kmp_affinity_mask_t is a void *) */
void kmp_set_stacksize(int size) TOMP_EXPORT;
void kmp_set_stacksize_s(size_t size) TOMP_EXPORT;
int kmp_get_stacksize(void) TOMP_EXPORT;
size_t kmp_get_stacksize_s(void) TOMP_EXPORT;
void kmp_set_blocktime(int ms) TOMP_EXPORT;
int kmp_get_blocktime(void) TOMP_EXPORT;
void kmp_set_library(int mode) TOMP_EXPORT;
void kmp_set_library_serial(void) TOMP_EXPORT;
void kmp_set_library_turnaround(void) TOMP_EXPORT;
void kmp_set_library_throughput(void) TOMP_EXPORT;
int kmp_get_library(void) TOMP_EXPORT;
void kmp_set_defaults(const char *str) TOMP_EXPORT;
void kmp_set_disp_num_buffers(int n) TOMP_EXPORT;
void kmp_set_warnings_on(void) TOMP_EXPORT;
void kmp_set_warnings_off(void) TOMP_EXPORT;
void *kmp_malloc(size_t size) TOMP_EXPORT;
void *kmp_calloc(size_t n, size_t size) TOMP_EXPORT;
void *kmp_realloc(void *p, size_t size) TOMP_EXPORT;
void kmp_free(void *p) TOMP_EXPORT;
void *kmp_aligned_malloc(size_t size, size_t align) TOMP_EXPORT;
int kmp_get_cancellation_status(int kind) TOMP_EXPORT;
int kmp_get_affinity_max_proc(void) TOMP_EXPORT;
void kmp_create_affinity_mask(void **mask) TOMP_EXPORT;
void kmp_destroy_affinity_mask(void **mask) TOMP_EXPORT;
int kmp_set_affinity_mask_proc(int proc, void **mask) TOMP_EXPORT;
int kmp_unset_affinity_mask_proc(int proc, void **mask) TOMP_EXPORT;
int kmp_get_affinity_mask_proc(int proc, void **mask) TOMP_EXPORT;
int kmp_set_affinity(void **mask) TOMP_EXPORT;
int kmp_get_affinity(void **mask) TOMP_EXPORT;
void *kmpc_malloc(size_t size) TOMP_EXPORT;
void *kmpc_calloc(size_t n, size_t size) TOMP_EXPORT;
void *kmpc_realloc(void *p, size_t size) TOMP_EXPORT;
void kmpc_free(void *p) TOMP_EXPORT;
void *kmpc_aligned_malloc(size_t size, size_t align) TOMP_EXPORT;
void kmpc_set_stacksize(int size) TOMP_EXPORT;
void kmpc_set_stacksize_s(size_t size) TOMP_EXPORT;
void kmpc_set_blocktime(int ms) TOMP_EXPORT;
void kmpc_set_library(int mode) TOMP_EXPORT;
void kmpc_set_defaults(const char *str) TOMP_EXPORT;
void kmpc_set_disp_num_buffers(int n) TOMP_EXPORT;

#endif
