/* tomp-prof report test: lock contention.  Both threads repeatedly take one lock in holder()
 * and keep it for a long computation (guarded_part), then compute outside the lock
 * (free_part, half as long), so each thread spends a good part of its time waiting for the
 * other's holder().  Directed blame must land on holder(), which releases the lock the
 * waiter wanted, and the waits must appear as `omp lock wait` under holder(). */
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static double shared_sum, own_sum[2];

__attribute__((noinline)) double guarded_part(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 7);
  return s;
}

__attribute__((noinline)) double free_part(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 9);
  return s;
}

__attribute__((noinline)) void holder(long n) {
  omp_set_lock(&lock);
  shared_sum += guarded_part(n);
  omp_unset_lock(&lock);
  __asm__ volatile("" ::: "memory"); /* no tail call: the release happens in holder() */
}

int main(void) {
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int i = 0; i < 30; i++) {
      holder(2000000);
      own_sum[me] += free_part(1000000);
    }
  }
  omp_destroy_lock(&lock);
  printf("sum %g\n", shared_sum + own_sum[0] + own_sum[1]);
  return shared_sum > 0 ? 0 : 1;
}
