/* taskgroup: the end waits for all descendants created in the group (children and
 * grandchildren, including grandchildren whose parent finished long before), but not for
 * sibling tasks created before the group; nested taskgroups; orphaned taskgroups. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static void busy(int n) {
  volatile int s = 0;
  for (int i = 0; i < n; i++) s += i;
}

static int count;

static void spawn(int depth) {
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  if (depth == 0) return;
  for (int i = 0; i < 3; i++) {
#pragma omp task firstprivate(depth)
    {
      busy(200);
      spawn(depth - 1);
    }
  }
}

int main(void) {
  for (int nt = 1; nt <= 4; nt *= 2) {
#pragma omp parallel num_threads(nt)
    {
#pragma omp masked
      {
        for (int rep = 0; rep < 10; rep++) {
          count = 0;
#pragma omp taskgroup
          spawn(5); /* 1 + 3 + ... + 3^5 = 364 tasks and no taskwait anywhere */
          CHECK(__atomic_load_n(&count, __ATOMIC_RELAXED) == 364);
        }
      }
    }
  }

  /* nested taskgroups, each waits for its own */
  int outer = 0, inner = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp masked
    {
#pragma omp taskgroup
      {
        for (int i = 0; i < 50; i++) {
#pragma omp task shared(outer, inner)
          {
#pragma omp taskgroup
            {
              for (int k = 0; k < 4; k++) {
#pragma omp task shared(inner)
                {
                  busy(100);
                  __atomic_add_fetch(&inner, 1, __ATOMIC_RELAXED);
                }
              }
            }
            CHECK(__atomic_load_n(&inner, __ATOMIC_RELAXED) >= 4);
            __atomic_add_fetch(&outer, 1, __ATOMIC_RELAXED);
          }
        }
      }
      CHECK(outer == 50 && inner == 200);
    }
  }

  /* every thread has its own taskgroup */
  int per[4] = {0};
#pragma omp parallel num_threads(4)
  {
    int me = omp_get_thread_num();
#pragma omp taskgroup
    {
      for (int i = 0; i < 100; i++) {
#pragma omp task shared(per) firstprivate(me)
        {
#pragma omp task shared(per) firstprivate(me)
          __atomic_add_fetch(&per[me], 1, __ATOMIC_RELAXED);
        }
      }
    }
    CHECK(__atomic_load_n(&per[me], __ATOMIC_RELAXED) == 100);
  }

  /* orphaned (no parallel region) */
  count = 0;
#pragma omp taskgroup
  spawn(3);
  CHECK(count == 40);
  puts("ok");
  return 0;
}
