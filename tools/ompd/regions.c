/* Parallel regions and tasks: handles, their relations, task functions and frames.
 *
 * A region is a team; an initial thread outside any team is in its implicit parallel region
 * (a handle with team 0 and the thread's descriptor), whose only task is the thread's
 * initial task.  A handle remembers what identified its region or task when it was made
 * (the region's number, set while OMPD listens, its level and parent; a task's parent and
 * flags) and is stale once the target's memory says otherwise. */
#include "tompd.h"

#define LAY(as) ((as)->L)

bool tompd_parallel_ok(const ompd_parallel_handle_t *ph) {
  return ph && ph->magic == TOMPD_PA_MAGIC && tompd_as_ok(ph->as);
}
bool tompd_task_ok(const ompd_task_handle_t *th) {
  return th && th->magic == TOMPD_TA_MAGIC && tompd_as_ok(th->as);
}

/* ---- making handles ------------------------------------------------------------------------ */

/* What identifies a team's current region: its number, level and parent. */
static ompd_rc_t team_identity(ompd_address_space_handle_t *as, uint64_t team, uint64_t *id,
                               uint64_t *parent, uint32_t *level) {
  ompd_rc_t rc = tompd_u64(as, team + LAY(as).team_ompd_id, id);
  if (rc == ompd_rc_ok) rc = tompd_u64(as, team + LAY(as).team_parent, parent);
  if (rc == ompd_rc_ok) rc = tompd_u32(as, team + LAY(as).team_level, level);
  return rc;
}

static ompd_rc_t parallel_make(ompd_address_space_handle_t *as, uint64_t team, uint64_t thread,
                               ompd_parallel_handle_t **out) {
  ompd_parallel_handle_t *ph;
  ompd_rc_t rc;
  uint64_t id = 0, parent = 0;
  uint32_t level = 0;
  if (team && (rc = team_identity(as, team, &id, &parent, &level)) != ompd_rc_ok) return rc;
  if ((rc = tompd_alloc(sizeof *ph, &ph)) != ompd_rc_ok) return rc;
  ph->magic = TOMPD_PA_MAGIC;
  ph->as = as;
  ph->team = team;
  ph->thread = team ? 0 : thread;
  ph->id = id;
  ph->parent = parent;
  ph->level = level;
  *out = ph;
  return ompd_rc_ok;
}

static ompd_rc_t task_make(ompd_address_space_handle_t *as, uint64_t task,
                           ompd_task_handle_t **out) {
  uint64_t parent;
  uint32_t flags;
  ompd_rc_t rc = tompd_u64(as, task + LAY(as).task_parent, &parent);
  if (rc == ompd_rc_ok) rc = tompd_u32(as, task + LAY(as).task_flags, &flags);
  if (rc != ompd_rc_ok) return rc;
  ompd_task_handle_t *th;
  if ((rc = tompd_alloc(sizeof *th, &th)) != ompd_rc_ok) return rc;
  th->magic = TOMPD_TA_MAGIC;
  th->as = as;
  th->addr = task;
  th->parent = parent;
  th->flags = flags;
  *out = th;
  return ompd_rc_ok;
}

/* Whether team's region is still on: its primary thread is in it, or in a region nested in
 * it, or in its ompd_bp_parallel_begin/end (a finished region's team struct stays as it was
 * until it is reused). */
static ompd_rc_t team_active(ompd_address_space_handle_t *as, uint64_t team, uint32_t level) {
  uint64_t threads, master, t;
  ompd_rc_t rc;
  if ((rc = tompd_u64(as, team + LAY(as).team_threads, &threads)) != ompd_rc_ok ||
      (rc = tompd_u64(as, threads, &master)) != ompd_rc_ok ||
      (rc = tompd_u64(as, master + LAY(as).thread_ompd_bp_team, &t)) != ompd_rc_ok)
    return rc;
  if (t == team) return ompd_rc_ok;
  if ((rc = tompd_u64(as, master + LAY(as).thread_team, &t)) != ompd_rc_ok) return rc;
  for (unsigned steps = 0; t && steps < 256; steps++) {
    uint32_t l;
    if (t == team) return ompd_rc_ok;
    if ((rc = tompd_u32(as, t + LAY(as).team_level, &l)) != ompd_rc_ok) return rc;
    if (l <= level) break;
    if ((rc = tompd_u64(as, t + LAY(as).team_parent, &t)) != ompd_rc_ok) return rc;
  }
  return ompd_rc_stale_handle;
}

ompd_rc_t tompd_parallel_check(ompd_parallel_handle_t *ph) {
  if (!ph->team) return ompd_rc_ok; /* an initial thread's region lasts as long as it */
  uint64_t id, parent;
  uint32_t level;
  ompd_rc_t rc = team_identity(ph->as, ph->team, &id, &parent, &level);
  if (rc != ompd_rc_ok) return rc;
  if (id != ph->id || parent != ph->parent || level != ph->level) return ompd_rc_stale_handle;
  return team_active(ph->as, ph->team, level);
}

/* A task is gone when what identified it changed, when (explicit) its body has returned
 * (every path but the tiny task's sets the exit frame while the body runs, suspended or
 * not), or when (implicit) its region has ended. */
ompd_rc_t tompd_task_check(ompd_task_handle_t *th) {
  ompd_address_space_handle_t *as = th->as;
  uint64_t parent, team, exit_frame;
  uint32_t flags, level;
  ompd_rc_t rc = tompd_u64(as, th->addr + LAY(as).task_parent, &parent);
  if (rc == ompd_rc_ok) rc = tompd_u32(as, th->addr + LAY(as).task_flags, &flags);
  if (rc != ompd_rc_ok) return rc;
  if (parent != th->parent || flags != th->flags) return ompd_rc_stale_handle;
  /* the task of a thread's ompd_bp_task_begin/end, while the thread is in it (its body may
   * not have begun, or have returned already) */
  if (th->bp_thread) {
    uint64_t bp;
    if ((rc = tompd_u64(as, th->bp_thread + LAY(as).thread_ompd_bp_task, &bp)) != ompd_rc_ok)
      return rc;
    if (bp == th->addr) return ompd_rc_ok;
  }
  if ((flags & TOMP_OMPD_TASK_EXPLICIT) && !(flags & TOMP_OMPD_TASK_TINY)) {
    if ((rc = tompd_u64(as, th->addr + LAY(as).task_frame, &exit_frame)) != ompd_rc_ok) return rc;
    return exit_frame ? ompd_rc_ok : ompd_rc_stale_handle;
  }
  if (flags & TOMP_OMPD_TASK_IMPLICIT) {
    if ((rc = tompd_u64(as, th->addr + LAY(as).task_team, &team)) != ompd_rc_ok ||
        (rc = tompd_u32(as, team + LAY(as).team_level, &level)) != ompd_rc_ok)
      return rc;
    return team_active(as, team, level);
  }
  return ompd_rc_ok;
}

ompd_rc_t tompd_parallel_size(ompd_parallel_handle_t *ph, uint32_t *n) {
  if (!ph->team) {
    *n = 1;
    return ompd_rc_ok;
  }
  ompd_rc_t rc = tompd_u32(ph->as, ph->team + LAY(ph->as).team_nthreads, n);
  if (rc == ompd_rc_ok && (*n == 0 || *n > TOMPD_MAX_TEAM)) return ompd_rc_error;
  return rc;
}

/* The thread whose initial task is at task (an initial task is embedded in its thread). */
static uint64_t initial_thread_of(ompd_address_space_handle_t *as, uint64_t task) {
  return task - LAY(as).thread_initial_task;
}

/* ---- parallel handles ---------------------------------------------------------------------- */

TOMPD_EXPORT ompd_rc_t ompd_get_curr_parallel_handle(ompd_thread_handle_t *thread_handle,
                                                     ompd_parallel_handle_t **parallel_handle) {
  if (!tompd_thread_ok(thread_handle)) return ompd_rc_stale_handle;
  if (!parallel_handle) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_thread_check(thread_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = thread_handle->as;
  uint64_t thr = thread_handle->addr, team, task;
  /* in ompd_bp_parallel_begin/end: the region beginning or ending */
  if ((rc = tompd_u64(as, thr + LAY(as).thread_ompd_bp_team, &team)) != ompd_rc_ok) return rc;
  if (team) return parallel_make(as, team, 0, parallel_handle);
  if ((rc = tompd_u64(as, thr + LAY(as).thread_team, &team)) != ompd_rc_ok ||
      (rc = tompd_u64(as, thr + LAY(as).thread_task, &task)) != ompd_rc_ok)
    return rc;
  if (team) return parallel_make(as, team, 0, parallel_handle);
  if (task == thr + LAY(as).thread_initial_task) return parallel_make(as, 0, thr, parallel_handle);
  return ompd_rc_unavailable; /* an idle worker, in no region */
}

TOMPD_EXPORT ompd_rc_t ompd_get_enclosing_parallel_handle(
    ompd_parallel_handle_t *parallel_handle, ompd_parallel_handle_t **enclosing_parallel_handle) {
  if (!tompd_parallel_ok(parallel_handle)) return ompd_rc_stale_handle;
  if (!enclosing_parallel_handle) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_parallel_check(parallel_handle);
  if (rc != ompd_rc_ok) return rc;
  if (!parallel_handle->team) return ompd_rc_unavailable; /* outermost */
  ompd_address_space_handle_t *as = parallel_handle->as;
  uint64_t team = parallel_handle->team, master;
  if (parallel_handle->parent)
    return parallel_make(as, parallel_handle->parent, 0, enclosing_parallel_handle);
  /* forked from an initial task: its thread, the team's thread 0, is in its implicit region */
  uint64_t threads, task;
  if ((rc = tompd_u64(as, team + LAY(as).team_threads, &threads)) != ompd_rc_ok ||
      (rc = tompd_u64(as, threads, &master)) != ompd_rc_ok)
    return rc;
  /* a league's or target region's initial task has no thread of its own */
  if ((rc = tompd_u64(as, team + LAY(as).team_implicit, &task)) != ompd_rc_ok ||
      (rc = tompd_u64(as, task + LAY(as).task_parent, &task)) != ompd_rc_ok)
    return rc;
  if (task != master + LAY(as).thread_initial_task) return ompd_rc_unavailable;
  return parallel_make(as, 0, master, enclosing_parallel_handle);
}

TOMPD_EXPORT ompd_rc_t ompd_get_task_parallel_handle(
    ompd_task_handle_t *task_handle, ompd_parallel_handle_t **task_parallel_handle) {
  if (!tompd_task_ok(task_handle)) return ompd_rc_stale_handle;
  if (!task_parallel_handle) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_task_check(task_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = task_handle->as;
  uint64_t team;
  if ((rc = tompd_u64(as, task_handle->addr + LAY(as).task_team, &team)) != ompd_rc_ok) return rc;
  if (team) return parallel_make(as, team, 0, task_parallel_handle);
  if ((task_handle->flags & TOMP_OMPD_TASK_INITIAL) &&
      !(task_handle->flags & TOMP_OMPD_TASK_OWN_REGION))
    return parallel_make(as, 0, initial_thread_of(as, task_handle->addr), task_parallel_handle);
  return ompd_rc_unavailable;
}

TOMPD_EXPORT ompd_rc_t ompd_rel_parallel_handle(ompd_parallel_handle_t *parallel_handle) {
  if (!tompd_parallel_ok(parallel_handle)) return ompd_rc_stale_handle;
  parallel_handle->magic = 0;
  tompd_free(parallel_handle);
  return ompd_rc_ok;
}

static int cmp_u64(uint64_t a, uint64_t b) {
  return (a > b) - (a < b);
}

TOMPD_EXPORT ompd_rc_t ompd_parallel_handle_compare(ompd_parallel_handle_t *parallel_handle_1,
                                                    ompd_parallel_handle_t *parallel_handle_2,
                                                    int *cmp_value) {
  if (!tompd_parallel_ok(parallel_handle_1) || !tompd_parallel_ok(parallel_handle_2))
    return ompd_rc_stale_handle;
  if (!cmp_value) return ompd_rc_bad_input;
  /* implicit regions of initial threads first, by thread; then teams */
  const ompd_parallel_handle_t *a = parallel_handle_1, *b = parallel_handle_2;
  if (!a->team != !b->team)
    *cmp_value = a->team ? 1 : -1;
  else if (a->team)
    *cmp_value = a->team != b->team ? cmp_u64(a->team, b->team) : cmp_u64(a->id, b->id);
  else
    *cmp_value = cmp_u64(a->thread, b->thread);
  return ompd_rc_ok;
}

/* The checks both "member of a region" queries make: a live handle, somewhere to answer, and
 * thread_num one of the region's threads. */
static ompd_rc_t parallel_member(ompd_parallel_handle_t *ph, int thread_num, const void *out) {
  if (!tompd_parallel_ok(ph)) return ompd_rc_stale_handle;
  if (!out) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_parallel_check(ph);
  if (rc != ompd_rc_ok) return rc;
  uint32_t n;
  if ((rc = tompd_parallel_size(ph, &n)) != ompd_rc_ok) return rc;
  return thread_num < 0 || (uint32_t)thread_num >= n ? ompd_rc_bad_input : ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_get_thread_in_parallel(ompd_parallel_handle_t *parallel_handle,
                                                   int thread_num,
                                                   ompd_thread_handle_t **thread_handle) {
  ompd_rc_t rc = parallel_member(parallel_handle, thread_num, thread_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = parallel_handle->as;
  uint64_t thr = parallel_handle->thread, threads;
  if (parallel_handle->team) {
    if ((rc = tompd_u64(as, parallel_handle->team + LAY(as).team_threads, &threads)) !=
            ompd_rc_ok ||
        (rc = tompd_u64(as, threads + 8ull * (uint32_t)thread_num, &thr)) != ompd_rc_ok)
      return rc;
  }
  return tompd_thread_make(as, thr, thread_handle);
}

/* ---- task handles -------------------------------------------------------------------------- */

TOMPD_EXPORT ompd_rc_t ompd_get_curr_task_handle(ompd_thread_handle_t *thread_handle,
                                                 ompd_task_handle_t **task_handle) {
  if (!tompd_thread_ok(thread_handle)) return ompd_rc_stale_handle;
  if (!task_handle) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_thread_check(thread_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = thread_handle->as;
  uint64_t task;
  /* in ompd_bp_task_begin/end: the task beginning or ending */
  if ((rc = tompd_u64(as, thread_handle->addr + LAY(as).thread_ompd_bp_task, &task)) != ompd_rc_ok)
    return rc;
  uint64_t bp = task;
  if (!task && (rc = tompd_u64(as, thread_handle->addr + LAY(as).thread_task, &task)) != ompd_rc_ok)
    return rc;
  if (!task) return ompd_rc_unavailable; /* an idle worker */
  if ((rc = task_make(as, task, task_handle)) == ompd_rc_ok && bp)
    (*task_handle)->bp_thread = thread_handle->addr;
  return rc;
}

TOMPD_EXPORT ompd_rc_t ompd_get_generating_task_handle(
    ompd_task_handle_t *task_handle, ompd_task_handle_t **generating_task_handle) {
  if (!tompd_task_ok(task_handle)) return ompd_rc_stale_handle;
  if (!generating_task_handle) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_task_check(task_handle);
  if (rc != ompd_rc_ok) return rc;
  if (!task_handle->parent) return ompd_rc_unavailable; /* an initial task */
  return task_make(task_handle->as, task_handle->parent, generating_task_handle);
}

/* The task this one's thread suspended to run it: for a task a thread picked from a queue,
 * the one below it on that thread's stack; for a task run at once, its generating task. */
TOMPD_EXPORT ompd_rc_t ompd_get_scheduling_task_handle(
    ompd_task_handle_t *task_handle, ompd_task_handle_t **scheduling_task_handle) {
  if (!tompd_task_ok(task_handle)) return ompd_rc_stale_handle;
  if (!scheduling_task_handle) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_task_check(task_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = task_handle->as;
  if (!(task_handle->flags & TOMP_OMPD_TASK_EXPLICIT)) return ompd_rc_unavailable;
  uint64_t sched;
  if ((rc = tompd_u64(as, task_handle->addr + LAY(as).task_sched_parent, &sched)) != ompd_rc_ok)
    return rc;
  if (!sched) sched = task_handle->parent;
  if (!sched) return ompd_rc_unavailable;
  return task_make(as, sched, scheduling_task_handle);
}

TOMPD_EXPORT ompd_rc_t ompd_get_task_in_parallel(ompd_parallel_handle_t *parallel_handle,
                                                 int thread_num, ompd_task_handle_t **task_handle) {
  ompd_rc_t rc = parallel_member(parallel_handle, thread_num, task_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = parallel_handle->as;
  if (!parallel_handle->team)
    return task_make(as, parallel_handle->thread + LAY(as).thread_initial_task, task_handle);
  uint64_t implicit;
  if ((rc = tompd_u64(as, parallel_handle->team + LAY(as).team_implicit, &implicit)) != ompd_rc_ok)
    return rc;
  return task_make(as, implicit + (uint64_t)LAY(as).task_size * (uint32_t)thread_num, task_handle);
}

TOMPD_EXPORT ompd_rc_t ompd_rel_task_handle(ompd_task_handle_t *task_handle) {
  if (!tompd_task_ok(task_handle)) return ompd_rc_stale_handle;
  task_handle->magic = 0;
  tompd_free(task_handle);
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_task_handle_compare(ompd_task_handle_t *task_handle_1,
                                                ompd_task_handle_t *task_handle_2, int *cmp_value) {
  if (!tompd_task_ok(task_handle_1) || !tompd_task_ok(task_handle_2)) return ompd_rc_stale_handle;
  if (!cmp_value) return ompd_rc_bad_input;
  *cmp_value = cmp_u64(task_handle_1->addr, task_handle_2->addr);
  return ompd_rc_ok;
}

ompd_rc_t tompd_entry(ompd_address_space_handle_t *as, uint64_t fn, uint64_t data,
                      uint64_t *entry) {
  const tomp_ompd_layout_t *L = &as->L;
  *entry = fn;
  if (!fn || !L->runners) return ompd_rc_ok;
  for (uint64_t r = L->runners; r < L->runners_end; r += 16) {
    uint64_t rfn, off;
    ompd_rc_t rc;
    if ((rc = tompd_u64(as, r, &rfn)) != ompd_rc_ok ||
        (rc = tompd_u64(as, r + 8, &off)) != ompd_rc_ok)
      return rc;
    if (rfn != fn) continue;
    /* a runner: the compiler's function is in its argument (none there: corrupt) */
    if (off > 65536) return ompd_rc_error;
    if ((rc = tompd_u64(as, data + off, entry)) != ompd_rc_ok) return rc;
    return *entry ? ompd_rc_ok : ompd_rc_unavailable;
  }
  return ompd_rc_ok;
}

/* The outlined body the task runs: an explicit task's own function; an implicit task's is
 * its region's (a worker keeps it in its descriptor; the team has it while OMPD listens, and
 * a team with workers has it through any of them).  Where that is a front-end's runner, the
 * compiler's function it calls (tompd_entry). */
TOMPD_EXPORT ompd_rc_t ompd_get_task_function(ompd_task_handle_t *task_handle,
                                              ompd_address_t *entry_point) {
  if (!tompd_task_ok(task_handle)) return ompd_rc_stale_handle;
  if (!entry_point) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_task_check(task_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = task_handle->as;
  uint64_t t = task_handle->addr, fn = 0, data = 0;
  uint32_t f = task_handle->flags;
  if (f & TOMP_OMPD_TASK_EXPLICIT) {
    if (f & TOMP_OMPD_TASK_TINY) return ompd_rc_unavailable; /* its fn is not its own */
    if ((rc = tompd_u64(as, t + LAY(as).task_fn, &fn)) != ompd_rc_ok ||
        (rc = tompd_u64(as, t + LAY(as).task_data, &data)) != ompd_rc_ok)
      return rc;
  } else if (f & TOMP_OMPD_TASK_IMPLICIT) {
    uint64_t team, threads, thr;
    uint32_t num, n;
    int32_t debug = 0;
    if ((rc = tompd_u64(as, t + LAY(as).task_team, &team)) != ompd_rc_ok ||
        (rc = tompd_u32(as, t + LAY(as).task_thread_num, &num)) != ompd_rc_ok ||
        (rc = tompd_u32(as, team + LAY(as).team_nthreads, &n)) != ompd_rc_ok ||
        (rc = tompd_u64(as, team + LAY(as).team_threads, &threads)) != ompd_rc_ok ||
        (rc = tompd_i32(as, LAY(as).global + LAY(as).global_debug, &debug)) != ompd_rc_ok)
      return rc;
    if (n == 0 || n > TOMPD_MAX_TEAM || num >= n) return ompd_rc_error;
    bool v2 = LAY(as).runners != 0; /* fn_data offsets are there */
    if (num == 0 && debug) {
      rc = tompd_u64(as, team + LAY(as).team_fn, &fn);
      if (rc == ompd_rc_ok && v2) rc = tompd_u64(as, team + LAY(as).team_fn_data, &data);
    } else if (num > 0 || n > 1) {
      if ((rc = tompd_u64(as, threads + 8ull * (num ? num : 1), &thr)) == ompd_rc_ok)
        rc = tompd_u64(as, thr + LAY(as).thread_fn, &fn);
      if (rc == ompd_rc_ok && v2) rc = tompd_u64(as, thr + LAY(as).thread_fn_data, &data);
    }
    if (rc != ompd_rc_ok) return rc;
  }
  if (!fn) return ompd_rc_unavailable; /* an initial task, or a team of one without OMPD */
  if ((rc = tompd_entry(as, fn, data, &fn)) != ompd_rc_ok) return rc;
  entry_point->segment = ompd_segment_none;
  entry_point->address = fn;
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_get_task_frame(ompd_task_handle_t *task_handle,
                                           ompd_frame_info_t *exit_frame,
                                           ompd_frame_info_t *enter_frame) {
  if (!tompd_task_ok(task_handle)) return ompd_rc_stale_handle;
  if (!exit_frame || !enter_frame) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_task_check(task_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = task_handle->as;
  uint64_t fr = task_handle->addr + LAY(as).task_frame, exit_p, enter_p;
  int32_t exit_f, enter_f;
  /* ompt_frame_t: exit_frame, enter_frame, exit_frame_flags, enter_frame_flags */
  if ((rc = tompd_u64(as, fr, &exit_p)) != ompd_rc_ok ||
      (rc = tompd_u64(as, fr + 8, &enter_p)) != ompd_rc_ok ||
      (rc = tompd_i32(as, fr + 16, &exit_f)) != ompd_rc_ok ||
      (rc = tompd_i32(as, fr + 20, &enter_f)) != ompd_rc_ok)
    return rc;
  exit_frame->frame_address.segment = enter_frame->frame_address.segment = ompd_segment_none;
  exit_frame->frame_address.address = exit_p;
  exit_frame->frame_flag = exit_f;
  enter_frame->frame_address.address = enter_p;
  enter_frame->frame_flag = enter_f;
  return ompd_rc_ok;
}
