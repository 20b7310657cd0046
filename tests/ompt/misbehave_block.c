/* A misbehaving tool (issue 17 E; tests/scenarios/ompt_misbehave.sh): callbacks that block
 * for a second, each once, at the places where the runtime waits for other threads or holds
 * something: a worker's thread_begin, a worker's implicit-task begin (the primary waits for
 * it at the barrier), a task's creation and its first schedule, a barrier's wait, the
 * acquisition of a lock others wait for, the end of a region (the primary, while its workers
 * park), a thread_end at exit (tomp's finalization waits for it).  Nothing may deadlock or
 * crash: the program's results are right, every blocking callback ran, finalize runs once.
 * No timing is asserted. */
#include <omp-tools.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../check.h"

enum {
  B_THREAD_BEGIN,
  B_IMPLICIT,
  B_TASK_CREATE,
  B_TASK_SCHEDULE,
  B_BARRIER_WAIT,
  B_LOCK,
  B_PARALLEL_END,
  B_THREAD_END,
  NB
};
static const char *const what[NB] = {"thread_begin",  "implicit_task", "task_create",
                                     "task_schedule", "barrier wait",  "lock acquired",
                                     "parallel_end",  "thread_end"};
static int blocked[NB], finalized;
static int in_region; /* the program says when the blocking region runs */

/* block for a second the first time `which` happens */
static void block_once(int which) {
  int zero = 0;
  if (!__atomic_compare_exchange_n(&blocked[which], &zero, 1, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_RELAXED))
    return;
  struct timespec ts = {1, 0};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static void on_thread_begin(ompt_thread_t t, ompt_data_t *d) {
  (void)d;
  if (t == ompt_thread_worker) block_once(B_THREAD_BEGIN);
}
static void on_thread_end(ompt_data_t *d) {
  (void)d;
  if (omp_get_thread_num() != 0 || !__atomic_load_n(&in_region, __ATOMIC_RELAXED))
    block_once(B_THREAD_END);
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, unsigned n,
                             unsigned i, int fl) {
  (void)p, (void)t, (void)n;
  if (ep == ompt_scope_begin && i == 1 && (fl & ompt_task_implicit) &&
      __atomic_load_n(&in_region, __ATOMIC_RELAXED))
    block_once(B_IMPLICIT);
}
static void on_task_create(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *t, int fl, int d,
                           const void *ra) {
  (void)e, (void)f, (void)t, (void)d, (void)ra;
  if (fl & ompt_task_explicit) block_once(B_TASK_CREATE);
}
static void on_task_schedule(ompt_data_t *a, ompt_task_status_t s, ompt_data_t *b) {
  (void)a, (void)s, (void)b;
  block_once(B_TASK_SCHEDULE);
}
static void on_sync_wait(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                         ompt_data_t *t, const void *ra) {
  (void)p, (void)t, (void)ra;
  if (k == ompt_sync_region_barrier_explicit && ep == ompt_scope_begin) block_once(B_BARRIER_WAIT);
}
static void on_mutex_acquired(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  (void)w, (void)ra;
  if (k == ompt_mutex_lock) block_once(B_LOCK);
}
static void on_parallel_end(ompt_data_t *p, ompt_data_t *e, int fl, const void *ra) {
  (void)p, (void)e, (void)fl, (void)ra;
  block_once(B_PARALLEL_END);
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
#define SET(e, f) set(e, (ompt_callback_t)f)
  SET(ompt_callback_thread_begin, on_thread_begin);
  SET(ompt_callback_thread_end, on_thread_end);
  SET(ompt_callback_implicit_task, on_implicit_task);
  SET(ompt_callback_task_create, on_task_create);
  SET(ompt_callback_task_schedule, on_task_schedule);
  SET(ompt_callback_sync_region_wait, on_sync_wait);
  SET(ompt_callback_mutex_acquired, on_mutex_acquired);
  SET(ompt_callback_parallel_end, on_parallel_end);
#undef SET
  return 1;
}

static void tool_finalize(ompt_data_t *data) {
  (void)data;
  int n = 0;
  for (int i = 0; i < NB; i++) {
    n += blocked[i];
    /* thread_end may come after finalize (a runtime may end its workers later) */
    if (!blocked[i] && i != B_THREAD_END) printf("ERROR: the %s callback never blocked\n", what[i]);
  }
  printf("finalize %d\nblocked %d callbacks for a second each\n",
         __atomic_add_fetch(&finalized, 1, __ATOMIC_RELAXED), n);
  fflush(stdout);
}

#include "misbehave.h"

int main(void) {
  __atomic_store_n(&in_region, 1, __ATOMIC_RELAXED);
  CHECK(misbehave_work(3, 10));
  __atomic_store_n(&in_region, 0, __ATOMIC_RELAXED);
  /* a second region after all that: the team still works */
  CHECK(misbehave_work(3, 2));
  printf("ok\n");
  fflush(stdout);
  return 0;
}
