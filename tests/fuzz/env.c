/* Every environment variable tomp reads at start-up (src/core/env.c, env_kmp.c, alloc.c): the input is
 * a list of settings, each a byte choosing the variable and its value up to the next newline;
 * tomp_env_init then reads them all, as at start-up.  Properties: the ICVs stay in their
 * ranges whatever the values (a bad value gets a warning and the default). */
#include "fuzz.h"

#include "affinity.h"
#include "internal.h"

static const char *const vars[] = {
    "OMP_NUM_THREADS",       "OMP_SCHEDULE",     "OMP_PROC_BIND",          "OMP_PLACES",
    "GOMP_CPU_AFFINITY",     "OMP_STACKSIZE",    "GOMP_STACKSIZE",         "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",        "OMP_DYNAMIC",      "OMP_THREAD_LIMIT",       "OMP_NESTED",
    "OMP_MAX_ACTIVE_LEVELS", "OMP_CANCELLATION", "OMP_TARGET_OFFLOAD",     "OMP_DEFAULT_DEVICE",
    "OMP_MAX_TASK_PRIORITY", "OMP_NUM_TEAMS",    "OMP_TEAMS_THREAD_LIMIT", "OMP_DISPLAY_AFFINITY",
    "OMP_AFFINITY_FORMAT",   "OMP_DISPLAY_ENV",  "OMP_ALLOCATOR",          "OMP_TOOL",
    "KMP_AFFINITY",          "KMP_BLOCKTIME",    "KMP_LIBRARY",            "KMP_STACKSIZE",
    "KMP_WARNINGS",          "KMP_DISP_NUM_BUFFERS", "KMP_TEAMS_THREAD_LIMIT"};
enum { NVARS = sizeof vars / sizeof vars[0] };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (int i = 0; i < NVARS; i++)
    unsetenv(vars[i]);
  size_t i = 0;
  while (i < size) {
    const char *name = vars[data[i++] % NVARS];
    size_t j = i;
    while (j < size && data[j] != '\n')
      j++;
    char *v = fuzz_string(data + i, j - i, 4096);
    setenv(name, v, 1);
    free(v);
    i = j + 1;
  }
  free(tomp_g.affinity_format); /* env init starts from the default again */
  tomp_g.affinity_format = NULL;
  tomp_places_clear();
  tomp_env_init();
  FUZZ_ASSERT(tomp_g.icv.nthreads >= 1);
  FUZZ_ASSERT(tomp_g.nthreads_list_len >= 1);
  FUZZ_ASSERT(tomp_g.bind_list_len >= 1);
  FUZZ_ASSERT(tomp_g.icv.thread_limit >= 1);
  FUZZ_ASSERT(tomp_g.max_task_priority >= 0);
  FUZZ_ASSERT(tomp_g.affinity_format != NULL);
  FUZZ_ASSERT(tomp_affinity_format_valid(tomp_g.affinity_format));
  FUZZ_ASSERT(tomp_g.kmp_library >= 1 && tomp_g.kmp_library <= 3);
  FUZZ_ASSERT(tomp_g.kmp_blocktime >= 0);
  FUZZ_ASSERT(tomp_g.kmp_disp_num_buffers >= 1 && tomp_g.kmp_disp_num_buffers <= 4096);
  FUZZ_ASSERT(tomp_g.kmp_teams_thread_limit >= 0);
  return 0;
}
