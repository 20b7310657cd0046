/* ompt_finalize_tool called from another thread while the program forks regions back to
 * back, with a thread_end callback slow enough (20 ms) that workers are still reporting when
 * the next fork wants them.  A parked worker asked for its thread_end must not lose the
 * fork's hand-over (it did when the request and the fork's post were the same go value and
 * the fork stopped waiting for idle workers: the region hung in 3 of 5 runs).  Checks: every
 * region completes with all its threads, and each thread's end is reported at most once.
 * test-cflags: -rdynamic -pthread
 * test-timeout: 60
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 * test-no-libomp: libomp 14 aborts (assertion at kmp_runtime.cpp:2559)
 */
#include <omp-tools.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

static ompt_finalize_tool_t fin;
static int begins, ends, twice;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *d) {
  (void)type;
  d->value = 0;
  __atomic_add_fetch(&begins, 1, __ATOMIC_RELAXED);
}

static void on_thread_end(ompt_data_t *d) {
  if (__atomic_exchange_n(&d->value, 1, __ATOMIC_RELAXED)) __atomic_store_n(&twice, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
  usleep(20000);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td) {
  (void)dev;
  (void)td;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  fin = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
  return 1;
}

static void finit(ompt_data_t *td) { (void)td; }

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv) {
  (void)v;
  (void)rv;
  static ompt_start_tool_result_t r = {init, finit, {0}};
  return &r;
}

static void *finalizer(void *a) {
  (void)a;
  usleep(100000);
  fin();
  return NULL;
}

int main(void) {
  int wrong = 0;
#pragma omp parallel num_threads(4)
  { }
  CHECK(fin != NULL);
  pthread_t p;
  CHECK(pthread_create(&p, NULL, finalizer, NULL) == 0);
  for (long r = 0; r < 60000; r++) {
#pragma omp parallel num_threads(4)
    if (omp_get_num_threads() != 4) __atomic_store_n(&wrong, 1, __ATOMIC_RELAXED);
  }
  CHECK(pthread_join(p, NULL) == 0);
  CHECK(!wrong);
  CHECK(!twice);
  CHECK(ends >= 1 && ends <= begins);
  printf("ok: %d thread_begin, %d thread_end\n", begins, ends);
  return 0;
}
