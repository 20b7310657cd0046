/* sections: each section runs exactly once per encounter, with 1..5 threads (more threads
 * than sections too), nowait, combined parallel sections, lastprivate, many encounters. */
#include <omp.h>
#include <string.h>

#include "check.h"

static int cnt[8];
#define S(k) __atomic_add_fetch(&cnt[k], 1, __ATOMIC_RELAXED)

int main(void) {
  for (int t = 1; t <= 5; t++) {
    memset(cnt, 0, sizeof cnt);
    int last = -1;
#pragma omp parallel num_threads(t)
    {
      for (int r = 0; r < 300; r++) {
#pragma omp sections
        {
#pragma omp section
          S(0);
#pragma omp section
          S(1);
#pragma omp section
          S(2);
        }
#pragma omp sections nowait
        {
#pragma omp section
          S(3);
#pragma omp section
          S(4);
        }
      }
#pragma omp barrier
#pragma omp sections lastprivate(last)
      {
#pragma omp section
        last = 1;
#pragma omp section
        last = 2;
      }
    }
    for (int k = 0; k < 5; k++) CHECK(cnt[k] == 300);
    CHECK(last == 2);
    memset(cnt, 0, sizeof cnt);
    for (int r = 0; r < 100; r++) {
#pragma omp parallel sections num_threads(t)
      {
#pragma omp section
        S(0);
#pragma omp section
        S(1);
#pragma omp section
        S(2);
#pragma omp section
        S(3);
      }
    }
    for (int k = 0; k < 4; k++) CHECK(cnt[k] == 100);
  }
  /* orphaned sections outside any parallel region */
  memset(cnt, 0, sizeof cnt);
#pragma omp sections
  {
#pragma omp section
    S(0);
#pragma omp section
    S(1);
  }
  CHECK(cnt[0] == 1 && cnt[1] == 1);
  puts("ok");
  return 0;
}
