/* Affinity format: omp_set/get_affinity_format, omp_capture_affinity with every field (the
 * team fields also in a host teams region), long names, widths and justification, truncation
 * and the returned length.
 * test-libomp-fails: libomp 14 forms no more teams than processors (2 here), fewer than num_teams(3)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(void) {
  char buf[512], exp[512];
  size_t n = omp_get_affinity_format(buf, sizeof buf);
  CHECK(n == strlen(buf) && n > 0);
  /* truncation: the full length is returned, the buffer holds a terminated prefix */
  CHECK(omp_get_affinity_format(buf, 4) == n && strlen(buf) == 3);

  omp_set_affinity_format("L=%L n=%n N=%N a=%a");
  CHECK(omp_get_affinity_format(buf, sizeof buf) == strlen("L=%L n=%n N=%N a=%a"));
  CHECK(!strcmp(buf, "L=%L n=%n N=%N a=%a"));
  n = omp_capture_affinity(buf, sizeof buf, NULL);
  CHECK(!strcmp(buf, "L=0 n=0 N=1 a=-1") && n == strlen(buf));

  char got[4][128];
#pragma omp parallel num_threads(3)
  omp_capture_affinity(got[omp_get_thread_num()], 128, "");
  for (int t = 0; t < 3; t++) {
    snprintf(exp, sizeof exp, "L=1 n=%d N=3 a=0", t);
    CHECK(!strcmp(got[t], exp));
  }

  /* long names, widths: left-justified by default, '.' right-justifies, '0' zero-fills */
  n = omp_capture_affinity(buf, sizeof buf, "[%{nesting_level}|%5n|%.5n|%0.5N|%%|%{num_threads}]");
  CHECK(!strcmp(buf, "[0|0    |    0|00001|%|1]"));
  snprintf(exp, sizeof exp, "%d", (int)getpid());
  omp_capture_affinity(buf, sizeof buf, "%P");
  CHECK(!strcmp(buf, exp));
  omp_capture_affinity(buf, sizeof buf, "%{process_id}");
  CHECK(!strcmp(buf, exp));
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  omp_capture_affinity(buf, sizeof buf, "%H");
  CHECK(!strcmp(buf, host));
  /* %A: a CPU list, %i: a number; both non-empty */
  omp_capture_affinity(buf, sizeof buf, "%A");
  CHECK(buf[0] >= '0' && buf[0] <= '9');
  CHECK(omp_capture_affinity(buf, sizeof buf, "%i") > 0);
  CHECK(omp_capture_affinity(buf, sizeof buf, "%t %T") == 3 && !strcmp(buf, "0 1"));
  /* %t %T in a host teams region, on the threads of a parallel region in each team (gcc
   * allows no other routine than omp_get_team_num and friends right inside teams) */
  int teams_bad = 0;
#pragma omp teams num_teams(3)
#pragma omp parallel num_threads(2)
  {
    char tb[32], te[32];
    snprintf(te, sizeof te, "%d %d", omp_get_team_num(), omp_get_num_teams());
    omp_capture_affinity(tb, sizeof tb, "%t %{num_teams}");
    if (strcmp(tb, te) || omp_get_num_teams() != 3)
      __atomic_add_fetch(&teams_bad, 1, __ATOMIC_RELAXED);
  }
  CHECK(teams_bad == 0);

  /* truncated capture */
  n = omp_capture_affinity(buf, 5, "abcdefgh");
  CHECK(n == 8 && !strcmp(buf, "abcd"));
  CHECK(omp_capture_affinity(NULL, 0, "xyz") == 3);
  printf("affinity_format ok\n");
  return 0;
}
