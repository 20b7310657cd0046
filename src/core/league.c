/* Leagues and host target regions (league.h). */
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "league.h"
#include "task.h"

#define NCACHE (sizeof(((tomp_thread_t *)0)->team_cache) / sizeof(tomp_team_t *))

/* rt's initial task, for a region of rt->size initial tasks in team (the league's encountering
 * team; NULL for a target region) with the ICVs icv. */
static void initial_task_init(tomp_region_task_t *rt, tomp_team_t *team, const tomp_icv_t *icv,
                              unsigned thread_limit) {
  tomp_task_t *initial = &rt->task;
  memset(initial, 0, sizeof *initial);
  initial->team = team;
  initial->icv = *icv;
  if (thread_limit) initial->icv.thread_limit = tomp_thread_limit_clamp(thread_limit);
  initial->flags = TOMP_TASK_INITIAL | TOMP_TASK_OWN_REGION;
  initial->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  initial->frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
}

/* An initial task ends when its tasks have.  Not a taskwait region of the program: called
 * only when there is something to wait for, and as an entry of its own (for the events). */
static __attribute__((noinline)) void initial_task_drain(tomp_thread_t *thr) {
  TOMP_ENTRY(thr);
  tomp_taskwait(thr);
}

/* Team k's initial task of the league rt that enc encountered. */
static void team_task_init(tomp_thread_t *thr, tomp_region_task_t *rt, tomp_task_t *enc, unsigned k,
                           unsigned thread_limit) {
  initial_task_init(rt, thr->team, &enc->icv, thread_limit);
  rt->task.icv.league_num = k;
  rt->task.icv.league_size = rt->size;
}

/* ---- leagues whose team bodies the runtime calls --------------------------------------- */

void tomp_league_run(tomp_thread_t *thr, void (*fn)(void *), void *data, unsigned num_teams,
                     unsigned thread_limit) {
  unsigned kmp_limit = (unsigned)tomp_g.kmp_teams_thread_limit;
  if (num_teams == 0) {
    num_teams = tomp_g.num_teams > 0 ? (unsigned)tomp_g.num_teams : 1;
    /* libomp's KMP_TEAMS_THREAD_LIMIT bounds the threads of all the league's teams: without a
     * num_teams clause nteams-var is an upper bound (OpenMP 5.1/5.2, teams construct), so it
     * may lower the number of teams; a clause's lower bound is a minimum, so its number
     * stands (libomp 14 caps it too). */
    if (kmp_limit && num_teams > kmp_limit) num_teams = kmp_limit;
  }
  if (thread_limit == 0 && tomp_g.teams_thread_limit > 0)
    thread_limit = (unsigned)tomp_g.teams_thread_limit;
  if (kmp_limit) { /* and each team's share of it (thread-limit-var may be lowered) */
    unsigned share = kmp_limit / num_teams ? kmp_limit / num_teams : 1;
    if (thread_limit == 0 || thread_limit > share) thread_limit = share;
  }

  tomp_task_t *enc = thr->task;
  /* each team's initial task carries the league's parallel_data (tools interface) */
  tomp_region_task_t rt = {.size = num_teams};
  tomp_task_t *initial = &rt.task;
  bool observed = tomp_listening();
  if (observed) tomp_ev_league_(thr, ompt_scope_begin, enc, &rt.parallel_data, num_teams);
  tomp_league_aff_t aff = {-1, NULL};
  for (unsigned k = 0; k < num_teams; k++) {
    tomp_affinity_league_team(thr, k, num_teams, &aff);
    team_task_init(thr, &rt, enc, k, thread_limit);
    tomp_task_enter(thr, initial, enc, NULL, TOMP_ENTER_BARE);
    if (observed) {
      tomp_ev_region_task_(ompt_scope_begin, &rt, k);
      tomp_ev_exit_frame(initial, __builtin_frame_address(0));
    }
    fn(data);
    if (initial->children) initial_task_drain(thr);
    if (observed) {
      initial->frame.exit_frame.ptr = NULL;
      tomp_ev_region_task_(ompt_scope_end, &rt, k);
    }
    tomp_task_leave(thr, initial, enc, TOMP_ENTER_BARE);
  }
  tomp_affinity_league_end(thr, &aff);
  if (observed) tomp_ev_league_(thr, ompt_scope_end, enc, &rt.parallel_data, num_teams);
}

/* ---- leagues whose team bodies the front-end runs -------------------------------------- */

/* Without a tool such a league is only the encountering task's ICVs (league_num counts the
 * teams).  Under a tool, a team's initial task takes the encountering task's place on the
 * thread (with its exit frame, the runtime frame that called the front-end's function) from
 * one call to the next; this record (thr->ev_league) stays with the thread once made (a
 * front-end's entry guard of the call that ends a league still writes to the last team's
 * task as it returns). */
typedef struct {
  tomp_region_task_t rt;
  tomp_task_t *enc; /* the encountering task (it keeps the league's number and size); NULL
                     * when no league is running */
} league_inline_t;

/* Advance the league kept in icv: false after the last team (the league is cleared). */
static bool league_icv_next(tomp_icv_t *icv) {
  if (icv->league_num + 1 >= icv->league_size) {
    icv->league_num = 0;
    icv->league_size = 0;
    return false;
  }
  icv->league_num++;
  return true;
}

static void league_icv_begin(tomp_icv_t *icv, unsigned nteams, unsigned thread_limit) {
  if (thread_limit) icv->thread_limit = tomp_thread_limit_clamp(thread_limit);
  icv->league_size = nteams;
  icv->league_num = 0;
}

/* The team now starting (league_num of the encountering task) gets its initial task. */
static void inline_team_begin(tomp_thread_t *thr, league_inline_t *l) {
  unsigned k = l->enc->icv.league_num;
  team_task_init(thr, &l->rt, l->enc, k, 0);
  l->rt.task.frame.exit_frame = l->enc->frame.exit_frame;
  tomp_task_enter(thr, &l->rt.task, l->enc, NULL, TOMP_ENTER_BARE);
  tomp_ev_region_task_(ompt_scope_begin, &l->rt, k);
}

static void inline_league_begin(tomp_thread_t *thr) {
  league_inline_t *l = thr->ev_league;
  if (!l) thr->ev_league = l = tomp_calloc(1, sizeof *l);
  l->enc = thr->task;
  l->rt.size = l->enc->icv.league_size;
  tomp_ev_league_(thr, ompt_scope_begin, l->enc, &l->rt.parallel_data, l->rt.size);
  inline_team_begin(thr, l);
}

/* Between two teams, or after the last one. */
static bool inline_team_next(tomp_thread_t *thr, league_inline_t *l) {
  tomp_task_t *initial = &l->rt.task;
  if (initial->children) initial_task_drain(thr);
  initial->frame.exit_frame.ptr = NULL;
  tomp_ev_region_task_(ompt_scope_end, &l->rt, initial->icv.league_num);
  tomp_task_leave(thr, initial, l->enc, TOMP_ENTER_BARE);
  if (!league_icv_next(&l->enc->icv)) {
    tomp_ev_league_(thr, ompt_scope_end, l->enc, &l->rt.parallel_data, l->rt.size);
    l->enc = NULL;
    return false;
  }
  inline_team_begin(thr, l);
  return true;
}

void tomp_league_inline_begin(tomp_thread_t *thr, unsigned nteams, unsigned thread_limit) {
  league_icv_begin(&thr->task->icv, nteams, thread_limit);
  if (tomp_listening()) inline_league_begin(thr);
}

bool tomp_league_inline_next(tomp_thread_t *thr) {
  league_inline_t *l = thr->ev_league;
  if (l && l->enc) return inline_team_next(thr, l);
  return league_icv_next(&thr->task->icv);
}

void tomp_league_inline_one(tomp_thread_t *thr, unsigned thread_limit) {
  league_icv_begin(&thr->task->icv, 1, thread_limit);
}

/* ---- host target regions ---------------------------------------------------------------- */

/* What a target region sets aside on the thread beside its position: the team and number,
 * and, inside a parallel region, the cached team structs of the levels in use, so that the
 * region's own parallel regions cannot reuse a live team (the teams those regions cache are
 * released at the end). */
typedef struct {
  tomp_thread_pos_t pos;
  tomp_team_t *team;
  unsigned tid;
  unsigned live;
  tomp_team_t *cache[NCACHE];
} target_saved_t;

static void target_enter(tomp_thread_t *thr, target_saved_t *s, tomp_task_t *initial) {
  s->team = thr->team;
  s->tid = thr->tid;
  s->live = s->team ? (s->team->level < NCACHE ? s->team->level : (unsigned)NCACHE) : 0;
  memcpy(s->cache, thr->team_cache, s->live * sizeof s->cache[0]);
  memset(thr->team_cache, 0, s->live * sizeof s->cache[0]);
  thr->team = NULL;
  thr->tid = 0;
  tomp_thread_pos_enter(thr, &s->pos, initial, 0, ompt_state_work_serial);
}

static void target_leave(tomp_thread_t *thr, const target_saved_t *s) {
  for (unsigned d = 0; d < s->live; d++) {
    if (thr->team_cache[d]) tomp_team_free(thr->team_cache[d]);
    thr->team_cache[d] = s->cache[d];
  }
  thr->team = s->team;
  thr->tid = s->tid;
  tomp_thread_pos_leave(thr, &s->pos);
}

/* OMPT: a target region on the host is a target begin/end pair (device_num 0, the initial
 * device) around the implicit-task begin/end of the region's initial task. */
void tomp_target_run(tomp_thread_t *thr, void (*fn)(void *), void *data, unsigned thread_limit,
                     int kind) {
  tomp_region_task_t rt = {.size = 1};
  tomp_task_t *initial = &rt.task;
  initial_task_init(&rt, NULL, &tomp_g.icv, thread_limit);

  tomp_task_t *enc = thr->task;
  bool observed = tomp_listening();
  tomp_ev_target_t r;
  if (observed) tomp_ev_target_(thr, kind, ompt_scope_begin, enc, &r);
  target_saved_t saved;
  target_enter(thr, &saved, initial);
  if (observed) {
    tomp_ev_region_task_(ompt_scope_begin, &rt, 1);
    tomp_ev_exit_frame(initial, __builtin_frame_address(0));
  }
  fn(data);
  if (initial->children) initial_task_drain(thr);
  if (observed) {
    initial->frame.exit_frame.ptr = NULL;
    tomp_ev_region_task_(ompt_scope_end, &rt, 1);
  }
  target_leave(thr, &saved);
  if (observed) tomp_ev_target_(thr, kind, ompt_scope_end, enc, &r);
}

void tomp_target_point(tomp_thread_t *thr, int kind) {
  if (tomp_likely(!tomp_listening())) return;
  tomp_ev_target_t r;
  tomp_ev_target_(thr, kind, ompt_scope_begin, thr->task, &r);
  tomp_ev_target_(thr, kind, ompt_scope_end, thr->task, &r);
}
