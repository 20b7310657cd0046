/* The sections entry points of newer LLVM runtimes, called as their compilers lower a sections
 * construct (clang lowers it to a static loop; other compilers of the ABI, and LLVM 18 on,
 * call these): __kmpc_sections_init, then __kmpc_next_section until it answers a number out
 * of [0, n), then __kmpc_end_sections and the barrier.  Each section runs exactly once per
 * construct: in a team of four, many constructs in a row (nowait: threads in different
 * constructs at once), a section holding a nested team's own sections construct, a team of
 * one, and outside any region.
 * test-no-libomp: libomp 14 has none of the three (LLVM 18 on: validated by hand on a libomp 19
 * built by tools/llvm-ompt-tests.sh) */
#include <omp.h>
#include <stdint.h>

#include "../check.h"

/* weak: the test links against libomp 14, which lacks them */
int32_t __kmpc_sections_init(void *loc, int32_t gtid) __attribute__((weak));
int32_t __kmpc_next_section(void *loc, int32_t gtid, int32_t n) __attribute__((weak));
void __kmpc_end_sections(void *loc, int32_t gtid) __attribute__((weak));
int32_t __kmpc_global_thread_num(void *loc);
void __kmpc_barrier(void *loc, int32_t gtid);

enum { T = 4, S = 7, ROUNDS = 200 };
static int runs[ROUNDS][S];
static int inner_runs[T][3];

/* One sections construct of n sections, each adding to count[section]; barrier unless nowait.
 * A team of one (active 0 from init) runs them all itself, as libomp asks compilers to. */
static void sections(int n, int *count, int nowait, void (*body)(int)) {
  int32_t gtid = __kmpc_global_thread_num(NULL);
  if (__kmpc_sections_init(NULL, gtid)) {
    for (int32_t s; (s = __kmpc_next_section(NULL, gtid, n)) >= 0 && s < n;) {
      __atomic_add_fetch(&count[s], 1, __ATOMIC_RELAXED);
      if (body) body(s);
    }
  } else {
    for (int s = 0; s < n; s++) {
      count[s]++;
      if (body) body(s);
    }
  }
  __kmpc_end_sections(NULL, gtid);
  if (!nowait) __kmpc_barrier(NULL, gtid);
}

/* section 1 of the outer construct opens a team of two with its own sections */
static void outer_body(int s) {
  if (s != 1) return;
  int *mine = inner_runs[omp_get_thread_num()];
#pragma omp parallel num_threads(2)
  sections(3, mine, 0, NULL);
}

int main(void) {
  CHECK(__kmpc_sections_init && __kmpc_next_section && __kmpc_end_sections);
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(T)
  for (int r = 0; r < ROUNDS; r++)
    sections(S, runs[r], r % 2, NULL);
  for (int r = 0; r < ROUNDS; r++)
    for (int s = 0; s < S; s++)
      CHECKF(runs[r][s] == 1, "round %d section %d ran %d times", r, s, runs[r][s]);

  int outer[S] = {0};
#pragma omp parallel num_threads(T)
  sections(S, outer, 0, outer_body);
  int inner_total[3] = {0};
  for (int t = 0; t < T; t++)
    for (int s = 0; s < 3; s++)
      inner_total[s] += inner_runs[t][s];
  for (int s = 0; s < S; s++)
    CHECKF(outer[s] == 1, "outer section %d ran %d times", s, outer[s]);
  for (int s = 0; s < 3; s++)
    CHECKF(inner_total[s] == 1, "inner section %d ran %d times", s, inner_total[s]);

  int one[S] = {0}, orphan[S] = {0};
#pragma omp parallel num_threads(1)
  sections(S, one, 0, NULL);
  sections(S, orphan, 0, NULL);
  for (int s = 0; s < S; s++)
    CHECKF(one[s] == 1 && orphan[s] == 1, "section %d: team of one %d, outside %d", s, one[s],
           orphan[s]);
  puts("ok");
  return 0;
}
