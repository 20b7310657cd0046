/* The teams construct on the host.
 *
 * A league of teams is, conceptually, that many initial threads.  tomp runs a host league on
 * the encountering thread, one team after the other (libgomp does the same): every team gets
 * its own initial task whose ICVs carry its team number and the league size (league_num /
 * league_size in tomp_icv_t, so the implicit and explicit tasks of parallel regions inside the
 * team inherit them and omp_get_team_num answers right on every thread) and its thread limit.
 * Teams of a league may not synchronise with each other, so sequential execution is
 * conforming; running them concurrently would buy little on the host, where each team's
 * parallel regions already use the processors.
 *
 * Defaults: without num_teams the league has nteams-var teams (OMP_NUM_TEAMS /
 * omp_set_num_teams), else 1; without thread_limit each team's thread-limit-var is
 * teams-thread-limit-var (OMP_TEAMS_THREAD_LIMIT) if set, else it is inherited.
 *
 * Inside a target region gcc does not outline the teams body: the target function loops
 * `for (first = true; GOMP_teams4(lo, hi, limit, first); first = false) body;`, so GOMP_teams4
 * advances the team number of the (target region's) current task; it runs the lower bound of
 * the num_teams range, 1 without the clause, as libgomp's host fallback does.  With a tool
 * attached at the first call, the league is reported as GOMP_teams_reg reports one: each team
 * body runs in an initial task of its own (switched in and out across the GOMP_teams4 calls),
 * between the league's parallel_begin and parallel_end. */
#include <stdlib.h>
#include <string.h>

#include "gomp.h"
#include "omp.h"
#include "internal.h"

#pragma weak GOMP_taskwait

static unsigned clamp_limit(unsigned tl) { return tl > (~0u >> 1) ? (~0u >> 1) : tl; }

/* Team k's initial task of the league rt (rt->size teams) that enc encountered. */
static void team_task_init(tomp_thread_t *thr, tomp_region_task_t *rt, tomp_task_t *enc,
                           unsigned k) {
  tomp_task_t *initial = &rt->task;
  memset(initial, 0, sizeof *initial);
  initial->team = thr->team;
  initial->icv = enc->icv;
  initial->icv.league_num = k;
  initial->icv.league_size = rt->size;
  initial->flags = TOMP_TASK_INITIAL | TOMP_TASK_OWN_REGION;
  initial->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  initial->frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
}

TOMP_EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                                unsigned thread_limit, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)flags;
  if (num_teams == 0) num_teams = tomp_g.num_teams > 0 ? (unsigned)tomp_g.num_teams : 1;
  if (thread_limit == 0 && tomp_g.teams_thread_limit > 0)
    thread_limit = (unsigned)tomp_g.teams_thread_limit;

  tomp_task_t *enc = thr->task;
  /* each team's initial task carries the league's parallel_data (tools interface) */
  tomp_region_task_t rt = {.size = num_teams};
  tomp_task_t *initial = &rt.task;
  bool ompt = tomp_listening();
  if (ompt) tomp_ev_league_(thr, ompt_scope_begin, enc, &rt.parallel_data, num_teams);
  for (unsigned k = 0; k < num_teams; k++) {
    team_task_init(thr, &rt, enc, k);
    if (thread_limit) initial->icv.thread_limit = clamp_limit(thread_limit);
    thr->task = initial;
    if (ompt) {
      tomp_ev_region_task_(ompt_scope_begin, &rt, k);
      tomp_ev_exit_frame(initial, __builtin_frame_address(0));
    }
    fn(data);
    /* (not a taskwait region of the program: only when there is something to wait for) */
    if (GOMP_taskwait && initial->children) GOMP_taskwait(); /* the team's initial task ends with its tasks */
    if (ompt) {
      initial->frame.exit_frame.ptr = NULL;
      tomp_ev_region_task_(ompt_scope_end, &rt, k);
    }
    thr->task = enc;
  }
  if (ompt) tomp_ev_league_(thr, ompt_scope_end, enc, &rt.parallel_data, num_teams);
}

/* GOMP_teams4 under a tool.  The team bodies run in the target function itself, so a team's
 * initial task takes the encountering task's place on the thread (with its exit frame, the
 * runtime frame that called that function) from one GOMP_teams4 call to the next.  The
 * record stays with the thread once made (the entry guard of the call that ends a league
 * still writes to the last team's task as it returns). */
typedef struct {
  tomp_region_task_t rt;
  tomp_task_t *enc; /* the encountering task (it keeps the league's number and size); NULL
                     * when no league is running */
} league4_t;

/* Advance the league kept in icv: false after the last team (the league is cleared). */
static bool league_next(tomp_icv_t *icv) {
  if (icv->league_num + 1 >= icv->league_size) {
    icv->league_num = 0;
    icv->league_size = 0;
    return false;
  }
  icv->league_num++;
  return true;
}

/* The team now starting (league_num of the encountering task) gets its initial task. */
static void teams4_team_begin(tomp_thread_t *thr, league4_t *l) {
  unsigned k = l->enc->icv.league_num;
  team_task_init(thr, &l->rt, l->enc, k);
  l->rt.task.frame.exit_frame = l->enc->frame.exit_frame;
  thr->task = &l->rt.task;
  tomp_ev_region_task_(ompt_scope_begin, &l->rt, k);
}

static void teams4_league_begin(tomp_thread_t *thr) {
  league4_t *l = thr->ev_teams4;
  if (!l) thr->ev_teams4 = l = tomp_calloc(1, sizeof *l);
  l->enc = thr->task;
  l->rt.size = l->enc->icv.league_size;
  tomp_ev_league_(thr, ompt_scope_begin, l->enc, &l->rt.parallel_data, l->rt.size);
  teams4_team_begin(thr, l);
}

/* Between two teams, or after the last one. */
static bool teams4_next(tomp_thread_t *thr, league4_t *l) {
  tomp_task_t *initial = &l->rt.task;
  if (GOMP_taskwait && initial->children) GOMP_taskwait(); /* a team ends with its tasks */
  initial->frame.exit_frame.ptr = NULL;
  tomp_ev_region_task_(ompt_scope_end, &l->rt, initial->icv.league_num);
  thr->task = l->enc;
  if (!league_next(&l->enc->icv)) {
    tomp_ev_league_(thr, ompt_scope_end, l->enc, &l->rt.parallel_data, l->rt.size);
    l->enc = NULL;
    return false;
  }
  teams4_team_begin(thr, l);
  return true;
}

TOMP_EXPORT bool GOMP_teams4(unsigned num_teams_lower, unsigned num_teams_upper,
                             unsigned thread_limit, bool first) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (first) {
    tomp_icv_t *icv = &thr->task->icv;
    unsigned n = num_teams_lower ? num_teams_lower : num_teams_upper ? num_teams_upper : 1;
    if (thread_limit) icv->thread_limit = clamp_limit(thread_limit);
    icv->league_size = n;
    icv->league_num = 0;
    if (tomp_listening()) teams4_league_begin(thr);
    return true;
  }
  league4_t *l = thr->ev_teams4;
  if (l && l->enc) return teams4_next(thr, l);
  return league_next(&thr->task->icv);
}

/* GCC 4.x: called once at the top of a target region's teams body; one team on the host. */
TOMP_EXPORT void GOMP_teams(unsigned num_teams, unsigned thread_limit) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)num_teams;
  tomp_icv_t *icv = &thr->task->icv;
  if (thread_limit) icv->thread_limit = clamp_limit(thread_limit);
  icv->league_size = 1;
  icv->league_num = 0;
}
