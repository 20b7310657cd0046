/* Tool keys rewritten under running threads (src/core/toolkey.c).
 *
 * Without a tool, tomp's event tests are no-ops that a tool path rewrites into jumps.  Here a
 * thread of the program's own starts and stops a Collector API session over and over (each
 * START and STOP rewrites every key) while a team of threads runs through those keys without
 * pause: locks, nested locks, critical, atomic, single, ordered, dynamic loops, barriers and
 * tasks, each checked for its exact result.  Every START must succeed (a key that could not
 * be rewritten fails it); events must arrive while sessions run (the keys were switched on)
 * and none after the last STOP (switched off again).
 * test-no-libgomp: libgomp has no __omp_collector_api
 * test-env: OMP_NUM_THREADS=3
 * test-timeout: 120
 * test-no-libomp: libomp has no __omp_collector_api
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "collector_client.h"

enum { FLIPS = 2000 };

static uint64_t events; /* OMP_EVENT_FORK and OMP_EVENT_THR_BEGIN_IBAR deliveries */
static int flips_done, stop_workload;

static void on_event(OMP_COLLECTORAPI_EVENT e) {
  (void)e;
  __atomic_add_fetch(&events, 1, __ATOMIC_RELAXED);
}

static void *flipper(void *arg) {
  (void)arg;
  struct timespec pause = {0, 100000};
  for (int i = 0; i < FLIPS; i++) {
    CHECK(request(OMP_REQ_START, NULL, 0) == OMP_ERRCODE_OK);
    CHECK(reg(OMP_EVENT_FORK, on_event) == OMP_ERRCODE_OK);
    CHECK(reg(OMP_EVENT_THR_BEGIN_IBAR, on_event) == OMP_ERRCODE_OK);
    nanosleep(&pause, NULL);
    CHECK(request(OMP_REQ_STOP, NULL, 0) == OMP_ERRCODE_OK);
    __atomic_store_n(&flips_done, i + 1, __ATOMIC_RELEASE);
    nanosleep(&pause, NULL);
  }
  __atomic_store_n(&stop_workload, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* One pass over the constructs whose entry points carry keys; aborts on a wrong result. */
static void workload(omp_lock_t *lk, omp_nest_lock_t *nl) {
  long locked = 0, nested = 0, crit = 0, singles = 0, dyn = 0, ord_bad = 0, next = 0;
  long double atom = 0;
  long tasks = 0;
  int nth = 0;
#pragma omp parallel
  {
#pragma omp single
    nth = omp_get_num_threads();
    for (int i = 0; i < 200; i++) {
      omp_set_lock(lk);
      locked++;
      omp_unset_lock(lk);
      omp_set_nest_lock(nl);
      omp_set_nest_lock(nl);
      nested++;
      omp_unset_nest_lock(nl);
      omp_unset_nest_lock(nl);
#pragma omp critical
      crit++;
#pragma omp atomic
      atom += 1;
#pragma omp single
      singles++;
    }
#pragma omp for schedule(dynamic, 3) reduction(+ : dyn)
    for (int i = 0; i < 3000; i++) dyn += i;
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 300; i++) {
#pragma omp ordered
      {
        ord_bad += next != i;
        next++;
      }
    }
#pragma omp single
    for (int i = 0; i < 100; i++) {
#pragma omp task
      __atomic_add_fetch(&tasks, 1, __ATOMIC_RELAXED);
    }
#pragma omp barrier
  }
  CHECK(locked == 200L * nth && nested == 200L * nth && crit == 200L * nth);
  CHECK(atom == 200.0L * nth);
  CHECK(singles == 200 && dyn == 3000L * 2999 / 2 && ord_bad == 0 && next == 300);
  CHECK(tasks == 100);
}

int main(void) {
  omp_lock_t lk;
  omp_nest_lock_t nl;
  api = (int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  CHECK(api != NULL);
  omp_init_lock(&lk);
  omp_init_nest_lock(&nl);
  workload(&lk, &nl); /* the team exists before the first rewrite */
  pthread_t t;
  CHECK(pthread_create(&t, NULL, flipper, NULL) == 0);
  long passes = 0;
  while (!__atomic_load_n(&stop_workload, __ATOMIC_ACQUIRE)) {
    workload(&lk, &nl);
    passes++;
  }
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(__atomic_load_n(&flips_done, __ATOMIC_ACQUIRE) == FLIPS);
  uint64_t seen = __atomic_load_n(&events, __ATOMIC_RELAXED);
  CHECK(seen > 0); /* the keys turned on while sessions ran */
  workload(&lk, &nl);
  CHECK(__atomic_load_n(&events, __ATOMIC_RELAXED) == seen); /* and off after the last STOP */
  omp_destroy_lock(&lk);
  omp_destroy_nest_lock(&nl);
  printf("toolkey_flip: %d sessions over %ld passes, %llu events\n", FLIPS, passes,
         (unsigned long long)seen);
  return 0;
}
