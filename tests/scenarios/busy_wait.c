/* Waiting on a busy machine (src/core/wait.c), run by busy_wait.sh under a shim that
 * (a) serves /proc/loadavg from the file named by BUSY_LOADAVG, which this program rewrites
 * to make the machine look busy (1000 runnable threads) or idle (1), and (b) counts each
 * thread's sched_yield and futex-wait calls (shim_my_yields, shim_my_sleeps).  It runs on
 * one CPU (taskset), so a team of 2 is oversubscribed and its waits yield when the machine
 * is otherwise idle.
 *
 *   busy_wait default   idle: a barrier wait whose partner does not come yields (tomp's
 *                       oversubscribed hand-over); busy: it never yields (a yield would
 *                       give the CPU to another program) and sleeps instead; busy: 300
 *                       short regions compute the right sums
 *   busy_wait active    (OMP_WAIT_POLICY=active) busy: the wait is the idle machine's
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

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "default";
  loadavg = getenv("BUSY_LOADAVG");
  my_yields = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "shim_my_yields");
  my_sleeps = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "shim_my_sleeps");
  if (!loadavg || !my_yields || !my_sleeps) {
    fprintf(stderr, "busy_wait: run me from busy_wait.sh (BUSY_LOADAVG and the shim)\n");
    return 1;
  }
  omp_set_dynamic(0);
  unsigned long y, z;
  if (strcmp(mode, "active") == 0) {
    set_load(1000);
    settle();
    y = yields_in_wait(50, &z);
    printf("active, busy: %lu yields, %lu sleeps in a wait for a sleeping partner\n", y, z);
    EXPECT(y >= 1, "OMP_WAIT_POLICY=active on a busy machine: the oversubscribed wait did not "
                   "yield as on an idle one");
  } else {
    set_load(1);
    settle();
    y = yields_in_wait(20, &z);
    printf("idle: %lu yields, %lu sleeps in a wait for a sleeping partner\n", y, z);
    EXPECT(y >= 1, "idle machine, 2 threads on 1 CPU: the wait never yielded");
    set_load(1000);
    settle();
    y = yields_in_wait(50, &z);
    printf("busy: %lu yields, %lu sleeps in a wait for a sleeping partner\n", y, z);
    EXPECT(y == 0, "busy machine: %lu yields in one wait (each gives the CPU away)", y);
    EXPECT(z >= 1, "busy machine: the wait for a partner 50 ms away never slept");
    /* correctness of many short hand-overs while the runtime believes the machine busy */
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
  if (failures) return 1;
  printf("ok: %s\n", mode);
  return 0;
}
