/* The clang-built half of the mixed-ABI scenario: a program (LLVM's ABI, __kmpc_*) calling a
 * gcc-built library's parallel regions (GCC's ABI) outside and inside its own regions.  One
 * runtime serves both: the library's regions see the ICVs the program set, nest inside the
 * program's regions at the right level, and give right answers. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "../../check.h"
#include "gcclib.h"

/* OpenMP runtimes mapped into the process (distinct files named like one) */
static int runtimes(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  CHECK(f);
  char line[4096], seen[8][1024];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    char *path = strchr(line, '/');
    if (!path || !(strstr(path, "libgomp") || strstr(path, "libomp.") || strstr(path, "libtomp")))
      continue;
    path[strcspn(path, "\n")] = 0;
    int known = 0;
    for (int i = 0; i < n; i++)
      known |= strcmp(seen[i], path) == 0;
    if (!known && n < 8) snprintf(seen[n++], sizeof seen[0], "%s", path);
  }
  fclose(f);
  for (int i = 0; i < n; i++)
    printf("runtime: %s\n", seen[i]);
  return n;
}

int main(void) {
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  omp_set_num_threads(3); /* the library's regions must see it: one set of ICVs */

  CHECK(gcc_sum(1000) == 500500);
  gcc_seen_t s;
  gcc_region(&s);
  CHECKF(s.outer_level == 0 && s.level == 1 && s.team == 3 && s.threads == 3,
         "outside: level %d team %d threads %d", s.level, s.team, s.threads);

  /* inside a clang region: the gcc regions nest (level 2, active level 2) */
  gcc_seen_t in[2];
  long sums[2];
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    omp_set_num_threads(2); /* this implicit task's nthreads-var, read by the nested region */
    sums[t] = gcc_sum(200);
    gcc_region(&in[t]);
  }
  for (int t = 0; t < 2; t++) {
    CHECK(sums[t] == 20100);
    CHECKF(in[t].outer_level == 1 && in[t].outer_team == 2, "thread %d: outer level %d team %d", t,
           in[t].outer_level, in[t].outer_team);
    CHECKF(in[t].level == 2 && in[t].active_level == 2 && in[t].team == 2 &&
               in[t].parent_team == 2 && in[t].threads == 2,
           "thread %d: level %d active %d team %d parent team %d threads %d", t, in[t].level,
           in[t].active_level, in[t].team, in[t].parent_team, in[t].threads);
  }

  /* a gcc named critical called from clang threads still excludes */
  long x = 0;
#pragma omp parallel num_threads(4)
  gcc_critical_add(&x, 1000);
  CHECK(x == 4000);
  CHECK(runtimes() == 1);
  puts("ok");
  return 0;
}
