/* kmp_set_defaults("OMP_TARGET_OFFLOAD=...") sets target-offload-var as the environment
 * variable would (any case; a value other than disabled or mandatory is default), as
 * __kmpc_get_target_offload (libomptarget's question) then answers: 0 disabled, 1 default,
 * 2 mandatory.  tomp ignored it before (LLVM's env/omp_target_offload.c failed). */
#include <omp.h>

#include "../check.h"

int __kmpc_get_target_offload(void);
void kmp_set_defaults(char const *str);

static int offload_after(const char *setting) {
  kmp_set_defaults(setting);
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1; /* the setting holds across regions */
  CHECK(n >= 1);
  return __kmpc_get_target_offload();
}

int main(void) {
  CHECK(offload_after("OMP_TARGET_OFFLOAD=disabled") == 0);
  CHECK(offload_after("OMP_TARGET_OFFLOAD=Mandatory") == 2);
  CHECK(offload_after("OMP_TARGET_OFFLOAD=DEFAULT") == 1);
  CHECK(offload_after("OMP_TARGET_OFFLOAD=dIsAbLeD") == 0);
  CHECK(offload_after("OMP_TARGET_OFFLOAD=mandatorynot") == 1);
  puts("ok");
  return 0;
}
