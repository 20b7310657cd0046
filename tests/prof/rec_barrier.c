/* tomp-prof recorder test: thread 0 computes, thread 1 waits in the region's implicit
 * barrier for most of the run, so its samples must be barrier waits and thread 0's samples
 * must see one waiting teammate.  Run with OMP_NUM_THREADS=2.  The work function is -O2 code
 * without frame pointers (the unwinder must cope). */
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) double busy_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i * 0.5 / (double)(i + 1);
  return s;
}

int main(void) {
  double total = 0;
  for (int rep = 0; rep < 4; rep++) {
#pragma omp parallel num_threads(2) reduction(+ : total)
    {
      if (omp_get_thread_num() == 0) total += busy_work(40000000);
    }
  }
  printf("total %g\n", total);
  return total > 0 ? 0 : 1;
}
