/* OMPT cancel events (OMP_CANCELLATION=true, two threads): thread 0 activates cancellation of
 * each region; thread 1 detects it at an explicit barrier (GOMP_barrier_cancel), at the end of
 * a loop (GOMP_loop_end_cancel), at the end of sections (GOMP_sections_end_cancel) and at a
 * cancellation point.  The first cancel comes late, so thread 1 usually waits; whether it
 * waits in the barrier or arrives after the cancel, it reports exactly one detection per
 * region.  Five runs, each checked against cancel.check.
 *
 * ompt-run: x5 OMP_CANCELLATION=true
 * ompt-filecheck: CHECK
 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static volatile int sink;

int main(void) {
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      usleep(20000); /* thread 1 is then most likely waiting in the barrier */
#pragma omp cancel parallel
    }
#pragma omp barrier
    sink = 1;
  }
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 4; i++) sink += i;
  }
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
#pragma omp sections
    {
#pragma omp section
      sink += 1;
#pragma omp section
      sink += 2;
    }
  }
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    } else {
      while (!omp_get_cancellation()) {
      }
      for (;;) {
#pragma omp cancellation point parallel
      }
    }
  }
  printf("done\n");
  return 0;
}
