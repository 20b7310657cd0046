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
 *   busy_wait slow     (on one CPU, slow yields, other programs runnable) after a slow
 *                      yield the wait no longer yields and sleeps instead; the regions stay
 *                      correct
 *   busy_wait slow_own (on one CPU, slow yields, no thread runnable but ours) a slow yield
 *                      gave the CPU to one of ours (the primary's serial code, a teammate's
 *                      work): the waits keep yielding
 *   busy_wait slow_blip (on one CPU, slow yields, another thread runnable after every other one)
 *                      a moment's other thread is not another program: the waits keep yielding
 *   busy_wait slow_moment (on one CPU, slow yields, another thread runnable right after each
 *                      one and gone a moment later) a thread runnable for a moment is not
 *                      another program: the waits keep yielding
 *   busy_wait wake_lag (on one CPU, nothing runnable but ours) a partner a futex wake-up made
 *                      runnable, not yet running, is one of ours: the wait keeps yielding
 *   busy_wait active   (on one CPU, slow yields, OMP_WAIT_POLICY=active) it still yields
 *   busy_wait busy     (2+ CPUs, swamped: 1000 runnable) short regions compute the right
 *                      sums, and a wait for a partner that is not running sleeps without
 *                      yielding
 *   busy_wait contended (2+ CPUs, one other program's thread runnable per CPU) a wait for a
 *                      partner that is not running polls a while (for about what a wake-up
 *                      costs) before it sleeps, instead of sleeping at once
 *   busy_wait contended_norseq  the same without rseq (GLIBC_TUNABLES=glibc.pthread.rseq=0:
 *                      where a teammate runs is unknown, so the polls yield)
 *   busy_wait spare    (2+ CPUs, one other program's thread fewer than the CPUs) a wait polls
 *                      with pauses only, for up to 200 ms: no yield, no sleep in 20 ms
 *   busy_wait transient (2+ CPUs, BUSY_TRANSIENT: the first sample is busy, all later ones
 *                      idle) one busy sample does not make the machine busy: waits for a
 *                      partner that arrives within a moment poll instead of sleeping at once
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
#include <unistd.h>

static const char *loadavg;
static unsigned long (*my_yields)(void), (*my_sleeps)(void), (*my_clocks)(void);
static unsigned long last_clocks; /* thread 0's clock reads in the last yields_in_wait_us */
static int failures;

static void set_load(int running) {
  FILE *f = fopen(loadavg, "w");
  if (!f || fprintf(f, "1.00 1.00 1.00 %d/500 12345\n", running) < 0 || fclose(f) != 0) {
    perror(loadavg);
    exit(1);
  }
}

static void sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static int partner_computes; /* thread 1 runs (state R) for those microseconds, not sleeps */

static void compute_us(long us) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do
    clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/* Thread 0's yields (and futex sleeps, *sleeps) inside one barrier that thread 1 reaches
 * after sleeping (or computing) us microseconds. */
static unsigned long yields_in_wait_us(long us, unsigned long *sleeps) {
  unsigned long y = 0, z = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
      if (partner_computes)
        compute_us(us);
      else
        sleep_us(us);
    }
    unsigned long y0 = my_yields(), z0 = my_sleeps(), c0 = my_clocks();
#pragma omp barrier
    if (omp_get_thread_num() == 0) {
      y = my_yields() - y0;
      z = my_sleeps() - z0;
      last_clocks = my_clocks() - c0;
    }
  }
  if (sleeps) *sleeps = z;
  return y;
}

static unsigned long yields_in_wait(int ms, unsigned long *sleeps) {
  return yields_in_wait_us(ms * 1000L, sleeps);
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
  my_clocks = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "shim_my_clocks");
  if (!loadavg || !my_yields || !my_sleeps || !my_clocks) {
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
  } else if (strcmp(mode, "slow_own") == 0 || strcmp(mode, "slow_blip") == 0) {
    /* Before wait.c asked who else was runnable, the first slow yield made every wait sleep
     * at once for 100 ms: at most one yield here (failed).  slow_blip: the load shows other
     * threads runnable after every other slow yield (BUSY_BLIP), as a teammate a futex
     * wake-up made runnable does; before wait.c asked for two in a row, the first made every
     * wait sleep at once: no yield here (failed). */
    set_load(1);
    settle();
    y = yields_in_wait(50, &z);
    printf("%s, slow yields to our own threads: %lu yields, %lu sleeps in a wait for a "
           "sleeping partner\n",
           mode, y, z);
    EXPECT(y >= 2, "slow yields with no other program runnable: %lu yields in one wait", y);
    check_regions();
  } else if (strcmp(mode, "slow_moment") == 0) {
    /* The load shows other threads runnable at the first read after each yield only
     * (BUSY_MOMENT), as when one of ours went to sleep on a futex between the runtime's
     * reading of the load and its count of our runnable threads (EPCC's syncbench at 4
     * threads, docs/benchmarks.md).  Before wait.c read the load again after that count,
     * every slow yield looked like another program's: two yields, then the wait slept
     * (failed). */
    set_load(1);
    settle();
    y = yields_in_wait(50, &z);
    printf("slow_moment, others runnable for a moment after each yield: %lu yields, %lu sleeps "
           "in a wait for a sleeping partner\n",
           y, z);
    EXPECT(y >= 3 && z == 0, "a moment's other thread stopped the yields: %lu yields, %lu sleeps",
           y, z);
    check_regions();
  } else if (strcmp(mode, "wake_lag") == 0) {
    /* The worker sleeps on its futex (fast yields, then 100 ms without a region); the next
     * fork wakes it, and it stays runnable for 20 ms before it runs on (BUSY_WAKE_LAG: a
     * woken thread waiting for a CPU) while the runtime still counts it asleep.  The
     * primary waits for it at the barrier with slow yields; the load shows our runnable
     * threads only.  Before wait.c looked at the process's runnable threads, the lagging
     * worker counted as another program: after two slow yields (one before they were asked
     * for twice) the wait gave up yielding and slept (failed). */
    void (*set_lag)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "shim_set_lag");
    int (*in_futex)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "shim_in_futex");
    if (!set_lag || !in_futex) {
      fprintf(stderr, "busy_wait: the shim has no shim_set_lag or shim_in_futex\n");
      return 1;
    }
    yields_in_wait(1, NULL);
    /* the worker's yields take a slice each when the machine is loaded: wait until it
     * sleeps on its futex (at most 30 s) */
    for (int i = 0; i < 3000 && in_futex() < 1; i++)
      sleep_us(10000);
    EXPECT(in_futex() >= 1, "wake_lag: the idle worker never slept on a futex");
    set_lag(1);
    y = yields_in_wait_us(0, &z);
    set_lag(0);
    printf("wake_lag, a woken partner runnable for 20 ms: %lu yields, %lu sleeps in the wait\n", y,
           z);
    EXPECT(y >= 3 && z == 0,
           "a woken teammate counted as another program: %lu yields, %lu sleeps in one wait", y, z);
    check_regions();
  } else if (strcmp(mode, "slow") == 0 || strcmp(mode, "active") == 0) {
    set_load(strcmp(mode, "slow") == 0 ? 1000 : 1);
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
    /* swamped: 500 other threads per CPU leave a wait a handful of polls on any machine */
    set_load(500 * (int)sysconf(_SC_NPROCESSORS_ONLN));
    settle();
    y = yields_in_wait(20, &z);
    printf("busy: %lu yields, %lu sleeps in a wait for a sleeping partner\n", y, z);
    /* Its polls pause.  One yield may come from the probe every TOMP_BUSY_POLLS polls
     * (tomp_wait_poll_look): the per-thread poll count runs on across waits, so which wait
     * reaches 64 depends on the waits before it (the ASan build's CI run met it once). */
    EXPECT(y <= 1, "busy machine, 2 threads on 2+ CPUs: %lu yields in one wait", y);
    EXPECT(z >= 1, "busy machine: the wait for a partner 20 ms away never slept");
    check_regions();
  } else if (strcmp(mode, "contended") == 0 || strcmp(mode, "contended_norseq") == 0) {
    /* Before the budget depended on how many other threads compete, every wait on a busy
     * machine slept at once: no clock read, no yield (failed). */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    set_load(2 + (int)cpus); /* our two threads and one other per CPU */
    settle();
    unsigned long polled = 0, slept = 0;
    const int waits = 4;
    for (int i = 0; i < waits; i++) {
      y = yields_in_wait(20, &z);
      polled += y > 0 || last_clocks > 0;
      slept += z > 0;
    }
    printf("contended: of %d waits for a partner 20 ms away %lu polled first, %lu slept\n", waits,
           polled, slept);
    EXPECT(polled == (unsigned long)waits, "contended: %lu of %d waits slept at once",
           waits - polled, waits);
    EXPECT(slept == (unsigned long)waits, "contended: %lu of %d waits of 20 ms never slept",
           waits - slept, waits);
    check_regions();
  } else if (strcmp(mode, "spare") == 0) {
    /* One other program's thread fewer than the CPUs (one busy process beside 2 threads on 2
     * CPUs; BUSY_OTHERS: the load shows ours that run and CPUs - 1 others): a wait polls
     * with pauses only, long enough for a partner that computes for 20 ms, so that the
     * threads keep their CPUs.  Before, it slept after 100 us x CPUs (the contended budget)
     * (failed: 4 sleeps in 4 waits). */
    partner_computes = 1;
    settle();
    unsigned long ys = 0, zs = 0;
    for (int i = 0; i < 4; i++) {
      ys += yields_in_wait(20, &z);
      zs += z;
    }
    printf("spare: 4 waits for a partner 20 ms away: %lu yields, %lu sleeps\n", ys, zs);
    EXPECT(zs == 0, "spare: %lu of 4 waits of 20 ms slept (one CPU is spare: poll)", zs);
    EXPECT(ys == 0, "spare: %lu yields in 4 waits (they would keep our threads on one CPU)", ys);
    check_regions();
  } else if (strcmp(mode, "transient") == 0) {
    /* The first wait polls long enough to take the first sample (busy) but not a second
     * one (the period is 1 ms); then waits of 0.2 ms, fewer than the 64 that would make a
     * sleeping thread sample again.  Before the busy score each of them slept at once,
     * without a poll; now a wait polls first (and reads the clock every 64 polls), and
     * sleeps only if its partner stays off a CPU for the whole 2 ms budget (other load). */
    unsigned long (*reads)(void) =
        (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "shim_loadavg_reads");
    yields_in_wait_us(500, NULL);
    EXPECT(reads && reads() >= 1, "transient: the runtime never read the load");
    unsigned long at_once = 0, slept = 0;
    const int waits = 16;
    for (int i = 0; i < waits; i++) {
      yields_in_wait_us(200, &z);
      slept += z != 0;
      at_once += z != 0 && last_clocks == 0;
    }
    printf("transient: of %d short waits after one busy sample %lu slept, %lu of them at once\n",
           waits, slept, at_once);
    EXPECT(at_once == 0, "transient: one busy sample made %lu of %d waits sleep at once", at_once,
           waits);
    check_regions();
  } else {
    fprintf(stderr, "usage: busy_wait "
                    "oversub|slow|slow_own|slow_blip|slow_moment|wake_lag|active|busy|"
                    "contended[_norseq]|spare|transient\n");
    return 64;
  }
  if (failures) return 1;
  printf("ok: %s\n", mode);
  return 0;
}
