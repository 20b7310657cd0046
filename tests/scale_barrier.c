/* Teams of 32, 64 and 128 threads on a small machine (oversubscribed): every barrier of a
 * region orders all writes before it against all reads after it, including the closing
 * barrier of each region and a region's reuse of a cached team of another size.  Teams this
 * large take the combining-tree barrier and the tree-shaped fork release (barrier.c,
 * team.c); the phases below catch a thread released early (it reads a stale slot) or a
 * worker left behind (the team is short or a slot is never written).
 * test-timeout: 240 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define MAXT 128
#define ROUNDS 40

static int slot[MAXT];
static int bad;

static void phases(int n) {
  int got = 0;
#pragma omp parallel num_threads(n)
  {
    int me = omp_get_thread_num();
#pragma omp single
    got = omp_get_num_threads();
    for (int r = 1; r <= ROUNDS; r++) {
      slot[me] = r * MAXT + me;
#pragma omp barrier
      /* everyone wrote round r, and nobody can have written round r + 1 yet */
      for (int j = 0; j < got; j++)
        if (slot[(me + j) % got] != r * MAXT + (me + j) % got) __atomic_store_n(&bad, 1, 0);
#pragma omp barrier
    }
    slot[me] = -1;
  }
  /* the closing barrier: every thread's last write is visible to the primary */
  CHECKF(got == n, "team of %d threads, asked for %d", got, n);
  for (int j = 0; j < n; j++)
    CHECKF(slot[j] == -1, "thread %d of %d: slot %d", j, n, slot[j]);
  CHECKF(!bad, "a thread of a team of %d read a slot of the wrong round", n);
}

int main(void) {
  int sizes[] = {32, 64, 128, 64, 32, 128, 2, 128, 17, 33};
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    phases(sizes[i]);
  /* many short regions of one large team: the fork release and join of a cached team */
  for (int rep = 0; rep < 60; rep++) {
    long sum = 0;
#pragma omp parallel num_threads(64) reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    CHECKF(sum == 64 * 65 / 2, "region %d: sum %ld", rep, sum);
  }
  printf("ok\n");
  return 0;
}
