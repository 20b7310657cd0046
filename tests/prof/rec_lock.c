/* tomp-prof recorder test: lock and critical contention.  In each round one thread holds the
 * lock (then the critical section) while computing in hold_lock_work / hold_critical_work,
 * and the other thread, which waits until the holder is inside, blocks on it for the whole
 * hold: samples in wait_lock / wait_critical states and BLAME records from the releases
 * must appear.  The rounds alternate the holder.  At the end each thread sets a nest lock it
 * already holds (a lock-acquire event with no acquired after it: the trace's waits must
 * still pair). */
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static double acc;
static int inside;

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

static void wait_inside(void) {
  while (!__atomic_load_n(&inside, __ATOMIC_ACQUIRE)) {
  }
}

int main(void) {
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int round = 0; round < 4; round++) {
      if (me == round % 2) {
        omp_set_lock(&lock);
        __atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
        acc += hold_lock_work(20000000);
        omp_unset_lock(&lock);
      } else {
        wait_inside();
        omp_set_lock(&lock);
        omp_unset_lock(&lock);
      }
#pragma omp barrier
#pragma omp single
      inside = 0;
      if (me == round % 2) {
#pragma omp critical
        {
          __atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
          acc += hold_critical_work(20000000);
        }
      } else {
        wait_inside();
#pragma omp critical
        acc += 1;
      }
#pragma omp barrier
#pragma omp single
      inside = 0;
    }
  }
  omp_destroy_lock(&lock);
  omp_nest_lock_t nest;
  omp_init_nest_lock(&nest);
#pragma omp parallel num_threads(2)
  {
    omp_set_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    acc += 1;
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
  }
  omp_destroy_nest_lock(&nest);
  printf("acc %g\n", acc);
  return acc > 0 ? 0 : 1;
}
