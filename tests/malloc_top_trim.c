/* A program that allocates, fills and frees six temporaries of 110 KiB per time step (LULESH at
 * -s 12 does this with its hourglass arrays between parallel regions) must not page-fault on
 * it every step.  With glibc's malloc at its defaults the block is carved from the heap's top
 * and, once freed, the top (over the 128 KiB trim threshold) goes back to the system, so the
 * next step faults its 27 pages in again: LULESH -s 12 -i 100 took 14,386 page faults on tomp
 * (perf stat), 475 on libomp, whose start-up frees a 1 MiB block and so raises glibc's
 * thresholds (mallopt(3): the mmap threshold follows the largest mmapped block freed, the trim
 * threshold is twice it).  tomp's start-up does the same (src/core/init.c).  Checked: the
 * steps together fault fewer pages than one of its blocks has, counted by getrusage.
 * Under a sanitizer (tests/run.sh preloads its runtime) the allocator is the sanitizer's,
 * not glibc's: nothing to check there.
 * test-libgomp-fails: libgomp 12 leaves glibc's thresholds at 128 KiB (27 faults per step)
 * test-cflags: -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "check.h"

#define BLOCK (110 * 1024)
#define NBLOCKS 6 /* LULESH's hourglass step allocates six */
#define STEPS 100

static long minor_faults(void) {
  struct rusage ru;
  CHECK(getrusage(RUSAGE_SELF, &ru) == 0);
  return ru.ru_minflt;
}

int main(void) {
  if (dlsym(RTLD_DEFAULT, "__sanitizer_get_heap_size")) {
    printf("a sanitizer's allocator: glibc's heap is not in use\n");
    return 0;
  }
  double sum = 0;
  /* the runtime is up and has run a region, as in any OpenMP program's time step */
#pragma omp parallel reduction(+ : sum)
  sum += omp_get_thread_num() + 1;
  CHECK(sum >= 1);
  /* the first step may grow the heap; count from the second */
  long check = 0, expect = 0, before = 0;
  for (int s = 0; s <= STEPS; s++) {
    if (s == 1) before = minor_faults();
    unsigned char *p[NBLOCKS];
    for (int b = 0; b < NBLOCKS; b++) {
      p[b] = malloc(BLOCK);
      CHECK(p[b] != NULL);
      memset(p[b], (s + b) & 0xff, BLOCK);
    }
    for (int b = 0; b < NBLOCKS; b++) {
      check += p[b][(s * 97 + b) % BLOCK];
      expect += (s + b) & 0xff;
      free(p[b]);
    }
  }
  long faults = minor_faults() - before;
  CHECKF(check == expect, "read back %ld, wrote %ld", check, expect);
  CHECKF(faults < BLOCK / 4096, "%ld page faults in %d steps of %d blocks of %d KiB", faults, STEPS,
         NBLOCKS, BLOCK / 1024);
  printf("%ld page faults in %d steps\n", faults, STEPS);
  return 0;
}
