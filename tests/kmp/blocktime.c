/* kmp_get_blocktime before any kmp_set_blocktime follows OMP_WAIT_POLICY as libomp's does:
 * passive means sleeping at once (0), active spinning for ever (INT_MAX).
 * test-env: OMP_WAIT_POLICY=passive */
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

int main(void) {
  CHECK(kmp_get_blocktime() == 0);
  return 0;
}
