/* Listening that starts and stops in the middle of parallel regions must not hang the join.
 * With a listener that wants parallel events (here a Collector API session, the only
 * observer), the join waits for every worker's end events on a counter that the region's fork
 * armed and that workers on the tool path decrement (core/event.h, tomp_ev_join_wait).  Here
 * the primary stops the session and starts a new one right after the fork of each region, so
 * workers that start late run without the tool path (they do not count themselves) while the
 * fork and the join both see a listener: the join must notice that listening changed (the
 * listening epoch) and wait for each worker to park instead of waiting for a count that never
 * comes.  Teams of 4 on this 2-CPU machine make late workers common; every region's result
 * is checked, and a hang is the failure the timeout reports.
 * test-no-libgomp: libgomp has no __omp_collector_api
 * test-no-libomp: libomp 14 has no __omp_collector_api
 * test-timeout: 60
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <time.h>

#include "collector_client.h"

static long forks, joins;

static void on_event(OMP_COLLECTORAPI_EVENT e) {
  __atomic_add_fetch(e == OMP_EVENT_FORK ? &forks : &joins, 1, __ATOMIC_RELAXED);
}

static void session_start(void) {
  CHECK(request(OMP_REQ_START, NULL, 0) == OMP_ERRCODE_OK);
  CHECK(reg(OMP_EVENT_FORK, on_event) == OMP_ERRCODE_OK);
  CHECK(reg(OMP_EVENT_JOIN, on_event) == OMP_ERRCODE_OK);
}

int main(void) {
  api = (int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  CHECK(api != NULL);
  session_start();
  for (int rep = 0; rep < 300; rep++) {
    int sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
    {
      if (omp_get_thread_num() == 0) {
        /* off and on again while the workers are starting (in three regions of four the
         * primary gives them its CPU for a moment in between: some start unobserved) */
        CHECK(request(OMP_REQ_STOP, NULL, 0) == OMP_ERRCODE_OK);
        if (rep % 4) nanosleep(&(struct timespec){0, 500000}, NULL);
        session_start();
      }
      sum += omp_get_thread_num() + 1;
    }
    CHECKF(sum == 10, "region %d: sum %d, wanted 10", rep, sum);
  }
  CHECK(request(OMP_REQ_STOP, NULL, 0) == OMP_ERRCODE_OK);
  /* each session saw the joins of the regions it was started in (the last events) */
  CHECKF(joins >= 300, "%ld join events for 300 regions", joins);
  return 0;
}
