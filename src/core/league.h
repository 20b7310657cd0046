/* Leagues (host teams regions) and host target regions: initial tasks that run on the
 * encountering thread.  ABI-neutral: a front-end translates its calls (GCC's GOMP_teams_reg,
 * GOMP_teams4, GOMP_target_ext; LLVM's __kmpc_fork_teams with __kmpc_push_num_teams, and
 * __tgt_target's host fallback) into these, with its own argument formats (map kinds, launch
 * arguments, outlined-function signatures) left in the front-end.
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
 * tomp offers no offload devices, so a target region runs on the encountering thread as the
 * initial task of a new initial thread would: inside it omp_get_level() is 0,
 * omp_get_thread_num() 0, the ICVs are the device's initial ones (tomp_g.icv) and
 * thread-limit-var comes from the construct.  The thread's position (tomp_thread_pos_t, as
 * fork/join keeps it) and its team are saved and restored around the region. */
#ifndef TOMP_LEAGUE_H
#define TOMP_LEAGUE_H

#include "internal.h"

/* A league whose team bodies the runtime calls: fn(data) once per team.  num_teams 0: the
 * league has nteams-var teams (OMP_NUM_TEAMS / omp_set_num_teams), else 1; thread_limit 0:
 * each team's thread-limit-var is teams-thread-limit-var (OMP_TEAMS_THREAD_LIMIT) if set,
 * else inherited.  Each team's initial task ends when its tasks have. */
void tomp_league_run(tomp_thread_t *thr, void (*fn)(void *), void *data, unsigned num_teams,
                     unsigned thread_limit) TOMP_HIDDEN;

/* A league whose team bodies the front-end runs itself, in the current task (gcc does not
 * outline the teams body of a target region: it loops over GOMP_teams4):
 *   tomp_league_inline_begin(thr, n, tl);
 *   do body; while (tomp_league_inline_next(thr));
 * begin starts team 0 of nteams (>= 1); next ends the current team and starts the next one,
 * false after the last (the league is over).  thread_limit 0: inherited.  With a tool
 * attached at begin, every team body runs in an initial task of its own, reported as
 * tomp_league_run's are. */
void tomp_league_inline_begin(tomp_thread_t *thr, unsigned nteams,
                              unsigned thread_limit) TOMP_HIDDEN;
bool tomp_league_inline_next(tomp_thread_t *thr) TOMP_HIDDEN;
/* The one-team form nobody ends (GCC 4.x's GOMP_teams): the current task becomes team 0 of
 * a league of 1, nothing is reported. */
void tomp_league_inline_one(tomp_thread_t *thr, unsigned thread_limit) TOMP_HIDDEN;

/* A target region on the host: fn(data) in a new initial task (thread_limit 0: none), kind
 * its ompt_target_t (ompt_target or ompt_target_nowait; the region is undeferred either way,
 * so it is complete when this returns).  The caller has handled the device argument, the
 * region's dependences and its data (firstprivate copies). */
void tomp_target_run(tomp_thread_t *thr, void (*fn)(void *), void *data, unsigned thread_limit,
                     int kind) TOMP_HIDDEN;
/* A target data construct or standalone directive (kind: ompt_target_enter_data, ...): host
 * and "device" share memory, so it is an event pair with nothing between. */
void tomp_target_point(tomp_thread_t *thr, int kind) TOMP_HIDDEN;

/* A thread_limit clause's value as thread-limit-var holds it. */
static inline unsigned tomp_thread_limit_clamp(unsigned tl) {
  return tl > (~0u >> 1) ? (~0u >> 1) : tl;
}

#endif
