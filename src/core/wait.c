/* Is polling worth it?  A waiter polls in the hope that the thread it waits for is running
 * and about to arrive.  When more threads are runnable than there are CPUs, that thread may
 * be waiting for a CPU, perhaps the waiter's own: polling then costs it up to a scheduler
 * time slice per hand-over, and a waiter that keeps its CPU busy keeps the scheduler from
 * moving the thread onto it.  Yielding is no better once other programs are runnable: a
 * yield hands the CPU to one of them for its whole slice (measured, docs/benchmarks.md,
 * "Contention": 2 threads, a busy process per CPU, a yielding wait made a loop of short
 * regions 50-100 times slower than one that sleeps).  So (sync.h, tomp_spins):
 *
 * - tomp's threads fit the CPUs: the machine is busy when Linux's count of runnable threads
 *   (/proc/loadavg's fourth field, the sampling thread included) exceeds the machine's CPUs
 *   at two samples in a row (busy_score); then a wait sleeps at once instead of polling for
 *   2 ms.  One sample is not trusted: while our threads poll on every CPU, any thread that
 *   wakes elsewhere (a daemon, a shell, the kernel's workers) is runnable until the scheduler
 *   gives it a CPU, so on an idle machine a lone sample is over the CPUs now and then; each
 *   such verdict made every wait sleep until the next sample, which in sleeping mode comes
 *   only after TOMP_BUSY_POLLS waits (a 2-thread barrier then costs a futex wake-up, ~4x
 *   its polling cost).  A busy program is runnable at every sample and is seen 1 ms later.
 * - tomp's threads outnumber the CPUs: a poll yields, which hands the CPU to a partner of
 *   ours on an otherwise idle machine (far cheaper than a sleep and a wake-up).  A yield
 *   that keeps us off the CPU for TOMP_YIELD_SLOW_NS may have given it to another program:
 *   if, at two slow yields in a row, more threads are runnable right after each than tomp's
 *   threads that may run (others_runnable), waits sleep at once (tomp_yield_slow) until
 *   TOMP_YIELD_RETRY_NS later, when yields are tried again.  A slow yield with no such
 *   thread gave the CPU to one of ours: the primary's serial code between regions, a
 *   teammate's share of a loop
 *   (EPCC's syncbench at 4 threads on 2 CPUs: every run had such yields, each made 100 ms
 *   of waits sleep, and its barrier cost 10-16 us instead of 5).  (The runnable count alone
 *   cannot tell: with a team larger than the machine, any other runnable thread makes it
 *   exceed the CPUs, and yields between our own threads are still worth it when that other
 *   thread is on another CPU.)
 *
 * One thread at a time reads /proc/loadavg for the sample, at most once per
 * TOMP_BUSY_PERIOD_NS, from inside a wait: a program that never waits never reads it, and on
 * an idle machine a wait that ends within TOMP_BUSY_POLLS polls never looks.  A thread whose
 * yield was slow reads it once more (others_runnable), at most once per such yield.  Where
 * the file cannot be read the machine counts as never busy.  OMP_WAIT_POLICY=active and
 * GOMP_SPINCOUNT turn all of this off (env.c): waits then poll as asked. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define TOMP_BUSY_PERIOD_NS 1000000u    /* 1 ms: a scheduler slice is a few ms */
#define TOMP_YIELD_SLOW_NS 500000u      /* a partner's turn on the CPU in a short region is less */
#define TOMP_YIELD_RETRY_NS 100000000ul /* one slow yield per 100 ms costs a few percent */

uint32_t tomp_machine_busy;
uint32_t tomp_yield_slow;
/* on a line of its own: every futex sleep changes it twice, and a fork that wakes many
 * sleepers has each change it, while every wait reads the flags above */
struct tomp_sleepers tomp_sleepers;
static uint64_t yield_slow_at; /* tomp_now_ns() when a yield was last found slow */
/* Polls (without yielding) of a wait on a busy machine before it sleeps: none.  Measured
 * (docs/benchmarks.md, "Contention"): 100 polls (a few microseconds) and 1000 were slower
 * than sleeping at once, at 2 and 4 threads, under every load tried. */
unsigned long tomp_spin_count_busy = 0;
bool tomp_busy_sampling = true;
__thread bool tomp_wait_yields __attribute__((tls_model("initial-exec")));
__thread uint32_t tomp_wait_polls __attribute__((tls_model("initial-exec")));

static uint64_t sampled_at; /* tomp_now_ns() of the last sample */
static uint32_t sampling;   /* a thread is sampling */
static int loadavg_fd = -1; /* opened on first use, kept (also across fork) */
/* A saturating count of the samples (written by the sampling thread only): up for one over
 * the CPUs, down for one at or below; busy from TOMP_BUSY_SCORE_ON.  So a lone busy sample
 * does not make the machine busy, and once busy has been seen three times in a row a lone
 * idle one (taken while our threads sleep, which the count then leaves out) does not end
 * the verdict either. */
#define TOMP_BUSY_SCORE_ON 2
#define TOMP_BUSY_SCORE_MAX 3
static uint32_t busy_score;

/* The running count of /proc/loadavg ("0.52 0.58 0.59 3/123 4567": 3), or -1. */
static long runnable_threads(void) {
  int fd = tomp_load_acq(&loadavg_fd); /* the descriptor is published by the CAS below */
  if (fd < 0) { /* any waiter may come here first (tomp_wait_yield): one descriptor is kept */
    fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int none = -1;
    if (!tomp_cas(&loadavg_fd, &none, fd)) {
      close(fd);
      fd = none;
    }
  }
  char buf[128];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  buf[n] = 0;
  const char *p = buf;
  for (int field = 0; field < 3; field++) {
    while (*p && *p != ' ')
      p++;
    while (*p == ' ')
      p++;
  }
  char *end;
  long r = strtol(p, &end, 10);
  return end != p && *end == '/' && r >= 0 ? r : -1;
}

void tomp_busy_sample(void) {
  tomp_wait_polls = 0;
  if (!tomp_load_rlx(&tomp_busy_sampling)) return;
  uint64_t now = tomp_now_ns();
  if (tomp_load_rlx(&tomp_yield_slow) && now - tomp_load_rlx(&yield_slow_at) >= TOMP_YIELD_RETRY_NS)
    tomp_store_rlx(&tomp_yield_slow, 0);
  if (now - tomp_load_rlx(&sampled_at) < TOMP_BUSY_PERIOD_NS) return;
  uint32_t idle = 0;
  if (!tomp_cas(&sampling, &idle, 1)) return; /* another thread is at it */
  if (now - tomp_load_rlx(&sampled_at) >= TOMP_BUSY_PERIOD_NS) {
    long r = runnable_threads();
    if (r < 0) tomp_store_rlx(&tomp_busy_sampling, false); /* never busy, as before */
    static long cpus; /* the machine's, as the count is: not just those we may use */
    if (!cpus) cpus = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    uint32_t score = tomp_load_rlx(&busy_score);
    if (r > cpus)
      score += score < TOMP_BUSY_SCORE_MAX;
    else
      score -= score > 0;
    tomp_store_rlx(&busy_score, score);
    uint32_t busy = score >= TOMP_BUSY_SCORE_ON;
    if (tomp_load_rlx(&tomp_machine_busy) != busy) tomp_store_rlx(&tomp_machine_busy, busy);
    tomp_store_rlx(&sampled_at, tomp_now_ns());
  }
  tomp_store_rel(&sampling, 0);
}

/* The threads of this process that are runnable now (state R in /proc/self/task/N/stat), or
 * -1.  Read with getdents64 into a buffer on the stack: a wait must not call malloc. */
static long process_runnable(void) {
  int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return -1;
  long n = 0;
  ssize_t len;
  char buf[2048] __attribute__((aligned(8)));
  while ((len = getdents64(dir, buf, sizeof buf)) > 0) {
    for (ssize_t off = 0; off < len;) {
      struct dirent64 *d = (struct dirent64 *)(void *)(buf + off);
      off += d->d_reclen;
      if (d->d_name[0] == '.') continue;
      char path[32], line[256];
      snprintf(path, sizeof path, "%.20s/stat", d->d_name);
      int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue; /* the thread has ended */
      ssize_t k = read(fd, line, sizeof line - 1);
      close(fd);
      if (k <= 0) continue;
      line[k] = 0;
      const char *c = strrchr(line, ')'); /* "tid (comm) R ...": comm may hold anything */
      n += c && c[1] == ' ' && c[2] == 'R';
    }
  }
  close(dir);
  return len < 0 ? -1 : n;
}

/* Right after a slow yield: is a thread runnable that is not one of ours?  Ours are at most
 * the live ones not asleep on a futex (the count includes us, running), but that count
 * lags: a thread a futex wake-up made runnable counts as asleep until it runs, and with
 * more threads than CPUs it may wait for one for a whole slice (EPCC's syncbench at 4
 * threads on 2 CPUs: such a thread made the next 100 ms of waits sleep; docs/benchmarks.md,
 * "EPCC at 4 threads").  So, in a team of at most TOMP_RUNNABLE_SCAN_MAX, ours are the
 * process's threads runnable now, at most the live ones: a thread of the program that tomp
 * does not know still counts as another, as does everything when the counts cannot be
 * read (the clock alone decides, as it did before the count was consulted).  Each thread
 * looked at costs an open and a read (microseconds) after every slow yield that looks like
 * another program's; a larger team keeps the estimate. */
#define TOMP_RUNNABLE_SCAN_MAX 16
static bool others_runnable(void) {
  long r = runnable_threads();
  if (r < 0) return true;
  long live = (long)tomp_load_rlx(&tomp_nthreads_live);
  long ours = live - (long)tomp_load_rlx(&tomp_sleepers.n);
  if (r > ours && live <= TOMP_RUNNABLE_SCAN_MAX) {
    long p = process_runnable();
    if (p >= 0) ours = p < live ? p : live;
  }
  return r > ours;
}

/* This thread's last slow yield had others runnable after it.  One such yield is not
 * trusted: the count of ours may miss those of our threads a futex wake-up has made runnable
 * that have not yet run (they still count as asleep until they do), and on a quiet machine a
 * thread that wakes elsewhere is runnable for a moment.  Both come and go within a slice;
 * another program that takes the CPU makes the next slow yield look the same.  Fast yields
 * in between (to our own threads on the same CPU: with many per CPU most are) do not reset
 * it. */
static __thread bool slow_yield_seen __attribute__((tls_model("initial-exec")));

void tomp_wait_yield(void) {
  uint64_t t0 = tomp_now_ns();
  sched_yield();
  uint64_t t1 = tomp_now_ns();
  if (tomp_likely(t1 - t0 < TOMP_YIELD_SLOW_NS) || !tomp_load_rlx(&tomp_busy_sampling)) return;
  if (!others_runnable()) { /* one of ours had the CPU: yielding to it was right */
    slow_yield_seen = false;
    return;
  }
  if (!slow_yield_seen) {
    slow_yield_seen = true;
    return;
  }
  slow_yield_seen = false;
  /* another program had the CPU at two slow yields in a row: this wait and the next ones
   * sleep instead */
  tomp_wait_yields = false;
  tomp_store_rlx(&yield_slow_at, t1);
  if (!tomp_load_rlx(&tomp_yield_slow)) tomp_store_rlx(&tomp_yield_slow, 1);
}
