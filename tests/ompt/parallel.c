/* OMPT events of parallel regions (plain, barrier, nested, if(0), num_threads, a barrier
 * outside any region) as ompt-print sees them, which also checks its invariants (pairing,
 * nesting, thread/task/parallel data identity, states, frames).  In the first run, the
 * workers report thread_end before the tool is finalized, the initial thread last (LAST);
 * five more runs check the invariants only.
 *
 * ompt-run:
 * ompt-filecheck: CHECK
 * ompt-filecheck: LAST raw
 * ompt-run: x5
 */
#include <omp.h>
#include <stdio.h>

volatile int sink;

__attribute__((noinline)) void work(int i) { sink += i; }

int main(void) {
  printf("phase plain\n");
  fflush(stdout);
#pragma omp parallel num_threads(2)
  {
    work(omp_get_thread_num());
#pragma omp barrier
    work(1);
  }
  printf("phase nested\n");
  fflush(stdout);
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    work(omp_get_thread_num());
  }
  printf("phase if0\n");
  fflush(stdout);
  int c = 0;
#pragma omp parallel if (c)
  work(3);
  printf("phase num_threads3\n");
  fflush(stdout);
#pragma omp parallel num_threads(3)
  work(4);
  printf("phase serial_barrier\n");
  fflush(stdout);
#pragma omp barrier
  return 0;
}
