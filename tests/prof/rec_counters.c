/* tomp-prof counters test: phases whose counter events are known.
 *   touch_pages: maps fresh memory and writes one byte per page, again and again (every
 *                write a page fault: page-faults concentrate there);
 *   compute:     a floating-point loop on two threads (cycles, instructions, task-clock; no
 *                page faults);
 *   nap:         the initial thread sleeps (no CPU time: sampling on task-clock takes no
 *                sample there, the wall-clock timer does).
 * Run with an argument N: N rounds of each (default 3). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) long touch_pages(int rounds) {
  long pages = 0, size = 32l << 20, psz = sysconf(_SC_PAGESIZE);
  for (int r = 0; r < rounds; r++) {
    char *m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -1;
    for (long off = 0; off < size; off += psz, pages++)
      m[off] = (char)off;
    munmap(m, (size_t)size);
  }
  return pages;
}

__attribute__((noinline)) double compute(long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += (double)i / (double)(i + 3);
  return s;
}

__attribute__((noinline)) void nap(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  long pages = 0;
  for (int r = 0; r < rounds; r++) {
    pages += touch_pages(6);
#pragma omp parallel num_threads(2)
    sink += compute(15000000);
    nap(300);
  }
  printf("pages %ld\n", pages);
  return pages > 0 ? 0 : 1;
}
