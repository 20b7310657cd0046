/* test-env: OMP_CANCELLATION=true
 *
 * `cancel for` in a static loop (gcc inlines it: no loop-end call reaches the runtime, only
 * the cancellable barrier after it) ends with that loop: the next loops' cancellation
 * points must not see it, in this region and in the next region of the same team. */
#include <omp.h>
#include "check.h"

static volatile int yes = 1, no = 0;

int main(void) {
  CHECK(omp_get_cancellation());
  int v = 0, w = 0;
  for (int round = 0; round < 2; round++) {
#pragma omp parallel num_threads(4) shared(v, w)
    {
#pragma omp for schedule(static)
      for (int i = 0; i < 400; i++) {
#pragma omp cancel for if (yes)
#pragma omp atomic
        w++;
      }
#pragma omp for schedule(static)
      for (int i = 0; i < 400; i++) {
#pragma omp cancel for if (no)
#pragma omp atomic
        v++;
      }
#pragma omp for schedule(static, 3)
      for (int i = 0; i < 400; i++) {
#pragma omp cancellation point for
#pragma omp atomic
        v += 2;
      }
    }
    CHECK(w == 0);
    CHECK(v == 1200 * (round + 1));
  }
  return 0;
}
