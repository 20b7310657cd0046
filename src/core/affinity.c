/* Places and thread binding.  Placeholder until the affinity module lands. */
#include "internal.h"

void tomp_affinity_init(void) {}
void tomp_bind_thread(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) {
  (void)thr;
  (void)team;
  (void)bind;
}
