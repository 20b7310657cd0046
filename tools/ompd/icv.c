/* ICVs (OpenMP 5.2 chapter 2.4) at each scope, the display control variables and tool
 * data.  An ICV has one scope: task (a task's data environment: the task or implicit_task
 * scope), parallel (the region's), address_space or global (the runtime's settings, asked
 * with the address-space handle). */
#include <stdio.h>
#include <string.h>

#include "tompd.h"

#define LAY(as) ((as)->L)

/* X(id name, "spec name", scope) */
#define TOMPD_ICVS(X)                                                                              \
  X(DYN, "dyn-var", ompd_scope_task)                                                               \
  X(RUN_SCHED, "run-sched-var", ompd_scope_task)                                                   \
  X(NTHREADS, "nthreads-var", ompd_scope_task)                                                     \
  X(THREAD_LIMIT, "thread-limit-var", ompd_scope_task)                                             \
  X(MAX_ACTIVE_LEVELS, "max-active-levels-var", ompd_scope_task)                                   \
  X(BIND, "bind-var", ompd_scope_task)                                                             \
  X(DEFAULT_DEVICE, "default-device-var", ompd_scope_task)                                         \
  X(DEF_ALLOCATOR, "def-allocator-var", ompd_scope_task)                                           \
  X(FINAL_TASK, "final-task-var", ompd_scope_task)                                                 \
  X(IMPLICIT_TASK, "implicit-task-var", ompd_scope_task)                                           \
  X(EXPLICIT_TASK, "explicit-task-var", ompd_scope_task)                                           \
  X(THREAD_NUM, "thread-num-var", ompd_scope_task)                                                 \
  X(TEAM_SIZE, "team-size-var", ompd_scope_parallel)                                               \
  X(LEVELS, "levels-var", ompd_scope_parallel)                                                     \
  X(ACTIVE_LEVELS, "active-levels-var", ompd_scope_parallel)                                       \
  X(CANCEL, "cancel-var", ompd_scope_global)                                                       \
  X(DEBUG, "debug-var", ompd_scope_global)                                                         \
  X(MAX_TASK_PRIORITY, "max-task-priority-var", ompd_scope_global)                                 \
  X(DISPLAY_AFFINITY, "display-affinity-var", ompd_scope_global)                                   \
  X(TARGET_OFFLOAD, "target-offload-var", ompd_scope_global)                                       \
  X(STACKSIZE, "stacksize-var", ompd_scope_address_space)                                          \
  X(WAIT_POLICY, "wait-policy-var", ompd_scope_address_space)                                      \
  X(AFFINITY_FORMAT, "affinity-format-var", ompd_scope_address_space)                              \
  X(NTEAMS, "nteams-var", ompd_scope_address_space)                                                \
  X(TEAMS_THREAD_LIMIT, "teams-thread-limit-var", ompd_scope_address_space)

enum {
  ICV_NONE_ = ompd_icv_undefined,
#define TOMPD_ICV_ENUM_(id, name, scope) ICV_##id,
  TOMPD_ICVS(TOMPD_ICV_ENUM_)
#undef TOMPD_ICV_ENUM_
      ICV_COUNT_
};
static const struct {
  const char *name;
  ompd_scope_t scope;
} icvs[] = {{NULL, 0},
#define TOMPD_ICV_ROW_(id, name, scope) {name, scope},
            TOMPD_ICVS(TOMPD_ICV_ROW_)
#undef TOMPD_ICV_ROW_
};

TOMPD_EXPORT ompd_rc_t ompd_enumerate_icvs(ompd_address_space_handle_t *handle,
                                           ompd_icv_id_t current, ompd_icv_id_t *next_id,
                                           const char **next_icv_name, ompd_scope_t *next_scope,
                                           int *more) {
  if (!tompd_as_ok(handle)) return ompd_rc_stale_handle;
  if (!next_id || !next_icv_name || !next_scope || !more) return ompd_rc_bad_input;
  if (current + 1 >= ICV_COUNT_) return ompd_rc_bad_input;
  *next_id = current + 1;
  *next_icv_name = icvs[current + 1].name;
  *next_scope = icvs[current + 1].scope;
  *more = current + 2 < ICV_COUNT_;
  return ompd_rc_ok;
}

/* ---- reading ----------------------------------------------------------------------------- */

/* Where an ICV lives: a task's icv block, a team, or the globals; plus what the string form
 * needs. */
typedef struct {
  ompd_address_space_handle_t *as;
  uint64_t icv;  /* tomp_icv_t: a task's, or the globals' initial one */
  uint64_t task; /* 0 unless task scope */
  ompd_parallel_handle_t *par;
} where_t;

static const char *sched_name(int32_t k) {
  switch (k & 0x7fffffff) {
  case 1:
    return "static";
  case 2:
    return "dynamic";
  case 3:
    return "guided";
  case 4:
    return "auto";
  default:
    return "unknown";
  }
}
static const char *bind_name(uint8_t b) {
  static const char *const names[] = {"false", "true", "primary", "close", "spread"};
  return b < 5 ? names[b] : "unknown";
}

/* The value of ICV id as a number (*v) and, if s is given, as a string. */
static ompd_rc_t icv_read(where_t *w, ompd_icv_id_t id, int64_t *v, char *s, size_t ns) {
  ompd_address_space_handle_t *as = w->as;
  const tomp_ompd_layout_t *L = &as->L;
  uint64_t g = L->global;
  ompd_rc_t rc = ompd_rc_ok;
  uint32_t u = 0;
  int32_t i = 0;
  uint8_t b = 0;
  uint64_t q = 0;
  if (s) s[0] = 0;
#define RD(fn, addr, var)                                                                          \
  do {                                                                                             \
    if ((rc = fn(as, (addr), &(var))) != ompd_rc_ok) return rc;                                    \
  } while (0)
  switch (id) {
  case ICV_DYN:
    RD(tompd_u8, w->icv + L->icv_dyn, b);
    *v = b;
    if (s) snprintf(s, ns, "%s", b ? "true" : "false");
    return rc;
  case ICV_RUN_SCHED: {
    int32_t chunk;
    RD(tompd_i32, w->icv + L->icv_run_sched, i);
    RD(tompd_i32, w->icv + L->icv_run_sched_chunk, chunk);
    *v = i & 0x7fffffff;
    if (s)
      snprintf(s, ns, "%s%s,%d", (uint32_t)i & 0x80000000u ? "monotonic:" : "", sched_name(i),
               chunk);
    return rc;
  }
  case ICV_NTHREADS: {
    /* this level's value, then the levels the OMP_NUM_THREADS list still holds */
    uint32_t len;
    RD(tompd_u32, w->icv + L->icv_nthreads, u);
    RD(tompd_u8, w->icv + L->icv_nthreads_lvl, b);
    RD(tompd_u32, g + L->global_nthreads_list_len, len);
    *v = u;
    if (s) {
      size_t at = (size_t)snprintf(s, ns, "%u", u);
      for (uint32_t k = (uint32_t)b + 1; k < len && k < 16 && at < ns; k++) {
        uint32_t x;
        RD(tompd_u32, g + L->global_nthreads_list + 4ull * k, x);
        at += (size_t)snprintf(s + at, ns - at, ",%u", x);
      }
    }
    return rc;
  }
  case ICV_THREAD_LIMIT:
    RD(tompd_u32, w->icv + L->icv_thread_limit, u);
    *v = u;
    break;
  case ICV_MAX_ACTIVE_LEVELS:
    RD(tompd_u32, w->icv + L->icv_max_active_levels, u);
    *v = u;
    break;
  case ICV_BIND: {
    uint32_t len;
    RD(tompd_u8, w->icv + L->icv_bind, b);
    *v = b;
    if (s) {
      uint8_t lvl, x;
      RD(tompd_u8, w->icv + L->icv_bind_lvl, lvl);
      RD(tompd_u32, g + L->global_bind_list_len, len);
      size_t at = (size_t)snprintf(s, ns, "%s", bind_name(b));
      for (uint32_t k = (uint32_t)lvl + 1; k < len && k < 16 && at < ns; k++) {
        RD(tompd_u8, g + L->global_bind_list + k, x);
        at += (size_t)snprintf(s + at, ns - at, ",%s", bind_name(x));
      }
    }
    return rc;
  }
  case ICV_DEFAULT_DEVICE:
    RD(tompd_i32, w->icv + L->icv_default_device, i);
    *v = i;
    break;
  case ICV_DEF_ALLOCATOR:
    RD(tompd_u64, w->icv + L->icv_def_allocator, q);
    *v = q ? (int64_t)q : 1; /* 1: omp_default_mem_alloc */
    break;
  case ICV_FINAL_TASK:
    RD(tompd_i32, w->task + L->task_in_final, i);
    *v = i != 0;
    break;
  case ICV_IMPLICIT_TASK:
  case ICV_EXPLICIT_TASK:
    RD(tompd_u32, w->task + L->task_flags, u);
    *v = (u & (id == ICV_IMPLICIT_TASK ? TOMP_OMPD_TASK_IMPLICIT | TOMP_OMPD_TASK_INITIAL
                                       : TOMP_OMPD_TASK_EXPLICIT)) != 0;
    break;
  case ICV_THREAD_NUM:
    RD(tompd_u32, w->task + L->task_thread_num, u);
    *v = u;
    break;
  case ICV_TEAM_SIZE:
    if ((rc = tompd_parallel_size(w->par, &u)) != ompd_rc_ok) return rc;
    *v = u;
    break;
  case ICV_LEVELS:
  case ICV_ACTIVE_LEVELS:
    if (w->par->team)
      RD(tompd_u32, w->par->team + (id == ICV_LEVELS ? L->team_level : L->team_active_level), u);
    *v = u;
    break;
  case ICV_CANCEL:
    RD(tompd_i32, g + L->global_cancellation, i);
    *v = i;
    break;
  case ICV_DEBUG:
    RD(tompd_i32, g + L->global_debug, i);
    *v = i;
    if (s) snprintf(s, ns, "%s", i ? "enabled" : "disabled");
    return rc;
  case ICV_MAX_TASK_PRIORITY:
    RD(tompd_i32, g + L->global_max_task_priority, i);
    *v = i;
    break;
  case ICV_DISPLAY_AFFINITY:
    RD(tompd_i32, g + L->global_display_affinity, i);
    *v = i;
    break;
  case ICV_TARGET_OFFLOAD:
    RD(tompd_i32, g + L->global_target_offload, i);
    *v = i;
    if (s) snprintf(s, ns, "%s", i == 1 ? "mandatory" : i == 2 ? "disabled" : "default");
    return rc;
  case ICV_STACKSIZE:
    RD(tompd_u64, g + L->global_stacksize, q);
    *v = (int64_t)q;
    break;
  case ICV_WAIT_POLICY:
    RD(tompd_i32, g + L->global_wait_policy, i);
    *v = i;
    if (s) snprintf(s, ns, "%s", i == 1 ? "active" : i == 0 ? "passive" : "unset");
    return rc;
  case ICV_AFFINITY_FORMAT:
    RD(tompd_u64, g + L->global_affinity_format, q);
    *v = 0;
    if (s && q && (rc = tompd_string(as, q, s, ns)) != ompd_rc_ok) return rc;
    return ompd_rc_incompatible; /* a string: the caller decides */
  case ICV_NTEAMS:
    RD(tompd_i32, g + L->global_num_teams, i);
    *v = i;
    break;
  case ICV_TEAMS_THREAD_LIMIT:
    RD(tompd_i32, g + L->global_teams_thread_limit, i);
    *v = i;
    break;
  default:
    return ompd_rc_bad_input;
  }
#undef RD
  if (s) snprintf(s, ns, "%lld", (long long)*v);
  return ompd_rc_ok;
}

/* The handle for scope, checked, and where its ICVs are. */
static ompd_rc_t where(void *handle, ompd_scope_t scope, ompd_icv_id_t id, where_t *w) {
  if (!handle) return ompd_rc_stale_handle;
  if (id == ompd_icv_undefined || id >= ICV_COUNT_) return ompd_rc_bad_input;
  ompd_scope_t want = icvs[id].scope;
  memset(w, 0, sizeof *w);
  ompd_rc_t rc;
  if (want == ompd_scope_global || want == ompd_scope_address_space) {
    if (scope != ompd_scope_global && scope != ompd_scope_address_space) return ompd_rc_bad_input;
    ompd_address_space_handle_t *as = handle;
    if (!tompd_as_ok(as)) return ompd_rc_stale_handle;
    w->as = as;
    w->icv = as->L.global + as->L.global_icv;
    return ompd_rc_ok;
  }
  if (want == ompd_scope_parallel) {
    ompd_parallel_handle_t *ph = handle;
    if (scope != ompd_scope_parallel) return ompd_rc_bad_input;
    if (!tompd_parallel_ok(ph)) return ompd_rc_stale_handle;
    if ((rc = tompd_parallel_check(ph)) != ompd_rc_ok) return rc;
    w->as = ph->as;
    w->par = ph;
    return ompd_rc_ok;
  }
  /* task scope: a task handle; implicit_task scope: the handle of an implicit task */
  ompd_task_handle_t *th = handle;
  if (scope != ompd_scope_task && scope != ompd_scope_implicit_task) return ompd_rc_bad_input;
  if (!tompd_task_ok(th)) return ompd_rc_stale_handle;
  if (scope == ompd_scope_implicit_task &&
      !(th->flags & (TOMP_OMPD_TASK_IMPLICIT | TOMP_OMPD_TASK_INITIAL)))
    return ompd_rc_bad_input;
  if ((rc = tompd_task_check(th)) != ompd_rc_ok) return rc;
  w->as = th->as;
  w->task = th->addr;
  w->icv = th->addr + th->as->L.task_icv;
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_get_icv_from_scope(void *handle, ompd_scope_t scope,
                                               ompd_icv_id_t icv_id, ompd_word_t *icv_value) {
  where_t w;
  ompd_rc_t rc = where(handle, scope, icv_id, &w);
  if (rc != ompd_rc_ok) return rc;
  if (!icv_value) return ompd_rc_bad_input;
  int64_t v;
  if ((rc = icv_read(&w, icv_id, &v, NULL, 0)) != ompd_rc_ok) return rc;
  *icv_value = v;
  return ompd_rc_ok;
}

/* The string is the debugger's to free (free_memory). */
TOMPD_EXPORT ompd_rc_t ompd_get_icv_string_from_scope(void *handle, ompd_scope_t scope,
                                                      ompd_icv_id_t icv_id,
                                                      const char **icv_string) {
  where_t w;
  ompd_rc_t rc = where(handle, scope, icv_id, &w);
  if (rc != ompd_rc_ok) return rc;
  if (!icv_string) return ompd_rc_bad_input;
  char buf[TOMPD_MAX_STRING];
  int64_t v;
  rc = icv_read(&w, icv_id, &v, buf, sizeof buf);
  if (rc != ompd_rc_ok && !(rc == ompd_rc_incompatible && icv_id == ICV_AFFINITY_FORMAT)) return rc;
  return tompd_strdup(buf, icv_string);
}

/* ---- display control variables ------------------------------------------------------------ */

/* What OMP_DISPLAY_ENV would show: NAME='value' per variable, from the runtime's settings. */
static const struct {
  const char *env;
  int icv;
} display[] = {
    {"OMP_DYNAMIC", ICV_DYN},
    {"OMP_NUM_THREADS", ICV_NTHREADS},
    {"OMP_SCHEDULE", ICV_RUN_SCHED},
    {"OMP_PROC_BIND", ICV_BIND},
    {"OMP_THREAD_LIMIT", ICV_THREAD_LIMIT},
    {"OMP_MAX_ACTIVE_LEVELS", ICV_MAX_ACTIVE_LEVELS},
    {"OMP_CANCELLATION", ICV_CANCEL},
    {"OMP_DEFAULT_DEVICE", ICV_DEFAULT_DEVICE},
    {"OMP_MAX_TASK_PRIORITY", ICV_MAX_TASK_PRIORITY},
    {"OMP_DISPLAY_AFFINITY", ICV_DISPLAY_AFFINITY},
    {"OMP_AFFINITY_FORMAT", ICV_AFFINITY_FORMAT},
    {"OMP_STACKSIZE", ICV_STACKSIZE},
    {"OMP_WAIT_POLICY", ICV_WAIT_POLICY},
    {"OMP_TARGET_OFFLOAD", ICV_TARGET_OFFLOAD},
    {"OMP_NUM_TEAMS", ICV_NTEAMS},
    {"OMP_TEAMS_THREAD_LIMIT", ICV_TEAMS_THREAD_LIMIT},
    {"OMP_DEBUG", ICV_DEBUG},
};
#define NDISPLAY (sizeof display / sizeof display[0])

TOMPD_EXPORT ompd_rc_t ompd_get_display_control_vars(
    ompd_address_space_handle_t *address_space_handle, const char *const **control_vars) {
  if (!tompd_as_ok(address_space_handle)) return ompd_rc_stale_handle;
  if (!control_vars) return ompd_rc_bad_input;
  where_t w = {.as = address_space_handle,
               .icv = address_space_handle->L.global + address_space_handle->L.global_icv};
  const char **list;
  ompd_rc_t rc = tompd_alloc(sizeof(char *) * (NDISPLAY + 2), &list);
  if (rc != ompd_rc_ok) return rc;
  char val[512], line[600];
  int64_t v;
  size_t n = 0;
  snprintf(line, sizeof line, "_OPENMP='%u'", address_space_handle->L.openmp_version);
  rc = tompd_strdup(line, &list[n++]);
  /* runtime settings: the initial task's ICVs and the globals */
  for (size_t k = 0; k < NDISPLAY && rc == ompd_rc_ok; k++) {
    rc = icv_read(&w, (ompd_icv_id_t)display[k].icv, &v, val, sizeof val);
    if (rc == ompd_rc_incompatible) rc = ompd_rc_ok; /* a string ICV */
    if (rc != ompd_rc_ok) break;
    if (display[k].icv == ICV_DYN || display[k].icv == ICV_CANCEL ||
        display[k].icv == ICV_DISPLAY_AFFINITY)
      snprintf(val, sizeof val, "%s", v ? "TRUE" : "FALSE");
    snprintf(line, sizeof line, "%s='%s'", display[k].env, val);
    rc = tompd_strdup(line, &list[n++]);
  }
  if (rc != ompd_rc_ok) {
    ompd_rel_display_control_vars((const char *const **)&list);
    return rc;
  }
  *control_vars = list;
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_rel_display_control_vars(const char *const **control_vars) {
  if (!control_vars || !*control_vars) return ompd_rc_bad_input;
  const char *const *list = *control_vars;
  for (size_t k = 0; k < NDISPLAY + 2 && list[k]; k++)
    tompd_free((void *)list[k]);
  tompd_free((void *)list);
  *control_vars = NULL;
  return ompd_rc_ok;
}

/* ---- tool data ----------------------------------------------------------------------------- */

/* The OMPT tool data (ompt_data_t) of a thread, parallel region or task: its value and its
 * address in the target. */
TOMPD_EXPORT ompd_rc_t ompd_get_tool_data(void *handle, ompd_scope_t scope, ompd_word_t *value,
                                          ompd_address_t *ptr) {
  if (!handle) return ompd_rc_stale_handle;
  if (!value || !ptr) return ompd_rc_bad_input;
  ompd_address_space_handle_t *as;
  uint64_t addr;
  ompd_rc_t rc;
  switch (scope) {
  case ompd_scope_thread: {
    ompd_thread_handle_t *th = handle;
    if (!tompd_thread_ok(th)) return ompd_rc_stale_handle;
    if ((rc = tompd_thread_check(th)) != ompd_rc_ok) return rc;
    as = th->as;
    addr = th->addr + LAY(as).thread_thread_data;
    break;
  }
  case ompd_scope_parallel: {
    ompd_parallel_handle_t *ph = handle;
    if (!tompd_parallel_ok(ph)) return ompd_rc_stale_handle;
    if ((rc = tompd_parallel_check(ph)) != ompd_rc_ok) return rc;
    as = ph->as;
    addr = ph->team ? ph->team + LAY(as).team_parallel_data
                    : ph->thread + LAY(as).thread_implicit_parallel_data;
    break;
  }
  case ompd_scope_task:
  case ompd_scope_implicit_task: {
    ompd_task_handle_t *th = handle;
    if (!tompd_task_ok(th)) return ompd_rc_stale_handle;
    if ((rc = tompd_task_check(th)) != ompd_rc_ok) return rc;
    as = th->as;
    addr = th->addr + LAY(as).task_task_data;
    break;
  }
  default:
    return ompd_rc_bad_input; /* an address space has no tool data */
  }
  uint64_t v;
  if ((rc = tompd_u64(as, addr, &v)) != ompd_rc_ok) return rc;
  *value = (ompd_word_t)v;
  ptr->segment = ompd_segment_none;
  ptr->address = addr;
  return ompd_rc_ok;
}
