/* Worksharing constructs for the OMPT scenario tests (tests/scenarios/ompt_worksharing.sh):
 * loops of each schedule, sections, single, ordered, combined loop, doacross, copyprivate. */
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
