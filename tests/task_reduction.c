/* Task reductions: taskgroup task_reduction with in_reduction tasks (+, *, max, an array
 * section), nested taskgroups reducing into outer variables, reduction(task, +: x) on
 * parallel with in_reduction tasks, orphaned taskgroup reductions. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static long tg_sum(int n) {
  long s = 0;
  double prod = 1;
  int mx = -1;
  long arr[4] = {0, 0, 0, 0};
#pragma omp taskgroup task_reduction(+ : s) task_reduction(* : prod) task_reduction(max : mx) \
    task_reduction(+ : arr[0:4])
  {
    for (int i = 1; i <= n; i++) {
#pragma omp task in_reduction(+ : s) in_reduction(* : prod) in_reduction(max : mx) \
    in_reduction(+ : arr[0:4]) firstprivate(i)
      {
        s += i;
        if (i <= 10) prod *= 2;
        if (i > mx) mx = i;
        arr[i % 4] += 1;
      }
    }
  }
  CHECK(prod == 1024.0);
  CHECK(mx == n);
  CHECK(arr[0] + arr[1] + arr[2] + arr[3] == n);
  return s;
}

int main(void) {
  for (int nt = 1; nt <= 4; nt *= 2) {
    long r = 0;
#pragma omp parallel num_threads(nt)
    {
#pragma omp masked
      r = tg_sum(1000);
    }
    CHECK(r == 1000L * 1001 / 2);
  }

  /* nested: inner taskgroup's tasks reduce into both the inner and the outer item */
  long outer = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    {
#pragma omp taskgroup task_reduction(+ : outer)
      {
        for (int k = 0; k < 10; k++) {
#pragma omp task in_reduction(+ : outer) firstprivate(k)
          {
            long inner = 0;
#pragma omp taskgroup task_reduction(+ : inner)
            {
              for (int j = 0; j < 10; j++) {
#pragma omp task in_reduction(+ : inner, outer) firstprivate(j)
                {
                  inner += j;
                  outer += 1;
                }
              }
            }
            CHECK(inner == 45);
            outer += 100;
          }
        }
      }
      CHECK(outer == 10 * 100 + 100);
    }
  }

  /* reduction(task, +) on parallel; tasks from every thread and from one */
  for (int nt = 1; nt <= 4; nt++) {
    long s = 0;
#pragma omp parallel num_threads(nt) reduction(task, + : s)
    {
      s += 1; /* the implicit task's own contribution */
      for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
        s += i;
      }
    }
    CHECK(s == nt * (1 + 49L * 50 / 2));
  }

  /* orphaned taskgroup reduction */
  CHECK(tg_sum(100) == 5050);
  puts("ok");
  return 0;
}
