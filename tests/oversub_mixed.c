/* Oversubscription: teams of 32 threads on a 2-core machine through parallel regions,
 * barriers, critical sections, dynamic and guided loops, single, reductions and tasks.
 * Waiting threads must yield the CPU to the ones being waited for.
 * test-env: OMP_WAIT_POLICY=active OMP_DYNAMIC=false
 * test-timeout: 120
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define NT 32

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a) if (n > 12)
  a = fib(n - 1);
#pragma omp task shared(b) if (n > 12)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  /* regions and barriers */
  int phase[NT];
  for (int rep = 0; rep < 20; rep++) {
#pragma omp parallel num_threads(NT)
    {
      int me = omp_get_thread_num();
      CHECK(omp_get_num_threads() == NT);
      for (int round = 1; round <= 10; round++) {
        phase[me] = round;
#pragma omp barrier
        for (int j = 0; j < NT; j++) CHECK(phase[j] == round);
#pragma omp barrier
      }
    }
  }

  /* critical: a non-atomic read-modify-write stays exact */
  long counter = 0;
#pragma omp parallel num_threads(NT)
  for (int i = 0; i < 500; i++) {
#pragma omp critical
    {
      long v = counter;
      counter = v + 1;
    }
  }
  CHECK(counter == NT * 500L);

  /* dynamic and guided loops: every iteration exactly once */
  enum { N = 20000 };
  static unsigned char hit[N];
  for (int rep = 0; rep < 5; rep++) {
#pragma omp parallel for num_threads(NT) schedule(dynamic, 3)
    for (int i = 0; i < N; i++) hit[i]++;
#pragma omp parallel for num_threads(NT) schedule(guided)
    for (int i = 0; i < N; i++) hit[i]++;
  }
  for (int i = 0; i < N; i++) CHECK(hit[i] == 10);

  /* reduction and single */
  long sum = 0;
  int singles = 0;
#pragma omp parallel num_threads(NT) reduction(+ : sum)
  {
    for (int r = 0; r < 50; r++) {
#pragma omp single
      singles++;
    }
#pragma omp for schedule(dynamic)
    for (int i = 1; i <= 10000; i++) sum += i;
  }
  CHECK(sum == 10000L * 10001 / 2);
  CHECK(singles == 50);

  /* tasks: recursive fork/join and a flat batch from one producer */
  long f = 0;
#pragma omp parallel num_threads(NT)
#pragma omp single
  f = fib(22);
  CHECK(f == 17711);

  long done = 0;
#pragma omp parallel num_threads(NT)
  {
#pragma omp single
    for (int i = 0; i < 5000; i++) {
#pragma omp task
      __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK(done == 5000);
  puts("ok");
  return 0;
}
