/* critical: the unnamed critical section and several named ones exclude (non-atomic counters,
 * an in-critical flag), and differently named sections do not exclude each other (two threads
 * hold critical(a) and critical(b) at once; a shared lock would deadlock and time out). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define N 50000

static volatile long c0, c1, c2, c3;
static volatile int in0, in1, in2, in3;

int main(void) {
#pragma omp parallel num_threads(4)
  for (int i = 0; i < N; i++) {
#pragma omp critical
    {
      CHECK(!in0);
      in0 = 1;
      c0 = c0 + 1;
      in0 = 0;
    }
#pragma omp critical(alpha)
    {
      CHECK(!in1);
      in1 = 1;
      c1 = c1 + 1;
      in1 = 0;
    }
#pragma omp critical(beta)
    {
      CHECK(!in2);
      in2 = 1;
      c2 = c2 + 2;
      in2 = 0;
    }
#pragma omp critical(gamma) hint(omp_sync_hint_contended)
    {
      CHECK(!in3);
      in3 = 1;
      c3 = c3 + 3;
      in3 = 0;
    }
  }
  CHECK(c0 == 4L * N && c1 == 4L * N && c2 == 8L * N && c3 == 12L * N);

  /* names are independent locks */
  int a_in = 0, b_in = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp critical(a)
      {
        __atomic_store_n(&a_in, 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&b_in, __ATOMIC_SEQ_CST)) {
        }
      }
    } else {
#pragma omp critical(b)
      {
        __atomic_store_n(&b_in, 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&a_in, __ATOMIC_SEQ_CST)) {
        }
      }
    }
  }
  CHECK(a_in && b_in);

  /* nested differently-named critical sections */
  long n = 0;
#pragma omp parallel num_threads(3)
  for (int i = 0; i < 1000; i++) {
#pragma omp critical(outer)
    {
#pragma omp critical(inner)
      n++;
    }
  }
  CHECK(n == 3000);
  puts("ok");
  return 0;
}
