/* The order of the events at the end of a parallel region, as tomp promises it
 * (docs/ompt-support.md, "Event order at the end of a region"): every worker reports its
 * closing barrier's end, then its implicit-task end, and all of that comes before the
 * primary's parallel_end of the region.  OpenMP 5.2 asks only for the order within each
 * thread; tomp adds the order across threads so that a tool may free what it keeps per region
 * at parallel_end while implicit tasks still point at it (this tool does, and poisons the
 * record, so a late implicit-task end is seen).
 *
 * The workers are made late on purpose: some sleep in their closing barrier's end callback,
 * and teams of 4 and 8 threads outnumber this machine's 2 CPUs, so the primary has to wait
 * for workers that have no CPU (the join's wait, core/event.h, tomp_ev_join_wait).  Nested
 * teams and a team of one are included.
 * test-cflags: -rdynamic
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 * test-libomp-fails: libomp 14 reports workers' barrier and implicit-task ends at the next fork
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

enum { LIVE = 0x11fe, DEAD = 0xdead };

typedef struct region {
  int magic;        /* LIVE from parallel_begin to parallel_end, DEAD after */
  int ended;        /* implicit tasks of the region that have ended */
  int barrier_ends; /* closing-barrier ends reported by its threads */
  int size;         /* the team size, from the implicit-task begins */
} region_t;

typedef struct itask {
  region_t *region;
  unsigned index;    /* the thread's number in the team */
  int barrier_ended; /* this thread reported its closing barrier's end */
} itask_t;

static int regions_ended, late_ends, callbacks, slow_turn;

static void on_parallel_begin(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *pdata,
                              unsigned requested, int flags, const void *ra) {
  (void)enc, (void)frame, (void)requested, (void)flags, (void)ra;
  region_t *r = calloc(1, sizeof *r);
  EXPECT(r != NULL);
  if (!r) return;
  r->magic = LIVE;
  pdata->ptr = r;
}

static void on_parallel_end(ompt_data_t *pdata, ompt_data_t *enc, int flags, const void *ra) {
  (void)enc, (void)flags, (void)ra;
  region_t *r = pdata->ptr;
  if (!r) return;
  EXPECT(r->magic == LIVE);
  int ended = __atomic_load_n(&r->ended, __ATOMIC_ACQUIRE);
  int size = __atomic_load_n(&r->size, __ATOMIC_RELAXED);
  int bends = __atomic_load_n(&r->barrier_ends, __ATOMIC_RELAXED);
  if (ended != size || bends != size) {
    printf("ERROR: parallel_end with %d of %d implicit-task ends and %d barrier ends\n", ended,
           size, bends);
    __atomic_add_fetch(&check_failures, 1, __ATOMIC_RELAXED);
  }
  /* what a tool that frees its region record here would leave behind */
  r->magic = DEAD;
  __atomic_add_fetch(&regions_ended, 1, __ATOMIC_RELAXED);
  /* kept allocated (not freed) so that a late implicit-task end reads DEAD, not freed memory */
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pdata, ompt_data_t *tdata,
                             unsigned actual, unsigned index, int flags) {
  __atomic_add_fetch(&callbacks, 1, __ATOMIC_RELAXED);
  if (flags & ompt_task_initial) return;
  if (ep == ompt_scope_begin) {
    itask_t *t = calloc(1, sizeof *t);
    EXPECT(t != NULL && pdata && pdata->ptr);
    if (!t || !pdata) return;
    t->region = pdata->ptr;
    t->index = index;
    tdata->ptr = t;
    __atomic_store_n(&t->region->size, (int)actual, __ATOMIC_RELAXED);
    return;
  }
  itask_t *t = tdata->ptr;
  EXPECT(t != NULL);
  if (!t) return;
  EXPECT(t->barrier_ended); /* the barrier's end came first, on this thread */
  if (t->region->magic != LIVE) __atomic_add_fetch(&late_ends, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&t->region->ended, 1, __ATOMIC_RELEASE);
  free(t);
  tdata->ptr = NULL;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pdata,
                           ompt_data_t *tdata, const void *ra) {
  (void)pdata, (void)ra;
  if (kind != ompt_sync_region_barrier_implicit_parallel || ep != ompt_scope_end) return;
  itask_t *t = tdata->ptr;
  if (!t) return; /* an initial task's region: not ours */
  /* some workers are slow here, as a tool that writes a trace may be */
  if (t->index != 0 && __atomic_add_fetch(&slow_turn, 1, __ATOMIC_RELAXED) % 8 == 0)
    nanosleep(&(struct timespec){0, 2000000}, NULL);
  t->barrier_ended = 1;
  __atomic_add_fetch(&t->region->barrier_ends, 1, __ATOMIC_RELAXED);
}

/* the four callbacks the order involves, and nothing else */
static const struct {
  ompt_callbacks_t which;
  ompt_callback_t fn;
} wanted[] = {
    {ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin},
    {ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end},
    {ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task},
    {ompt_callback_sync_region, (ompt_callback_t)on_sync_region},
};

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
    EXPECT(set(wanted[i].which, wanted[i].fn) >= ompt_set_sometimes);
  return 1;
}

#include "ompt_tool.h"

int main(void) {
  int expect = 0;
  omp_set_max_active_levels(2);
  for (int rep = 0; rep < 60; rep++) {
    int n = rep % 3 == 0 ? 2 : rep % 3 == 1 ? 4 : 8;
    int count = 0;
#pragma omp parallel num_threads(n) reduction(+ : count)
    count++;
    CHECKF(count == n, "region %d: %d threads ran, wanted %d", rep, count, n);
    expect++;
  }
  /* nested teams: each inner region's primary waits for its own workers */
  for (int rep = 0; rep < 10; rep++) {
    int inner = 0;
#pragma omp parallel num_threads(2) reduction(+ : inner)
    {
#pragma omp parallel num_threads(3) reduction(+ : inner)
      inner++;
    }
    CHECKF(inner == 6, "nested region %d: %d inner threads", rep, inner);
    expect += 3;
  }
  /* a team of one: nothing to wait for */
#pragma omp parallel num_threads(1)
  CHECK(omp_get_num_threads() == 1);
  expect++;
  CHECKF(callbacks > 0, "the tool saw no implicit task: it was not started");
  CHECKF(regions_ended == expect, "%d parallel_end events, wanted %d", regions_ended, expect);
  CHECKF(late_ends == 0, "%d implicit-task end(s) after their region's parallel_end", late_ends);
  CHECKF(check_failures == 0, "%d failed expectation(s), see the ERROR lines", check_failures);
  return 0;
}
