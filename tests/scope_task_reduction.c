/* scope reduction(task, ...): the private blocks are shared through the worksharing ring,
 * in_reduction tasks created inside the scope (by any thread, also nested ones) contribute,
 * and the result is complete after the scope.  Also orphaned (no parallel region), with a
 * team of one, and between nowait loops that let threads run ahead in the ring.
 * test-gcc-only: clang 14 has no scope directive
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static long orphan_s;

static long orphan_sum(int n) {
  orphan_s = 0;
#pragma omp scope reduction(task, + : orphan_s)
  {
    for (int i = 1; i <= n; i++) {
#pragma omp task in_reduction(+ : orphan_s) firstprivate(i)
      orphan_s += i;
    }
  }
  return orphan_s;
}

static long shared_v;

static void orphan_add(int n) {
#pragma omp scope reduction(task, + : shared_v)
  {
    for (int i = 1; i <= n; i++) {
#pragma omp task in_reduction(+ : shared_v) firstprivate(i)
      shared_v += i;
    }
  }
}

int main(void) {
  for (int nt = 1; nt <= 4; nt++) {
    long s = 0, m = 1;
    int bad = 0;
#pragma omp parallel num_threads(nt) reduction(+ : bad)
    {
      int me = omp_get_thread_num(), n = omp_get_num_threads();
      for (int r = 0; r < 50; r++) {
#pragma omp for nowait
        for (int i = 0; i < 8; i++) bad += i < 0;
#pragma omp scope reduction(task, + : s) reduction(task, * : m)
        {
          for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
            {
              s += me * 10 + i;
#pragma omp task in_reduction(+ : s)
              s += 1;
            }
          }
          if (me == 0 && r < 20) {
#pragma omp task in_reduction(* : m)
            m *= 2;
          }
          s += 1000;
        }
        /* the scope's end completes every contribution */
        long want = 0;
        for (int t = 0; t < n; t++) want += 1000 + 10 * (10 * t) + 45 + 10;
        want *= r + 1;
        if (s != want) bad++;
#pragma omp barrier
      }
    }
    CHECK(bad == 0);
    CHECK(m == 1L << 20);
  }

  /* orphaned: the encountering thread alone owns the reduction */
  CHECK(orphan_sum(100) == 5050);
  /* orphaned scope called inside a parallel region: binds to that team */
  int nthr = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp single
    nthr = omp_get_num_threads();
    orphan_add(5);
  }
  CHECK(shared_v == 15L * nthr);
  puts("ok");
  return 0;
}
