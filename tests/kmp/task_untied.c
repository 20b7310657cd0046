/* Untied tasks as clang compiles them: the body is cut at every task scheduling point
 * (task creation, taskyield, taskwait) and queues itself again there (__kmpc_omp_task on the
 * running task).  Many scheduling points in one task (the runtime must not recurse once per
 * part), untied tasks that create untied tasks, an untied task inside a final one (libomp 14
 * asserts on an untied task run at once that reaches a scheduling point in a team, so there its
 * body has none); every part runs once, in order, and local variables survive across parts. */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

#define PARTS 20000

static long count_parts(void) {
  long done = 0, local = 0;
#pragma omp task untied shared(done) firstprivate(local)
  {
    for (int i = 0; i < PARTS; i++) {
      local += i;
#pragma omp taskyield
    }
    done = local;
  }
#pragma omp taskwait
  return done;
}

static int fib(int n) {
  int a = 0, b = 0;
  if (n < 2) return n;
#pragma omp task untied shared(a)
  a = fib(n - 1);
#pragma omp task untied shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

static void check_all(void) {
  CHECK(count_parts() == (long)PARTS * (PARTS - 1) / 2);
  CHECK(fib(18) == 2584);
}

/* libomp 14 answers omp_in_final() 0 in every task outside a parallel region: here only in one */
static void in_final(void) {
  int x = 0, inner = 0;
#pragma omp task final(1) shared(x, inner)
  {
#pragma omp task untied shared(inner)
    inner = omp_in_final();
#pragma omp taskwait
    x = 1;
  }
#pragma omp taskwait
  CHECK(x == 1 && inner == 1);
}

int main(void) {
  check_all();
#pragma omp parallel num_threads(4)
  if (omp_get_thread_num() == 0) {
    check_all();
    in_final();
  }
  printf("ok\n");
  return 0;
}
