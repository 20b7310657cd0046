/* What the misbehaving tools of tests/ompt/misbehave_*.c share (a header, not a test; the
 * scenario tests/scenarios/ompt_misbehave.sh runs them).  Each program is its own tool (built
 * with -rdynamic): define
 *   static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data);
 *   static void tool_finalize(ompt_data_t *data);
 * before including this header, which adds the ompt_start_tool that returns them, and
 * misbehave_work: a region the tools' callbacks see much of. */
#ifndef TOMP_TESTS_MISBEHAVE_H
#define TOMP_TESTS_MISBEHAVE_H
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv);
ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv) {
  (void)v, (void)rv;
  static ompt_start_tool_result_t r = {tool_initialize, tool_finalize, {0}};
  return &r;
}

/* A region of nthreads threads: a dynamic loop, ntasks tasks, a critical section and a lock
 * that every thread enters, a barrier.  Returns 1 when every result is right (else prints an
 * ERROR line and returns 0). */
__attribute__((unused)) static int misbehave_work(int nthreads, int ntasks) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  long sum = 0, tasks = 0, crit = 0, locked = 0;
  int team = 0;
#pragma omp parallel num_threads(nthreads) reduction(+ : sum)
  {
#pragma omp single
    team = omp_get_num_threads();
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < 100; i++)
      sum += i;
#pragma omp single
    for (int i = 0; i < ntasks; i++) {
#pragma omp task
      {
#pragma omp atomic
        tasks++;
      }
    }
#pragma omp critical
    crit++;
    omp_set_lock(&lock);
    locked++;
    omp_unset_lock(&lock);
#pragma omp barrier
  }
  omp_destroy_lock(&lock);
  if (sum == 4950 && tasks == ntasks && crit == team && locked == team && team == nthreads)
    return 1;
  printf("ERROR: region of %d: team %d, sum %ld, tasks %ld of %d, critical %ld, lock %ld\n",
         nthreads, team, sum, tasks, ntasks, crit, locked);
  return 0;
}
#endif
