/* OMPT work and dispatch events of loops (every schedule), sections, single (with its deferred
 * end), ordered, doacross, combined parallel loops and copyprivate.  FileCheck on a
 * one-thread run (deterministic; barrier waits left out).  On two threads: every chunk of the
 * first loop (dynamic, 10) is dispatched, whoever takes it (CHUNKS); each section once; one
 * single_executor and one single_other per single construct (3 of them).
 *
 * ompt-run: OMP_THREAD_LIMIT=1 OMP_SCHEDULE=guided,5
 * ompt-filecheck: CHECK drop=sync_region_wait
 * ompt-run: x3 OMP_SCHEDULE=dynamic,3
 * ompt-filecheck: CHUNKS
 * ompt-count: dispatch kind=section == 3
 * ompt-count: work_begin type=single_executor == 3
 * ompt-count: work_end type=single_executor == 3
 * ompt-count: work_begin type=single_other == 3
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(void) {
  long sum = 0;
  int a[100] = {0};
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
#pragma omp for schedule(dynamic, 10)
    for (int i = 0; i < 100; i++) sum += i;
#pragma omp for schedule(guided, 7) nowait
    for (int i = 0; i < 100; i++) a[i] += 1;
#pragma omp for schedule(runtime)
    for (int i = 0; i < 100; i++) a[i] += 1;
#pragma omp for schedule(static)
    for (int i = 0; i < 100; i++) a[i] += 1;
#pragma omp sections
    {
#pragma omp section
      a[0] += 10;
#pragma omp section
      a[1] += 10;
#pragma omp section
      a[2] += 10;
    }
#pragma omp single
    a[3] += 100;
#pragma omp single nowait
    a[4] += 100;
#pragma omp for ordered schedule(dynamic, 4)
    for (int i = 0; i < 8; i++) {
#pragma omp ordered
      a[5] += i;
    }
  }
  CHECK(sum == 4950);
  CHECK(a[0] == 13 && a[3] == 103 && a[4] == 103 && a[5] == 28 + 3);
#pragma omp parallel for num_threads(2) schedule(dynamic, 50)
  for (int i = 0; i < 100; i++) a[i] = i;
  int d[10] = {0};
#pragma omp parallel for num_threads(2) ordered(1) schedule(dynamic, 2)
  for (int i = 1; i < 10; i++) {
#pragma omp ordered depend(sink : i - 1)
    d[i] = d[i - 1] + 1;
#pragma omp ordered depend(source)
  }
  CHECK(d[9] == 9);
#pragma omp parallel num_threads(2)
  {
    int c = 0;
#pragma omp single copyprivate(c)
    c = 42;
    CHECK(c == 42);
  }
  return 0;
}
