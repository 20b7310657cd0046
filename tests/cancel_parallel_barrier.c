/* `cancel parallel` while the other threads wait in an explicit barrier: they must leave it
 * as cancelled and go to the end of the region; the cancelling thread's arrival at the
 * region's closing barrier must not complete their barrier's round (which would let them run
 * on past it, or leave the closing barrier one thread short).
 * test-env: OMP_CANCELLATION=true
 * test-timeout: 60
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

int main(void) {
  CHECK(omp_get_cancellation());
  for (int round = 0; round < 200; round++) {
    int past = 0, entered = 0;
#pragma omp parallel num_threads(4) shared(past, entered)
    {
      if (omp_get_thread_num() == 0) {
        /* let the others reach the barrier first, most of the time */
        while (__atomic_load_n(&entered, __ATOMIC_ACQUIRE) < 3 && round % 4 != 0) usleep(10);
#pragma omp cancel parallel
      } else {
        __atomic_add_fetch(&entered, 1, __ATOMIC_RELEASE);
      }
#pragma omp barrier
      __atomic_add_fetch(&past, 1, __ATOMIC_RELAXED);
    }
    CHECK(past == 0);
  }
  puts("ok");
  return 0;
}
