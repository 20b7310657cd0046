/* Fortran entry points (gfortran's omp_lib): omp_*_ take every argument by reference,
 * omp_*_8_ are the variants for integer(8) / logical(8) actual arguments.  Logicals are
 * C ints of the kind's size (nonzero = .true.); character arguments come as (pointer,
 * hidden length) pairs, not NUL-terminated; results are stored blank-padded, the lengths appended after all
 * other arguments.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "omp.h"


/* Clamp an integer(8) argument to the C routine's int. */
static int narrow(int64_t v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

/* A NUL-terminated copy of a Fortran string; free it.  Trailing blanks are kept, as
 * libgomp keeps them: they are literal text of a format (callers pass trim(fmt)). */
static char *cstring(const char *s, size_t n) {
  char *c = tomp_malloc(n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  return c;
}

/* Store a C string into a blank-padded Fortran buffer. */
static void fstore(char *buf, size_t len, const char *s, size_t n) {
  if (n > len) n = len;
  memcpy(buf, s, n);
  memset(buf + n, ' ', len - n);
}

#define F_GET(type, name, expr)                                                                     \
  TOMP_EXPORT type name##_(void);                                                                  \
  type name##_(void) { return (type)(expr); }
#define F_SET4(name, cfn)                                                                          \
  TOMP_EXPORT void name##_(const int32_t *);                                                       \
  void name##_(const int32_t *v) { cfn(*v); }
#define F_SET48(name, cfn)                                                                         \
  F_SET4(name, cfn)                                                                                \
  TOMP_EXPORT void name##_8_(const int64_t *);                                                     \
  void name##_8_(const int64_t *v) { cfn(narrow(*v)); }
/* logical argument: any nonzero value is .true. */
#define F_SETL48(name, cfn)                                                                        \
  TOMP_EXPORT void name##_(const int32_t *);                                                       \
  void name##_(const int32_t *v) { cfn(*v != 0); }                                                 \
  TOMP_EXPORT void name##_8_(const int64_t *);                                                     \
  void name##_8_(const int64_t *v) { cfn(*v != 0); }

/* ---- threads, teams, ICVs -------------------------------------------------------------- */

F_SET48(omp_set_num_threads, omp_set_num_threads)
F_GET(int32_t, omp_get_num_threads, omp_get_num_threads())
F_GET(int32_t, omp_get_max_threads, omp_get_max_threads())
F_GET(int32_t, omp_get_thread_num, omp_get_thread_num())
F_GET(int32_t, omp_get_num_procs, omp_get_num_procs())
F_GET(int32_t, omp_in_parallel, omp_in_parallel())
F_SETL48(omp_set_dynamic, omp_set_dynamic)
F_GET(int32_t, omp_get_dynamic, omp_get_dynamic())
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
F_SETL48(omp_set_nested, omp_set_nested)
F_GET(int32_t, omp_get_nested, omp_get_nested())
#pragma GCC diagnostic pop
F_GET(int32_t, omp_get_cancellation, omp_get_cancellation())
F_GET(int32_t, omp_get_thread_limit, omp_get_thread_limit())
F_GET(int32_t, omp_get_supported_active_levels, omp_get_supported_active_levels())
F_SET48(omp_set_max_active_levels, omp_set_max_active_levels)
F_GET(int32_t, omp_get_max_active_levels, omp_get_max_active_levels())
F_GET(int32_t, omp_get_level, omp_get_level())
F_GET(int32_t, omp_get_active_level, omp_get_active_level())
F_GET(int32_t, omp_in_final, omp_in_final())
F_GET(int32_t, omp_get_max_task_priority, omp_get_max_task_priority())
F_GET(double, omp_get_wtime, omp_get_wtime())
F_GET(double, omp_get_wtick, omp_get_wtick())

TOMP_EXPORT int32_t omp_get_ancestor_thread_num_(const int32_t *);
int32_t omp_get_ancestor_thread_num_(const int32_t *l) { return omp_get_ancestor_thread_num(*l); }
TOMP_EXPORT int32_t omp_get_ancestor_thread_num_8_(const int64_t *);
int32_t omp_get_ancestor_thread_num_8_(const int64_t *l) {
  return omp_get_ancestor_thread_num(narrow(*l));
}
TOMP_EXPORT int32_t omp_get_team_size_(const int32_t *);
int32_t omp_get_team_size_(const int32_t *l) { return omp_get_team_size(*l); }
TOMP_EXPORT int32_t omp_get_team_size_8_(const int64_t *);
int32_t omp_get_team_size_8_(const int64_t *l) { return omp_get_team_size(narrow(*l)); }

TOMP_EXPORT void omp_set_schedule_(const int32_t *, const int32_t *);
void omp_set_schedule_(const int32_t *kind, const int32_t *chunk) {
  omp_set_schedule((omp_sched_t)*kind, *chunk);
}
TOMP_EXPORT void omp_set_schedule_8_(const int32_t *, const int64_t *);
void omp_set_schedule_8_(const int32_t *kind, const int64_t *chunk) {
  omp_set_schedule((omp_sched_t)*kind, narrow(*chunk));
}
TOMP_EXPORT void omp_get_schedule_(int32_t *, int32_t *);
void omp_get_schedule_(int32_t *kind, int32_t *chunk) {
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  *kind = (int32_t)k;
  *chunk = c;
}
TOMP_EXPORT void omp_get_schedule_8_(int32_t *, int64_t *);
void omp_get_schedule_8_(int32_t *kind, int64_t *chunk) {
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  *kind = (int32_t)k;
  *chunk = c;
}

/* ---- teams and devices ----------------------------------------------------------------- */

F_GET(int32_t, omp_get_num_teams, omp_get_num_teams())
F_GET(int32_t, omp_get_team_num, omp_get_team_num())
F_SET48(omp_set_num_teams, omp_set_num_teams)
F_GET(int32_t, omp_get_max_teams, omp_get_max_teams())
F_SET48(omp_set_teams_thread_limit, omp_set_teams_thread_limit)
F_GET(int32_t, omp_get_teams_thread_limit, omp_get_teams_thread_limit())
F_SET48(omp_set_default_device, omp_set_default_device)
F_GET(int32_t, omp_get_default_device, omp_get_default_device())
F_GET(int32_t, omp_get_num_devices, omp_get_num_devices())
F_GET(int32_t, omp_get_device_num, omp_get_device_num())
F_GET(int32_t, omp_is_initial_device, omp_is_initial_device())
F_GET(int32_t, omp_get_initial_device, omp_get_initial_device())

/* ---- affinity -------------------------------------------------------------------------- */

F_GET(int32_t, omp_get_proc_bind, omp_get_proc_bind())
F_GET(int32_t, omp_get_num_places, omp_get_num_places())
F_GET(int32_t, omp_get_place_num, omp_get_place_num())
F_GET(int32_t, omp_get_partition_num_places, omp_get_partition_num_places())

TOMP_EXPORT int32_t omp_get_place_num_procs_(const int32_t *);
int32_t omp_get_place_num_procs_(const int32_t *p) { return omp_get_place_num_procs(*p); }
TOMP_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t *);
int32_t omp_get_place_num_procs_8_(const int64_t *p) {
  return omp_get_place_num_procs(narrow(*p));
}

TOMP_EXPORT void omp_get_place_proc_ids_(const int32_t *, int32_t *);
void omp_get_place_proc_ids_(const int32_t *p, int32_t *ids) { omp_get_place_proc_ids(*p, ids); }
TOMP_EXPORT void omp_get_place_proc_ids_8_(const int64_t *, int64_t *);
void omp_get_place_proc_ids_8_(const int64_t *p, int64_t *ids) {
  int place = narrow(*p), n = omp_get_place_num_procs(place);
  if (n <= 0) return;
  int *tmp = tomp_malloc(sizeof(int) * (size_t)n);
  omp_get_place_proc_ids(place, tmp);
  for (int i = 0; i < n; i++) ids[i] = tmp[i];
  free(tmp);
}

TOMP_EXPORT void omp_get_partition_place_nums_(int32_t *);
void omp_get_partition_place_nums_(int32_t *nums) { omp_get_partition_place_nums(nums); }
TOMP_EXPORT void omp_get_partition_place_nums_8_(int64_t *);
void omp_get_partition_place_nums_8_(int64_t *nums) {
  int n = omp_get_partition_num_places();
  if (n <= 0) return;
  int *tmp = tomp_malloc(sizeof(int) * (size_t)n);
  omp_get_partition_place_nums(tmp);
  for (int i = 0; i < n; i++) nums[i] = tmp[i];
  free(tmp);
}

TOMP_EXPORT void omp_set_affinity_format_(const char *, size_t);
void omp_set_affinity_format_(const char *fmt, size_t len) {
  char *c = cstring(fmt, len);
  omp_set_affinity_format(c);
  free(c);
}

TOMP_EXPORT int32_t omp_get_affinity_format_(char *, size_t);
int32_t omp_get_affinity_format_(char *buf, size_t len) {
  size_t n = omp_get_affinity_format(NULL, 0);
  char *c = tomp_malloc(n + 1);
  omp_get_affinity_format(c, n + 1);
  fstore(buf, len, c, n);
  free(c);
  return (int32_t)n;
}

TOMP_EXPORT void omp_display_affinity_(const char *, size_t);
void omp_display_affinity_(const char *fmt, size_t len) {
  char *c = cstring(fmt, len);
  omp_display_affinity(c); /* empty: the affinity-format-var */
  free(c);
}

TOMP_EXPORT int32_t omp_capture_affinity_(char *, const char *, size_t, size_t);
int32_t omp_capture_affinity_(char *buf, const char *fmt, size_t buflen, size_t fmtlen) {
  char *c = cstring(fmt, fmtlen);
  size_t n = omp_capture_affinity(NULL, 0, c);
  char *out = tomp_malloc(n + 1);
  omp_capture_affinity(out, n + 1, c);
  fstore(buf, buflen, out, n);
  free(out);
  free(c);
  return (int32_t)n;
}

TOMP_EXPORT void omp_display_env_(const int32_t *);
void omp_display_env_(const int32_t *verbose) { omp_display_env(*verbose != 0); }
TOMP_EXPORT void omp_display_env_8_(const int64_t *);
void omp_display_env_8_(const int64_t *verbose) { omp_display_env(*verbose != 0); }

/* ---- pause, events, allocators --------------------------------------------------------- */

TOMP_EXPORT int32_t omp_pause_resource_(const int32_t *, const int32_t *);
int32_t omp_pause_resource_(const int32_t *kind, const int32_t *dev) {
  return omp_pause_resource((omp_pause_resource_t)*kind, *dev);
}
TOMP_EXPORT int32_t omp_pause_resource_all_(const int32_t *);
int32_t omp_pause_resource_all_(const int32_t *kind) {
  return omp_pause_resource_all((omp_pause_resource_t)*kind);
}

/* the event handle is passed by value (the interface declares it VALUE) */
TOMP_EXPORT void omp_fulfill_event_(omp_event_handle_t);
void omp_fulfill_event_(omp_event_handle_t ev) { omp_fulfill_event(ev); }

/* allocator handles are integer(omp_allocator_handle_kind), memory spaces
 * integer(omp_memspace_handle_kind): both intptr_t */
TOMP_EXPORT intptr_t omp_init_allocator_(const intptr_t *, const int32_t *,
                                         const omp_alloctrait_t *);
intptr_t omp_init_allocator_(const intptr_t *memspace, const int32_t *ntraits,
                             const omp_alloctrait_t *traits) {
  return (intptr_t)omp_init_allocator((omp_memspace_handle_t)*memspace, *ntraits, traits);
}
TOMP_EXPORT intptr_t omp_init_allocator_8_(const intptr_t *, const int64_t *,
                                           const omp_alloctrait_t *);
intptr_t omp_init_allocator_8_(const intptr_t *memspace, const int64_t *ntraits,
                               const omp_alloctrait_t *traits) {
  /* a count no int holds is not a valid trait array */
  int n = *ntraits > INT_MAX || *ntraits < INT_MIN ? -1 : (int)*ntraits;
  return (intptr_t)omp_init_allocator((omp_memspace_handle_t)*memspace, n, traits);
}
TOMP_EXPORT void omp_destroy_allocator_(const intptr_t *);
void omp_destroy_allocator_(const intptr_t *allocator) {
  omp_destroy_allocator((omp_allocator_handle_t)*allocator);
}
TOMP_EXPORT void omp_set_default_allocator_(const intptr_t *);
void omp_set_default_allocator_(const intptr_t *allocator) {
  omp_set_default_allocator((omp_allocator_handle_t)*allocator);
}
F_GET(intptr_t, omp_get_default_allocator, omp_get_default_allocator())


/* Lock routines' Fortran entry points live with the locks (src/gomp/lock.c, aliases.ld): they
 * need the pre-3.0 layouts too. */
