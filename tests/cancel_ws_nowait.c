/* `cancel for` is per construct: with nowait a thread can run ahead into the next loop while
 * another is still in the previous one.
 *  (1) thread 1 cancels loop B while thread 0 is still in loop A (nowait): thread 0's
 *      cancellation point in A must not fire (A is not cancelled);
 *  (2) then thread 0, arriving late in B, must still see B's cancellation (the end of A must
 *      not clear it);
 *  (3) a later loop C is not cancelled for anyone.
 * The handshake sleeps only to let the cancel land first; if it is slow, the test checks
 * less, never wrongly.
 * test-env: OMP_CANCELLATION=true
 * test-timeout: 60
 * test-gcc-only: clang 14 rejects a cancellation point in a nowait construct
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static void wait_flag(int *f) {
  for (int i = 0; i < 20000 && !__atomic_load_n(f, __ATOMIC_ACQUIRE); i++) usleep(100);
}

int main(void) {
  CHECK(omp_get_cancellation());
  for (int rep = 0; rep < 5; rep++) {
    int in_b = 0, a_wrongly_cancelled = 0, b_late_body = 0, c_done = 0, nthr = 0;
#pragma omp parallel num_threads(2)
    {
      int me = omp_get_thread_num();
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp for schedule(static, 1) nowait
      for (int i = 0; i < 2; i++) {
        if (me == 0 && nthr == 2) {
          wait_flag(&in_b);
          usleep(20000); /* let thread 1's cancel of B land */
#pragma omp cancellation point for
          __atomic_store_n(&a_wrongly_cancelled, -1, __ATOMIC_RELAXED); /* reached: good */
        }
      }
#pragma omp for schedule(static, 1)
      for (int i = 0; i < 2; i++) {
        if (me == 1) {
          __atomic_store_n(&in_b, 1, __ATOMIC_RELEASE);
#pragma omp cancel for
        }
        if (me == 0 && nthr == 2) {
#pragma omp cancellation point for
          __atomic_add_fetch(&b_late_body, 1, __ATOMIC_RELAXED);
        }
      }
#pragma omp for schedule(dynamic, 1)
      for (int i = 0; i < 100; i++) {
#pragma omp cancellation point for
        __atomic_add_fetch(&c_done, 1, __ATOMIC_RELAXED);
      }
    }
    if (nthr == 2) {
      CHECK(a_wrongly_cancelled == -1); /* thread 0's A body ran past its cancellation point */
      CHECK(b_late_body == 0);
    }
    CHECK(c_done == 100);
  }
  puts("ok");
  return 0;
}
