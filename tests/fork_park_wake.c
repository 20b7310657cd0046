/* The fork's wake-up of sleeping workers (src/core/thread.c, team.c): idle workers of a
 * cached team sleep on their primary's park word and the fork wakes them all with one futex
 * call after handing each its part; a worker woken without work (the tree release of a team
 * over 16 hands over later) sleeps again on its own word; a worker that went back to the pool
 * still sleeps on its old team's word when another primary recruits it.  With
 * OMP_WAIT_POLICY=passive every idle worker sleeps at once, so every region below forks a
 * team of sleepers: teams of 2 to 128 threads (oversubscribed here), shrinking and growing
 * (surplus workers go to the pool parked on the old word), primaries on two user threads
 * recruiting from that pool at the same time, and nested teams (a park word per depth).
 * A worker never woken hangs its region (the timeout fails the test); a worker handed the
 * wrong part breaks the per-thread slots.
 * test-env: OMP_WAIT_POLICY=passive OMP_MAX_ACTIVE_LEVELS=2
 * test-timeout: 240 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define MAXT 128

/* One region of n threads from the calling thread: every thread writes its slot with the
 * round's mark; after the region each slot holds it and the team had n threads. */
static void region(int n, int *slot, int mark) {
  int got = 0;
#pragma omp parallel num_threads(n)
  {
    int me = omp_get_thread_num();
    if (me == 0) got = omp_get_num_threads();
    slot[me] = mark * MAXT + me;
  }
  CHECKF(got == n, "team of %d threads, asked for %d", got, n);
  for (int j = 0; j < n; j++)
    CHECKF(slot[j] == mark * MAXT + j, "round %d, team of %d: thread %d's slot %d", mark, n, j,
           slot[j]);
}

static void sizes_run(int *slot, int rounds, int salt) {
  static const int sizes[] = {8, 3, 16, 2, 32, 5, 64, 1, 128, 7, 17, 4};
  int nsizes = sizeof sizes / sizeof sizes[0];
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < nsizes; i++)
      region(sizes[(i + salt) % nsizes], slot, r * nsizes + i + 1);
}

static void *user_thread(void *arg) {
  int *slot = malloc(MAXT * sizeof *slot);
  CHECK(slot != NULL);
  sizes_run(slot, 3, (int)(long)arg);
  free(slot);
  return NULL;
}

int main(void) {
  static int slot[MAXT];
  /* one primary: teams of sleepers growing and shrinking */
  sizes_run(slot, 4, 0);
  /* three primaries at once, recruiting from one pool */
  pthread_t th[2];
  for (long i = 0; i < 2; i++)
    CHECK(pthread_create(&th[i], NULL, user_thread, (void *)(i + 5)) == 0);
  sizes_run(slot, 3, 2);
  for (int i = 0; i < 2; i++)
    CHECK(pthread_join(th[i], NULL) == 0);
  /* nested teams: the inner teams' primaries park their workers on their depth-1 words */
  for (int rep = 0; rep < 30; rep++) {
    int inner_ok = 0;
#pragma omp parallel num_threads(3) reduction(+ : inner_ok)
    {
      int n = 2 + (omp_get_thread_num() + rep) % 4;
      long sum = 0;
#pragma omp parallel num_threads(n) reduction(+ : sum)
      sum += omp_get_thread_num() + 1;
      inner_ok += sum == (long)n * (n + 1) / 2;
    }
    CHECKF(inner_ok == 3, "nested round %d: %d of 3 inner teams summed right", rep, inner_ok);
  }
  printf("ok\n");
  return 0;
}
