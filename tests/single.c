/* single: exactly one thread per encounter, over many encounters (with and without
 * nowait), in nested regions, and copyprivate broadcasting the executor's values to every
 * thread. */
#include <omp.h>

#include "check.h"

int main(void) {
  for (int t = 1; t <= 4; t++) {
    int count = 0, count_nw = 0;
    int bad = 0;
#pragma omp parallel num_threads(t)
    {
      for (int r = 0; r < 2000; r++) {
#pragma omp single
        count++;
#pragma omp single nowait
        __atomic_add_fetch(&count_nw, 1, __ATOMIC_RELAXED);
      }
      for (int r = 0; r < 500; r++) {
        int x = -1;
        double y = 0;
#pragma omp single copyprivate(x, y)
        {
          x = r * 3 + omp_get_thread_num() * 0;
          y = r * 0.5;
        }
        if (x != r * 3 || y != r * 0.5) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(count == 2000);
    CHECK(count_nw == 2000);
    CHECK(bad == 0);
  }
  /* nested regions: each inner team counts its own singles, and the outer team's count
   * survives them (a thread that enters an inner region between two outer singles) */
  omp_set_max_active_levels(2);
  int outer = 0, inner = 0;
#pragma omp parallel num_threads(2)
  for (int r = 0; r < 200; r++) {
#pragma omp single nowait
    __atomic_add_fetch(&outer, 1, __ATOMIC_RELAXED);
    if (r % 3 == omp_get_thread_num()) {
#pragma omp parallel num_threads(2)
      {
#pragma omp single
        __atomic_add_fetch(&inner, 1, __ATOMIC_RELAXED);
#pragma omp single nowait
        __atomic_add_fetch(&inner, 1, __ATOMIC_RELAXED);
      }
    }
#pragma omp single
    __atomic_add_fetch(&outer, 1, __ATOMIC_RELAXED);
  }
  CHECK(outer == 400);
  int entries = 0; /* inner regions opened: r % 3 == 0 (thread 0) or 1 (thread 1) */
  for (int r = 0; r < 200; r++) entries += (r % 3 == 0) + (r % 3 == 1);
  CHECK(inner == 2 * entries);
  /* orphaned single and copyprivate */
  int x = 0;
#pragma omp single copyprivate(x)
  x = 42;
  CHECK(x == 42);
  puts("ok");
  return 0;
}
