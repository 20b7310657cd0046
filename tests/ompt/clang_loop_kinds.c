/* OMPT work types of clang code's loops where OpenMP leaves the schedule to the
 * implementation: tomp makes libomp's choices for clang code (docs/kmp-abi.md, "Schedules"),
 * and LLVM's OMPT tests (worksharing/for/auto, runtime, guided_serialized,
 * synchronization/ordered_dependences) and the tools tested against libomp see them:
 * schedule(auto) runs and reports as guided; schedule(runtime) with run-sched-var unset as
 * static (libomp's initial value); guided in a team of one as static; a doacross loop as the
 * schedule the compiler asked for (static), not the one-outer-iteration bookkeeping.  Failed
 * before (static, dynamic, guided and dynamic).
 *
 * ompt-compiler: clang
 * ompt-run: x2
 * ompt-count: work_begin type=loop_guided == 2
 * ompt-count: work_end type=loop_guided == 2
 * ompt-count: work_begin type=loop_static == 6
 * ompt-count: work_end type=loop_static == 6
 * ompt-count: work_begin type=loop_dynamic == 0
 */
#include <omp.h>

#include "../check.h"

int main(void) {
  int a[64] = {0}, b[4][4] = {{0}};
  omp_set_dynamic(0);
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(auto)
    for (int i = 0; i < 64; i++)
      a[i] += 1;
#pragma omp for schedule(runtime)
    for (int i = 0; i < 64; i++)
      a[i] += 2;
  }
#pragma omp parallel for num_threads(1) schedule(guided)
  for (int i = 0; i < 64; i++)
    a[i] += 4;
#pragma omp parallel for num_threads(1) schedule(auto)
  for (int i = 0; i < 64; i++)
    a[i] += 8;
#pragma omp parallel num_threads(2)
#pragma omp for ordered(2) schedule(static)
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      b[i][j] = (i ? b[i - 1][j] : 0) + (j ? b[i][j - 1] : 0) + 1;
#pragma omp ordered depend(source)
    }
  for (int i = 0; i < 64; i++)
    CHECK(a[i] == 15);
  CHECK(b[3][3] == 69);
  return 0;
}
