/* A chain of 100000 tasks through one inout dependence (the release of each successor must
 * not recurse), a chain whose head is slow so most of it waits, and a wide fan-in. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define LEN 100000

int main(void) {
  long x = 0;
  int bad = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    for (long i = 0; i < LEN; i++) {
#pragma omp task depend(inout : x) firstprivate(i) shared(x, bad)
      {
        if (x != i) bad = 1;
        x = i + 1;
      }
    }
  }
  CHECK(!bad);
  CHECK(x == LEN);

  /* a chain whose head is slow, so most of it is created before anything can run */
  long y = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
#pragma omp task depend(out : y) shared(y)
      {
        volatile long spin = 0;
        for (long k = 0; k < 20000000; k++) spin += k;
        y = 0;
      }
      for (long i = 0; i < LEN; i++) {
#pragma omp task depend(inout : y) firstprivate(i) shared(y, bad)
        {
          if (y != i) bad = 1;
          y++;
        }
      }
#pragma omp taskwait
      CHECK(y == LEN);
    }
  }
  CHECK(!bad);

  /* fan-in: many writers to distinct addresses, one reader of all of them */
  static int arr[64];
  int total = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    {
      for (int i = 0; i < 64; i++) {
#pragma omp task depend(out : arr[i]) firstprivate(i)
        arr[i] = i;
      }
      for (int i = 0; i < 64; i += 8) {
#pragma omp task depend(in : arr[i], arr[i + 1], arr[i + 2], arr[i + 3], arr[i + 4], \
                        arr[i + 5], arr[i + 6], arr[i + 7]) firstprivate(i) shared(total)
        {
          int s = 0;
          for (int k = i; k < i + 8; k++) s += arr[k];
          __atomic_add_fetch(&total, s, __ATOMIC_RELAXED);
        }
      }
    }
  }
  CHECK(total == 63 * 64 / 2);
  puts("ok");
  return 0;
}
