/* doacross with collapse: when an inner ordered dimension has no iterations, the collapsed
 * outer loops still run (the inner loop's set-up executes and lastprivate takes the
 * values of the last collapsed iteration, not the ones from before the loop); no sink wait is reached.  long and unsigned
 * long long iteration variables, static and dynamic schedules.
 * test-libomp-fails: libomp 14 now and then (1 run in 40 here) ends the dynamic loop with lastprivate values not from the last iteration */
#include <omp.h>
#include "check.h"

static volatile int zero = 0;

int main(void) {
  int i = -7, j = -7, k = -7;
#pragma omp parallel num_threads(2)
  {
#pragma omp for collapse(2) ordered(3) lastprivate(i, j, k)
    for (i = 0; i < 3; i++)
      for (j = 4; j >= 0; j--)
        for (k = 5; k < 5 + zero; k++) {
#pragma omp ordered depend(sink : i - 1, j, k)
#pragma omp ordered depend(source)
        }
  }
  CHECK(i == 3 && j == -1 && k == 5);

  unsigned long long a = 99, b = 99;
  long c = -1;
#pragma omp parallel num_threads(2)
  {
#pragma omp for collapse(2) ordered(3) schedule(dynamic, 2) lastprivate(a, b, c)
    for (a = 0; a < 4ull; a++)
      for (b = 0; b < 2ull; b++)
        for (c = 3; c < 3 + zero; c++) {
#pragma omp ordered depend(sink : a - 1, b, c)
#pragma omp ordered depend(source)
        }
  }
  CHECK(a == 4 && b == 2 && c == 3);
  return 0;
}
