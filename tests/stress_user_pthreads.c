/* Threads the program creates itself (foreign to the runtime) each run parallel regions,
 * at the same time: each is an initial thread with its own ICVs (omp_set_num_threads in one
 * thread does not change another's), level 0 outside its regions, thread number 0.
 * test-cflags: -pthread
 * test-timeout: 120
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define NUSER 4

static void *user_thread(void *arg) {
  int id = (int)(long)arg;
  int want = 1 + id % 3; /* 1, 2, 3, 1 */
  CHECK(omp_get_thread_num() == 0);
  CHECK(omp_get_level() == 0);
  CHECK(!omp_in_parallel());
  omp_set_num_threads(want);
  for (int r = 0; r < 2000; r++) {
    long sum = 0;
    int seen = 0;
#pragma omp parallel reduction(+ : sum)
    {
      CHECK(omp_get_num_threads() == want);
      CHECK(omp_get_level() == 1);
      CHECK(omp_get_ancestor_thread_num(0) == 0);
      sum += omp_get_thread_num() + 1;
#pragma omp barrier
#pragma omp atomic
      seen++;
    }
    CHECK(sum == (long)want * (want + 1) / 2);
    CHECK(seen == want);
    /* our ICV is ours: other threads set theirs all the time */
    CHECK(omp_get_max_threads() == want);
  }
  CHECK(omp_get_level() == 0);
  return (void *)(long)(id + 100);
}

int main(void) {
  omp_set_num_threads(2);
  /* the main thread uses the runtime first, so its pool exists when the others start */
  int n = 0;
#pragma omp parallel
#pragma omp atomic
  n++;
  CHECK(n == 2);

  for (int wave = 0; wave < 3; wave++) {
    pthread_t th[NUSER];
    for (long i = 0; i < NUSER; i++) CHECK(pthread_create(&th[i], NULL, user_thread, (void *)i) == 0);
    /* the main thread keeps running its own regions meanwhile */
    for (int r = 0; r < 1000; r++) {
      int m = 0;
#pragma omp parallel
#pragma omp atomic
      m++;
      CHECK(m == 2);
    }
    for (long i = 0; i < NUSER; i++) {
      void *ret;
      CHECK(pthread_join(th[i], &ret) == 0);
      CHECK((long)ret == i + 100);
    }
  }
  CHECK(omp_get_max_threads() == 2);
  puts("ok");
  return 0;
}
