/* tomp-prof recorder test: lock and critical contention.  Each thread repeatedly holds a lock
 * (and then a critical section) while computing in hold_lock_work / hold_critical_work, so
 * the others wait: samples in wait_lock / wait_critical states and BLAME records from the
 * releases must appear. */
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static double acc;

__attribute__((noinline)) double hold_lock_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 7);
  return s;
}

__attribute__((noinline)) double hold_critical_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 5);
  return s;
}

int main(void) {
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
  {
    for (int i = 0; i < 30; i++) {
      omp_set_lock(&lock);
      acc += hold_lock_work(1000000);
      omp_unset_lock(&lock);
    }
    for (int i = 0; i < 30; i++) {
#pragma omp critical
      acc += hold_critical_work(1000000);
    }
  }
  omp_destroy_lock(&lock);
  printf("acc %g\n", acc);
  return acc > 0 ? 0 : 1;
}
