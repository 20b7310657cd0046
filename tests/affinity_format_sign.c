/* Affinity format: zero padding of a negative number goes after its sign (the ancestor
 * thread number at level 0 is -1), with and without the right-justify dot. */
#include <omp.h>
#include <string.h>
#include "check.h"

int main(void) {
  char buf[128];
  size_t n = omp_capture_affinity(buf, sizeof buf, "[%0.7a][%.5a][%0.7{ancestor_tnum}][%a]");
  CHECK(n == strlen(buf));
  CHECK(strcmp(buf, "[-000001][   -1][-000001][-1]") == 0);
  n = omp_capture_affinity(buf, sizeof buf, "[%0.4L][%0.3n]");
  CHECK(strcmp(buf, "[0000][000]") == 0);
  return 0;
}
