/* KMP_DETERMINISTIC_REDUCTION=true: a floating-point reduction whose value depends on the
 * order the threads' copies are combined in (1e16 + 1 rounds to 1e16) gives the same value in
 * every run of the same team size, however the threads arrive: here in an order that changes
 * from round to round (each thread waits a different time before the reduction).  Both forms:
 * parallel (reduce_nowait) and a worksharing loop's (reduce, with its barrier).  Without the
 * setting the copies are combined atomically in arrival order and the values differ (tomp
 * before the setting was read: 2 and 3 values over the rounds).  libomp combines in a tree:
 * another value than tomp's chain, as reproducible.
 * test-env: KMP_DETERMINISTIC_REDUCTION=true */
#include <omp.h>
#include <time.h>

#include "../check.h"

enum { T = 4, ROUNDS = 40 };
static const double part[T] = {1e16, 1.0, -1e16, 1.0};

static void pause_us(long us) {
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
}

int main(void) {
  omp_set_dynamic(0);
  double first_par = 0, first_for = 0;
  for (int r = 0; r < ROUNDS; r++) {
    double sum = 0;
#pragma omp parallel num_threads(T) reduction(+ : sum)
    {
      int t = omp_get_thread_num();
      CHECK(omp_get_num_threads() == T);
      pause_us(((r + t * 3) % T) * 300); /* a different arrival order each round */
      sum += part[t];
    }
    double loop = 0;
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
      pause_us(((r * 5 + t) % T) * 300);
#pragma omp for schedule(static, 1) reduction(+ : loop)
      for (int i = 0; i < T; i++)
        loop += part[i];
    }
    if (r == 0) {
      first_par = sum;
      first_for = loop;
    }
    CHECKF(sum == first_par, "round %d: %g, round 0: %g", r, sum, first_par);
    CHECKF(loop == first_for, "round %d: %g, round 0: %g", r, loop, first_for);
  }
  return 0;
}
