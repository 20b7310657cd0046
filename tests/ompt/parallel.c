/* Parallel regions seen by an OMPT tool: plain, barrier, nested, serialized, num_threads. */
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
