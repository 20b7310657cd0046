/* Waiting on a busy machine (src/core/wait.c), run by busy_wait.sh under a shim that
 * (a) serves /proc/loadavg from the file named by BUSY_LOADAVG, which this program rewrites
 * to make the machine look busy (1000 runnable threads) or idle (1), (b) with
 * BUSY_SLOW_YIELD set, makes every sched_yield take 2 ms (as when it hands the CPU to
 * another program for its time slice), with BUSY_FAST_YIELD return at once, and (c) counts each
 * thread's sched_yield and futex-wait calls (shim_my_yields, shim_my_sleeps).
 *
 *   busy_wait oversub  (on one CPU: a team of 2 is oversubscribed; fast yields) a wait for a
 *                      partner that is not running yields, the machine idle or busy (the
 *                      hand-over between our own threads)
 *   busy_wait slow     (on one CPU, slow yields) after a slow yield the wait no longer
 *                      yields and sleeps instead; the regions stay correct
 *   busy_wait active   (on one CPU, slow yields, OMP_WAIT_POLICY=active) it still yields
 *   busy_wait busy     (2+ CPUs, busy) short regions compute the right sums, and a wait for
 *                      a partner that is not running sleeps without yielding
 *
 * Thread 1 sleeps (nanosleep: not running) before the barrier while thread 0 waits there;
 * only thread 0's calls inside that one barrier are counted, so other threads' and other
 * waits' calls cannot disturb the counts.  No timing is asserted: the sleeps only make sure
 * the waiter has to wait. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *loadavg;
static unsigned long (*my_yields)(void), (*my_sleeps)(void);
static int failures;

static void set_load(int running) {
  FILE *f = fopen(loadavg, "w");
  if (!f || fprintf(f, "1.00 1.00 1.00 %d/500 12345\n", running) < 0 || fclose(f) != 0) {
    perror(loadavg);
    exit(1);
  }
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

/* Thread 0's yields (and futex sleeps, *sleeps) inside one barrier that thread 1 reaches
 * after sleeping ms. */
static unsigned long yields_in_wait(int ms, unsigned long *sleeps) {
  unsigned long y = 0, z = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) sleep_ms(ms);
    unsigned long y0 = my_yields(), z0 = my_sleeps();
#pragma omp barrier
    if (omp_get_thread_num() == 0) {
      y = my_yields() - y0;
      z = my_sleeps() - z0;
    }
  }
  if (sleeps) *sleeps = z;
  return y;
}

/* Let the runtime sample the file again: waits that poll, more than its period apart. */
static void settle(void) {
  for (int i = 0; i < 4; i++)
    yields_in_wait(3, NULL);
}

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "FAIL: " __VA_ARGS__);                                                       \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static void check_regions(void) {
  long a[64] = {0};
  for (int r = 0; r < 300; r++) {
#pragma omp parallel for num_threads(2) schedule(static)
    for (int i = 0; i < 64; i++)
      a[i] += i + r;
  }
  for (int i = 0; i < 64; i++)
    EXPECT(a[i] == 300L * i + 299L * 300 / 2, "a[%d] = %ld, want %ld", i, a[i],
           300L * i + 299L * 300 / 2);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  loadavg = getenv("BUSY_LOADAVG");
  my_yields = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "shim_my_yields");
  my_sleeps = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "shim_my_sleeps");
  if (!loadavg || !my_yields || !my_sleeps) {
    fprintf(stderr, "busy_wait: run me from busy_wait.sh (BUSY_LOADAVG and the shim)\n");
    return 1;
  }
  omp_set_dynamic(0);
  unsigned long y, z;
  if (strcmp(mode, "oversub") == 0) {
    for (int busy = 0; busy < 2; busy++) {
      set_load(busy ? 1000 : 1);
      settle();
      y = yields_in_wait(20, &z);
      printf("oversubscribed, %s: %lu yields, %lu sleeps in a wait for a sleeping partner\n",
             busy ? "busy" : "idle", y, z);
      EXPECT(y >= 1, "oversubscribed, %s: the wait never yielded", busy ? "busy" : "idle");
    }
  } else if (strcmp(mode, "slow") == 0 || strcmp(mode, "active") == 0) {
    set_load(1);
    settle();
    y = yields_in_wait(50, &z);
    printf("%s, slow yields: %lu yields, %lu sleeps in a wait for a sleeping partner\n", mode, y,
           z);
    if (strcmp(mode, "active") == 0) {
      EXPECT(y >= 1, "OMP_WAIT_POLICY=active: slow yields stopped the wait's yields");
    } else {
      EXPECT(y == 0, "slow yields: %lu yields in one wait (each gives the CPU away)", y);
      EXPECT(z >= 1, "slow yields: the wait for a partner 50 ms away never slept");
      check_regions();
    }
  } else if (strcmp(mode, "busy") == 0) {
    set_load(1000);
    settle();
    y = yields_in_wait(20, &z);
    printf("busy: %lu yields, %lu sleeps in a wait for a sleeping partner\n", y, z);
    EXPECT(y == 0, "busy machine, 2 threads on 2+ CPUs: %lu yields in one wait", y);
    EXPECT(z >= 1, "busy machine: the wait for a partner 20 ms away never slept");
    check_regions();
  } else {
    fprintf(stderr, "usage: busy_wait oversub|slow|active|busy\n");
    return 64;
  }
  if (failures) return 1;
  printf("ok: %s\n", mode);
  return 0;
}
