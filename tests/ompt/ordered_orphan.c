/* An ordered region outside any ordered loop (orphaned, met with no loop to bind to): no
 * turn to wait for, but the tool sees the region as an ordered mutex (acquire, acquired,
 * released with one wait_id), in the initial task and in a team, as from libomp (LLVM's
 * synchronization/ordered).  Before, tomp reported nothing.
 *
 * ompt-run: OMP_NUM_THREADS=2
 * ompt-filecheck: CHECK
 */
#include <stdio.h>

static volatile int sink;

static void orphan(void) {
#pragma omp ordered
  sink++;
}

int main(void) {
  orphan();
#pragma omp parallel num_threads(2)
  orphan();
  printf("sink=%d\n", sink);
  return 0;
}
