/* 32 threads on a small machine, every thread creating tasks with dependences, nested
 * tasks, taskwaits and taskgroups: tests progress (no lost wake-ups) when waiters sleep. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define T 32

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  long results[T] = {0};
  long chains[T] = {0};
  int total = 0;
  for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel num_threads(T)
    {
      int me = omp_get_thread_num();
      results[me] = fib(14);
      long c = 0;
#pragma omp taskgroup
      {
        for (int i = 0; i < 100; i++) {
#pragma omp task depend(inout : c) shared(c) firstprivate(i)
          {
            CHECK(c == i);
            c++;
          }
        }
      }
      chains[me] = c;
      for (int i = 0; i < 20; i++) {
#pragma omp task shared(total)
        __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
      }
#pragma omp barrier
      CHECK(__atomic_load_n(&total, __ATOMIC_RELAXED) == (rep + 1) * T * 20);
#pragma omp barrier
    }
    for (int t = 0; t < T; t++) CHECK(results[t] == 377 && chains[t] == 100);
  }
  puts("ok");
  return 0;
}
