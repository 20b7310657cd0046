/* Environment variables.  Placeholder until the environment module lands. */
#include "internal.h"

void tomp_env_init(void) {
  tomp_g.icv.nthreads = tomp_num_procs;
  tomp_g.icv.thread_limit = ~0u >> 1;
  tomp_g.icv.max_active_levels = 1;
  tomp_g.icv.run_sched = TOMP_SCHED_DYNAMIC;
  tomp_g.icv.run_sched_chunk = 1;
  tomp_g.nthreads_list[0] = tomp_num_procs;
  tomp_g.nthreads_list_len = 1;
  tomp_g.wait_policy = -1;
}
