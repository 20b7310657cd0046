/* tomp-prof report test: lock blame when the holder releases through a tail call (issue 18).
 * holder() is `set; work; unset;`: at -O2 its last act is a jump to omp_unset_lock, so at the
 * release holder() is no longer on the stack and the release path ends in its caller
 * (worker_loop).  Known behaviour: both threads wait for each other's holder(), so the
 * directed blame belongs to holder(), not to worker_loop or main. */
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static double shared_sum, own_sum[2];

__attribute__((noinline)) double guarded_part(long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += (double)i / (double)(i + 7);
  return s;
}

__attribute__((noinline)) double free_part(long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += (double)i / (double)(i + 9);
  return s;
}

__attribute__((noinline)) void holder(long n) {
  omp_set_lock(&lock);
  shared_sum += guarded_part(n);
  omp_unset_lock(&lock); /* a tail call at -O2 */
}

__attribute__((noinline)) void worker_loop(int me) {
  for (int i = 0; i < 30; i++) {
    holder(2000000);
    own_sum[me] += free_part(1000000);
  }
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
  worker_loop(omp_get_thread_num());
  omp_destroy_lock(&lock);
  printf("%g %g %g\n", shared_sum, own_sum[0], own_sum[1]);
  return shared_sum > 0 ? 0 : 1;
}
