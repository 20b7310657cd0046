/* omp.h for tomp: the OpenMP 5.1 C API.
 * Type sizes, alignments and enum values match GCC's omp.h (they are ABI), so a program
 * compiled with either header runs on either library. */
#ifndef _OMP_H
#define _OMP_H 1

/* LLVM's omp.h includes these, and code written against libomp (LLVM's own OMPT tests
 * among it: exit, NULL, int64_t without their headers) relies on it. */
#include <stdint.h>
#include <stdlib.h>

#if defined(__GNUC__) && __GNUC__ >= 5
#define __TOMP_DEPRECATED __attribute__((__deprecated__))
#else
#define __TOMP_DEPRECATED
#endif

#ifndef _LIBGOMP_OMP_LOCK_DEFINED
#define _LIBGOMP_OMP_LOCK_DEFINED 1
/* 4 bytes: a futex word */
typedef struct {
  unsigned char _x[4] __attribute__((__aligned__(4)));
} omp_lock_t;

/* 8 + pointer bytes: futex word, count, owner */
typedef struct {
  unsigned char _x[8 + sizeof(void *)] __attribute__((__aligned__(sizeof(void *))));
} omp_nest_lock_t;
#endif

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = 0x80000000U
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_primary = 2,
  omp_proc_bind_master = omp_proc_bind_primary,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_lock_hint_none = omp_sync_hint_none,
  omp_sync_hint_uncontended = 1,
  omp_lock_hint_uncontended = omp_sync_hint_uncontended,
  omp_sync_hint_contended = 2,
  omp_lock_hint_contended = omp_sync_hint_contended,
  omp_sync_hint_nonspeculative = 4,
  omp_lock_hint_nonspeculative = omp_sync_hint_nonspeculative,
  omp_sync_hint_speculative = 8,
  omp_lock_hint_speculative = omp_sync_hint_speculative
} omp_sync_hint_t;

typedef omp_sync_hint_t omp_lock_hint_t;

typedef struct __attribute__((__aligned__(sizeof(void *)))) omp_depend_t {
  char __omp_depend_t__[2 * sizeof(void *)];
} omp_depend_t;

typedef enum omp_pause_resource_t { omp_pause_soft = 1, omp_pause_hard = 2 } omp_pause_resource_t;

typedef __UINTPTR_TYPE__ omp_uintptr_t;

#if defined(__cplusplus) && __cplusplus >= 201103L
#define __TOMP_UINTPTR_ENUM : omp_uintptr_t
#else
#define __TOMP_UINTPTR_ENUM
#endif

typedef enum omp_memspace_handle_t __TOMP_UINTPTR_ENUM {
  omp_default_mem_space = 0,
  omp_large_cap_mem_space = 1,
  omp_const_mem_space = 2,
  omp_high_bw_mem_space = 3,
  omp_low_lat_mem_space = 4,
  __omp_memspace_handle_t_max__ = __UINTPTR_MAX__
} omp_memspace_handle_t;

typedef enum omp_allocator_handle_t __TOMP_UINTPTR_ENUM {
  omp_null_allocator = 0,
  omp_default_mem_alloc = 1,
  omp_large_cap_mem_alloc = 2,
  omp_const_mem_alloc = 3,
  omp_high_bw_mem_alloc = 4,
  omp_low_lat_mem_alloc = 5,
  omp_cgroup_mem_alloc = 6,
  omp_pteam_mem_alloc = 7,
  omp_thread_mem_alloc = 8,
  __omp_allocator_handle_t_max__ = __UINTPTR_MAX__
} omp_allocator_handle_t;

typedef enum omp_alloctrait_key_t {
  omp_atk_sync_hint = 1,
  omp_atk_alignment = 2,
  omp_atk_access = 3,
  omp_atk_pool_size = 4,
  omp_atk_fallback = 5,
  omp_atk_fb_data = 6,
  omp_atk_pinned = 7,
  omp_atk_partition = 8
} omp_alloctrait_key_t;

typedef enum omp_alloctrait_value_t {
  omp_atv_default = (__UINTPTR_TYPE__)-1,
  omp_atv_false = 0,
  omp_atv_true = 1,
  omp_atv_contended = 3,
  omp_atv_uncontended = 4,
  omp_atv_serialized = 5,
  omp_atv_sequential = omp_atv_serialized,
  omp_atv_private = 6,
  omp_atv_all = 7,
  omp_atv_thread = 8,
  omp_atv_pteam = 9,
  omp_atv_cgroup = 10,
  omp_atv_default_mem_fb = 11,
  omp_atv_null_fb = 12,
  omp_atv_abort_fb = 13,
  omp_atv_allocator_fb = 14,
  omp_atv_environment = 15,
  omp_atv_nearest = 16,
  omp_atv_blocked = 17,
  omp_atv_interleaved = 18
} omp_alloctrait_value_t;

typedef struct omp_alloctrait_t {
  omp_alloctrait_key_t key;
  omp_uintptr_t value;
} omp_alloctrait_t;

typedef enum omp_event_handle_t __TOMP_UINTPTR_ENUM {
  __omp_event_handle_t_max__ = __UINTPTR_MAX__
} omp_event_handle_t;

#ifdef __cplusplus
extern "C" {
#define __TOMP_NOTHROW throw()
#define __TOMP_DEFAULT_NULL_ALLOCATOR = omp_null_allocator
#else
#define __TOMP_NOTHROW __attribute__((__nothrow__))
#define __TOMP_DEFAULT_NULL_ALLOCATOR
#endif

/* threads and teams */
extern void omp_set_num_threads(int) __TOMP_NOTHROW;
extern int omp_get_num_threads(void) __TOMP_NOTHROW;
extern int omp_get_max_threads(void) __TOMP_NOTHROW;
extern int omp_get_thread_num(void) __TOMP_NOTHROW;
extern int omp_get_num_procs(void) __TOMP_NOTHROW;
extern int omp_in_parallel(void) __TOMP_NOTHROW;
extern void omp_set_dynamic(int) __TOMP_NOTHROW;
extern int omp_get_dynamic(void) __TOMP_NOTHROW;
extern void omp_set_nested(int) __TOMP_NOTHROW __TOMP_DEPRECATED;
extern int omp_get_nested(void) __TOMP_NOTHROW __TOMP_DEPRECATED;
extern int omp_get_cancellation(void) __TOMP_NOTHROW;
extern void omp_set_schedule(omp_sched_t, int) __TOMP_NOTHROW;
extern void omp_get_schedule(omp_sched_t *, int *) __TOMP_NOTHROW;
extern int omp_get_thread_limit(void) __TOMP_NOTHROW;
extern int omp_get_supported_active_levels(void) __TOMP_NOTHROW;
extern void omp_set_max_active_levels(int) __TOMP_NOTHROW;
extern int omp_get_max_active_levels(void) __TOMP_NOTHROW;
extern int omp_get_level(void) __TOMP_NOTHROW;
extern int omp_get_ancestor_thread_num(int) __TOMP_NOTHROW;
extern int omp_get_team_size(int) __TOMP_NOTHROW;
extern int omp_get_active_level(void) __TOMP_NOTHROW;
extern int omp_in_final(void) __TOMP_NOTHROW;
extern int omp_get_max_task_priority(void) __TOMP_NOTHROW;

/* affinity */
extern omp_proc_bind_t omp_get_proc_bind(void) __TOMP_NOTHROW;
extern int omp_get_num_places(void) __TOMP_NOTHROW;
extern int omp_get_place_num_procs(int) __TOMP_NOTHROW;
extern void omp_get_place_proc_ids(int, int *) __TOMP_NOTHROW;
extern int omp_get_place_num(void) __TOMP_NOTHROW;
extern int omp_get_partition_num_places(void) __TOMP_NOTHROW;
extern void omp_get_partition_place_nums(int *) __TOMP_NOTHROW;
extern void omp_set_affinity_format(const char *) __TOMP_NOTHROW;
extern __SIZE_TYPE__ omp_get_affinity_format(char *, __SIZE_TYPE__) __TOMP_NOTHROW;
extern void omp_display_affinity(const char *) __TOMP_NOTHROW;
extern __SIZE_TYPE__ omp_capture_affinity(char *, __SIZE_TYPE__, const char *) __TOMP_NOTHROW;

/* teams and devices */
extern void omp_set_num_teams(int) __TOMP_NOTHROW;
extern int omp_get_max_teams(void) __TOMP_NOTHROW;
extern void omp_set_teams_thread_limit(int) __TOMP_NOTHROW;
extern int omp_get_teams_thread_limit(void) __TOMP_NOTHROW;
extern int omp_get_num_teams(void) __TOMP_NOTHROW;
extern int omp_get_team_num(void) __TOMP_NOTHROW;
extern void omp_set_default_device(int) __TOMP_NOTHROW;
extern int omp_get_default_device(void) __TOMP_NOTHROW;
extern int omp_get_num_devices(void) __TOMP_NOTHROW;
extern int omp_get_device_num(void) __TOMP_NOTHROW;
extern int omp_is_initial_device(void) __TOMP_NOTHROW;
extern int omp_get_initial_device(void) __TOMP_NOTHROW;
extern void *omp_target_alloc(__SIZE_TYPE__, int) __TOMP_NOTHROW;
extern void omp_target_free(void *, int) __TOMP_NOTHROW;
extern int omp_target_is_present(const void *, int) __TOMP_NOTHROW;
extern int omp_target_memcpy(void *, const void *, __SIZE_TYPE__, __SIZE_TYPE__, __SIZE_TYPE__,
                             int, int) __TOMP_NOTHROW;
extern int omp_target_memcpy_rect(void *, const void *, __SIZE_TYPE__, int, const __SIZE_TYPE__ *,
                                  const __SIZE_TYPE__ *, const __SIZE_TYPE__ *,
                                  const __SIZE_TYPE__ *, const __SIZE_TYPE__ *, int,
                                  int) __TOMP_NOTHROW;
extern int omp_target_associate_ptr(const void *, const void *, __SIZE_TYPE__, __SIZE_TYPE__,
                                    int) __TOMP_NOTHROW;
extern int omp_target_disassociate_ptr(const void *, int) __TOMP_NOTHROW;

/* locks */
extern void omp_init_lock(omp_lock_t *) __TOMP_NOTHROW;
extern void omp_init_lock_with_hint(omp_lock_t *, omp_sync_hint_t) __TOMP_NOTHROW;
extern void omp_destroy_lock(omp_lock_t *) __TOMP_NOTHROW;
extern void omp_set_lock(omp_lock_t *) __TOMP_NOTHROW;
extern void omp_unset_lock(omp_lock_t *) __TOMP_NOTHROW;
extern int omp_test_lock(omp_lock_t *) __TOMP_NOTHROW;
extern void omp_init_nest_lock(omp_nest_lock_t *) __TOMP_NOTHROW;
extern void omp_init_nest_lock_with_hint(omp_nest_lock_t *, omp_sync_hint_t) __TOMP_NOTHROW;
extern void omp_destroy_nest_lock(omp_nest_lock_t *) __TOMP_NOTHROW;
extern void omp_set_nest_lock(omp_nest_lock_t *) __TOMP_NOTHROW;
extern void omp_unset_nest_lock(omp_nest_lock_t *) __TOMP_NOTHROW;
extern int omp_test_nest_lock(omp_nest_lock_t *) __TOMP_NOTHROW;

/* timing */
extern double omp_get_wtime(void) __TOMP_NOTHROW;
extern double omp_get_wtick(void) __TOMP_NOTHROW;

/* resources, events, tools */
extern int omp_pause_resource(omp_pause_resource_t, int) __TOMP_NOTHROW;
extern int omp_pause_resource_all(omp_pause_resource_t) __TOMP_NOTHROW;
extern void omp_fulfill_event(omp_event_handle_t) __TOMP_NOTHROW;
extern void omp_display_env(int) __TOMP_NOTHROW;

/* memory management */
extern omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t, int,
                                                 const omp_alloctrait_t[]) __TOMP_NOTHROW;
extern void omp_destroy_allocator(omp_allocator_handle_t) __TOMP_NOTHROW;
extern void omp_set_default_allocator(omp_allocator_handle_t) __TOMP_NOTHROW;
extern omp_allocator_handle_t omp_get_default_allocator(void) __TOMP_NOTHROW;
extern void omp_free(void *, omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR) __TOMP_NOTHROW;
extern void *omp_alloc(__SIZE_TYPE__, omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR)
    __TOMP_NOTHROW __attribute__((__malloc__, __alloc_size__(1)));
extern void *omp_aligned_alloc(__SIZE_TYPE__, __SIZE_TYPE__,
                               omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR)
    __TOMP_NOTHROW __attribute__((__malloc__, __alloc_size__(2), __alloc_align__(1)));
extern void *omp_calloc(__SIZE_TYPE__, __SIZE_TYPE__,
                        omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR)
    __TOMP_NOTHROW __attribute__((__malloc__, __alloc_size__(1, 2)));
extern void *omp_aligned_calloc(__SIZE_TYPE__, __SIZE_TYPE__, __SIZE_TYPE__,
                                omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR)
    __TOMP_NOTHROW __attribute__((__malloc__, __alloc_size__(2, 3), __alloc_align__(1)));
extern void *omp_realloc(void *, __SIZE_TYPE__,
                         omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR,
                         omp_allocator_handle_t __TOMP_DEFAULT_NULL_ALLOCATOR)
    __TOMP_NOTHROW __attribute__((__alloc_size__(2)));

/* OMPT: omp_control_tool (tomp implements it; GCC's libgomp does not export it) */
typedef enum omp_control_tool_result_t {
  omp_control_tool_notool = -2,
  omp_control_tool_nocallback = -1,
  omp_control_tool_success = 0,
  omp_control_tool_ignored = 1
} omp_control_tool_result_t;

typedef enum omp_control_tool_t {
  omp_control_tool_start = 1,
  omp_control_tool_pause = 2,
  omp_control_tool_flush = 3,
  omp_control_tool_end = 4
} omp_control_tool_t;

extern int omp_control_tool(int, int, void *) __TOMP_NOTHROW;

#ifdef __cplusplus
}
#endif

#endif
