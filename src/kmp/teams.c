/* The teams construct of LLVM's ABI on core's leagues (src/core/league.h, where the
 * behaviour is described): __kmpc_push_num_teams records the clauses for the calling
 * thread's next __kmpc_fork_teams, which runs the outlined teams body once per team, as
 * the initial thread of that team, with the shared-variable pointers it received. */
#include <stdarg.h>
#include <stddef.h>

#include "ktask.h"
#include "league.h"
#include "runner.h"

/* num_teams and thread_limit pushed for the next teams construct (0: no clause) */
static __thread struct {
  unsigned nteams, limit;
} pushed __attribute__((tls_model("initial-exec")));

TOMP_EXPORT void __kmpc_push_num_teams(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams,
                                       kmp_int32 num_threads) {
  tomp_thread();
  pushed.nteams = num_teams > 0 ? (unsigned)num_teams : 0;
  pushed.limit = num_threads > 0 ? (unsigned)num_threads : 0;
}

/* num_teams(lower : upper) (OpenMP 5.1): tomp forms the lower bound's number of teams, as
 * for gcc's programs (any number in the range conforms) */
TOMP_EXPORT void __kmpc_push_num_teams_51(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams_lb,
                                          kmp_int32 num_teams_ub, kmp_int32 num_threads) {
  __kmpc_push_num_teams(loc, gtid, num_teams_lb > 0 ? num_teams_lb : num_teams_ub, num_threads);
}

typedef struct kteams {
  kmpc_micro fn;
  int argc;
  void **argv;
} kteams_t;

static void team_body(void *data) {
  const kteams_t *r = data;
  tomp_thread_t *thr = tomp_self;
  kmp_int32 gtid = (kmp_int32)thr->gtid, btid = 0;
  tomp_kmp_invoke(r->fn, &gtid, &btid, r->argc, r->argv, tomp_kmp_exit_slot(thr));
}
TOMP_RUNNER(team_body, offsetof(kteams_t, fn));

TOMP_EXPORT void __kmpc_fork_teams(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_unlikely(argc < 0)) {
    tomp_warn("__kmpc_fork_teams: negative argument count %d, none passed", (int)argc);
    argc = 0;
  }
  void *argv[argc < TOMP_KMP_ARGV_MIN ? TOMP_KMP_ARGV_MIN : argc];
  va_list ap;
  va_start(ap, microtask);
  for (int i = 0; i < TOMP_KMP_ARGV_MIN || i < argc; i++)
    argv[i] = i < argc ? va_arg(ap, void *) : NULL;
  va_end(ap);
  kteams_t r = {microtask, argc, argv};
  unsigned n = pushed.nteams, limit = pushed.limit;
  pushed.nteams = pushed.limit = 0;
  tomp_league_run(thr, team_body, &r, n, tomp_thread_limit_clamp(limit));
}
