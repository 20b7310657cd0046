/* Explicit tasks.  Placeholder until the tasking module lands: tasks run undeferred. */
#include "internal.h"

bool tomp_task_run_one(tomp_thread_t *thr) {
  (void)thr;
  return false;
}
void tomp_team_tasks_init(tomp_team_t *team) { (void)team; }
void tomp_team_tasks_fini(tomp_team_t *team) { (void)team; }
