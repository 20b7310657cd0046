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
 *   at two samples in a row (busy_score); then a wait polls for about what a wake-up costs,
 *   less the more other programs' threads compete per CPU (contended_polls: 100 us with one
 *   per CPU, a handful of polls on a swamped machine), instead of 2 ms, and yields now and
 *   then to a teammate that shares its CPU (partner_here, tomp_wait_poll_look); but while
 *   other programs leave a CPU free, it polls with pauses only for 200 ms (spare_cpu), so
 *   that our threads keep their split over the CPUs.  One sample
 *   is not trusted: while our threads poll on every CPU, any thread that
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
/* Polls of a wait on a busy machine, set at each busy sample (contended_polls); they pause,
 * or yield while a teammate may share the waiter's CPU (partner_here). */
static unsigned long spin_count_contended;
/* ... and whether other programs leave a CPU free (contended_polls): then waits only pause */
static bool spare_cpu;
#ifndef TOMP_CONTENDED_NS
#define TOMP_CONTENDED_NS 100000u /* the budget with one other program's thread per CPU */
#endif
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

/* tomp's threads that may be runnable: the live ones not asleep on a futex */
static long ours_awake(void) {
  return (long)tomp_load_rlx(&tomp_nthreads_live) - (long)tomp_load_rlx(&tomp_sleepers.n);
}

/* The budget of a wait on a busy machine with r threads runnable on cpus CPUs.  A waiter
 * polls hoping its partner is running; with k other programs' threads per CPU the partner
 * runs about 1/(k+1) of the time, and while it does a hand-over takes microseconds, while
 * a poll that outlasts it only spends the waiter's own share of its CPU, which it needs
 * once the partner arrives.  So polling pays for about as long as a futex wake-up costs
 * (tens of microseconds on a virtual machine, where a sleeping vCPU is halted) when k is 1
 * and for proportionally less when k is larger: TOMP_CONTENDED_NS x CPUs / others, never more
 * than the idle budget (none under OMP_WAIT_POLICY=passive).  With one busy process per CPU
 * beside 2 threads, sleeping at every wait cost a barrier 30 us where libomp's polling cost
 * 0.4 (docs/benchmarks.md, "Contention"); with hundreds runnable (k >> 1) the budget is a
 * handful of polls, as sleeping at once was, which won there by 10-100x.
 *
 * Fewer other programs' threads than CPUs (one busy process beside a team of 2 on 2 CPUs):
 * one of our threads can have a CPU to itself, and the others share theirs with one program
 * each.  There a wait that sleeps undoes that split: the waker wakes it onto the CPU that fell
 * idle, our threads end up on one CPU, and every hand-over is a context switch (yields keep
 * them there: the scheduler then sees two half-busy threads, as loaded as the other CPU's
 * one busy one).  So the waits poll, pausing only, for TOMP_SPARE_MS, libomp's blocktime:
 * measured side by side (docs/benchmarks.md, "Contention"), 2 threads beside one pinned busy
 * process: a barrier 1.7-6.5x the better of libgomp and libomp with the contended budget,
 * 0.70-0.80 with this one (four runs), a few hundred context switches in a loop of 12,000
 * regions instead of 15,000-24,000 (that loop stays bimodal, 1-4x libomp's: it follows the
 * CPUs the kernel put the threads on).  Under OMP_WAIT_POLICY=passive, none. */
#define TOMP_SPARE_MS 200u

static unsigned long contended_polls(long r, long cpus) {
  long ours = ours_awake();
  long others = r - (ours > 1 ? ours : 1);
  if (others < 1) others = 1;
  unsigned long idle = tomp_load_rlx(&tomp_spin_count);
  /* Off only at the second sample in a row without a spare CPU, as the busy verdict comes on:
   * a thread that wakes elsewhere for a moment (a daemon, the kernel's workers) is runnable
   * until it gets a CPU (1 sample in 7 in the pinned runs), and each lost verdict cost probes
   * that gave our CPU to the busy process for its slice. */
  static uint32_t misses; /* (the sampler's alone) */
  if (others < cpus && idle) {
    misses = 0;
    tomp_store_rlx(&spare_cpu, true);
  } else if (++misses >= 2 || !idle) {
    tomp_store_rlx(&spare_cpu, false);
  }
  if (tomp_load_rlx(&spare_cpu)) return tomp_spin_polls_per_ms * TOMP_SPARE_MS;
  unsigned long polls = tomp_spin_polls_per_ms * (unsigned long)cpus * TOMP_CONTENDED_NS /
                        1000000u / (unsigned long)others;
  return polls < idle ? polls : idle;
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
    if (r > cpus) tomp_store_rlx(&spin_count_contended, contended_polls(r, cpus));
    if (tomp_load_rlx(&tomp_machine_busy) != busy) tomp_store_rlx(&tomp_machine_busy, busy);
    tomp_store_rlx(&sampled_at, tomp_now_ns());
  }
  tomp_store_rel(&sampling, 0);
}

#define TOMP_RUNNABLE_SCAN_MAX 16 /* others_runnable: teams whose threads are counted */

/* The threads of this process that are runnable now (state R in /proc/self/task/N/stat), or
 * -1 (also for a process of more than 4 x TOMP_RUNNABLE_SCAN_MAX threads).  Read with
 * getdents64 into a buffer on the stack: a wait must not call malloc. */
static long process_runnable(void) {
  int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return -1;
  long n = 0, seen = 0;
  ssize_t len;
  char buf[2048] __attribute__((aligned(8)));
  while ((len = getdents64(dir, buf, sizeof buf)) > 0) {
    for (ssize_t off = 0; off < len;) {
      struct dirent64 *d = (struct dirent64 *)(void *)(buf + off);
      off += d->d_reclen;
      if (d->d_name[0] == '.') continue;
      if (++seen > 4 * TOMP_RUNNABLE_SCAN_MAX) { /* a program of many threads: no estimate */
        close(dir);
        return -1;
      }
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
 * another program's; a larger team keeps the estimate.  The look takes tens of
 * microseconds, and a thread of ours that goes to sleep meanwhile is in the load read
 * before it but not among ours: then the load is read again, and a thread runnable at
 * only one of the two reads (that one, or another's moment) is not another program (EPCC
 * at 4 threads: about 1 in 600 slow yields, docs/benchmarks.md). */
static bool others_runnable(void) {
  long r = runnable_threads();
  if (r < 0) return true;
  long live = (long)tomp_load_rlx(&tomp_nthreads_live);
  long ours = ours_awake();
  if (r > ours && live <= TOMP_RUNNABLE_SCAN_MAX) {
    long p = process_runnable();
    if (p >= 0) {
      ours = p < live ? p : live;
      long again = r > ours ? runnable_threads() : -1; /* the load was read before the scan */
      if (again >= 0 && again < r) r = again;
    }
  }
  return r > ours;
}

/* When this thread's last slow yield had others runnable after it.  One such yield is not
 * trusted: the count of ours may miss those of our threads a futex wake-up has made runnable
 * that have not yet run (they still count as asleep until they do), and on a quiet machine a
 * thread that wakes elsewhere is runnable for a moment.  Both come and go within a slice;
 * another program that takes the CPU makes the next slow yield, within TOMP_YIELD_AGAIN_NS,
 * look the same.  Fast yields in between (to our own threads on the same CPU: with many per
 * CPU most are) do not reset it. */
static __thread uint64_t slow_yield_at __attribute__((tls_model("initial-exec"))); /* 0: none */
#define TOMP_YIELD_AGAIN_NS (10u * TOMP_YIELD_SLOW_NS) /* "in a row": the next within this */

void tomp_wait_yield(void) {
  uint64_t t0 = tomp_now_ns();
  sched_yield();
  uint64_t t1 = tomp_now_ns();
  if (tomp_likely(t1 - t0 < TOMP_YIELD_SLOW_NS) || !tomp_load_rlx(&tomp_busy_sampling)) return;
  if (!others_runnable()) { /* one of ours had the CPU: yielding to it was right */
    slow_yield_at = 0;
    return;
  }
  if (!slow_yield_at || t1 - slow_yield_at > TOMP_YIELD_AGAIN_NS) {
    slow_yield_at = t1;
    return;
  }
  slow_yield_at = 0;
  /* another program had the CPU at two slow yields in a row: this wait and the next ones
   * sleep instead */
  tomp_wait_yields = false;
  tomp_store_rlx(&yield_slow_at, t1);
  if (!tomp_load_rlx(&tomp_yield_slow)) tomp_store_rlx(&tomp_yield_slow, 1);
}

/* Where is the thread we wait for?  On a busy machine whose CPUs our threads fit, Linux may
 * still put two of them on one CPU: with one busy process pinned to CPU 1 beside a team of
 * 2, the balancer sees 2 runnable threads on CPU 0 and 1 on CPU 1 and no better split, and
 * a woken thread lands on the CPU that falls idle, so the team often shares CPU 0 (ps: both
 * threads there).  A waiter that pauses there keeps its partner off the CPU for the whole
 * budget at every hand-over (200 us per region in the contention runs); one that yields
 * hands over in a context switch.  So while a working teammate (not itself waiting or idle:
 * the one we may wait for) last ran on the waiter's CPU, the wait's polls yield (timed, as
 * an oversubscribed wait's).  The kernel writes each thread's CPU into its
 * restartable-sequence area (rseq(2), registered by glibc 2.35 and later for every thread)
 * whenever the thread returns to user space on a CPU; thread.c records where it is.
 * Without rseq the answer is "maybe": the polls yield, and the first yield that gives the
 * CPU to another program makes these waits sleep at once (tomp_yield_slow). */
#define TOMP_PARTNER_SCAN_MAX 16 /* teammates looked at, at each wait's start */
static bool partner_here(void) {
  tomp_thread_t *me = tomp_self;
  const uint32_t *mine = me ? tomp_load_acq(&me->cpu_word) : NULL;
  if (!mine) return true;
  uint32_t cpu = tomp_load_rlx(mine);
  /* Only teammates that are tomp's workers: their rseq areas (in their thread-local storage)
   * last as long as they do, and a worker ends only from the pool.  A primary the program
   * created may leave the region and end while a worker still waits in its closing barrier,
   * taking its area with it; and a worker waiting for the next fork has no team.  For those
   * the probe serves (tomp_wait_poll_look: its yields find a thread queued on our CPU). */
  tomp_team_t *team = me->team;
  if (!team || team->nthreads > TOMP_PARTNER_SCAN_MAX) return false;
  for (unsigned i = 0, n = team->nthreads; i < n; i++) {
    tomp_thread_t *t = team->threads[i];
    if (!t || t == me || t->ompt_type != ompt_thread_worker) continue;
    int st = tomp_load_rlx(&t->state);
    if (st >= 0x10 && st <= ompt_state_idle) continue; /* a wait_* state, or parked */
    const uint32_t *w = tomp_load_acq(&t->cpu_word);
    if (!w || tomp_load_rlx(w) == cpu) return true;
  }
  return false;
}

unsigned long tomp_spins_contended(void) {
  tomp_busy_wait_start();
  unsigned long n = tomp_load_rlx(&spin_count_contended);
  if (tomp_load_rlx(&spare_cpu)) return n; /* pause: a yield would keep us on one CPU */
  /* swamped (a handful of polls), or the partner is on another CPU: pause */
  if (n < TOMP_BUSY_POLLS || !partner_here()) return n;
  if (tomp_load_rlx(&tomp_yield_slow)) return 0;
  tomp_wait_yields = true;
  return tomp_load_rlx(&tomp_spin_count_oversub); /* yields: one CPU, two threads */
}

/* Who else wants this CPU?  partner_here misses a teammate the scheduler moved onto our CPU
 * while it waited for one (its rseq area still shows the CPU it last ran on), and a worker
 * waiting for the next fork has no teammates to look at; a waiter that only pauses then
 * keeps that thread off the CPU for its whole budget (150-200 us per region measured).  So
 * on a busy machine every TOMP_BUSY_POLLS polls a wait yields: with a thread of ours queued
 * on its CPU that hands over at once, with nobody it returns at once; only with another
 * program's thread queued there does it give that thread a slice (a yield over
 * TOMP_YIELD_SLOW_NS with others runnable), and then this thread's waits only pause for the
 * next TOMP_YIELD_RETRY_NS (hog_until): one slice lost per 100 ms. */
static __thread uint64_t hog_until __attribute__((tls_model("initial-exec")));

void tomp_wait_poll_look(void) {
  /* (not while a CPU is spare: see contended_polls) */
  if (!tomp_wait_yields && tomp_unlikely(tomp_load_rlx(&tomp_machine_busy)) &&
      !tomp_load_rlx(&spare_cpu) && tomp_load_rlx(&tomp_nthreads_live) <= tomp_num_procs) {
    uint64_t t0 = tomp_now_ns();
    if (t0 >= hog_until) {
      sched_yield();
      uint64_t t1 = tomp_now_ns();
      if (t1 - t0 >= TOMP_YIELD_SLOW_NS && others_runnable()) hog_until = t1 + TOMP_YIELD_RETRY_NS;
    }
  }
  tomp_busy_sample();
}

/* fork()'s child: a sampling thread of the parent may have held the sampler; the verdicts
 * were the parent's (thread.c's atfork handler calls this). */
void tomp_wait_atfork_child(void) {
  tomp_store_rlx(&sampling, 0);
  tomp_store_rlx(&busy_score, 0);
  tomp_store_rlx(&sampled_at, 0);
  tomp_store_rlx(&tomp_machine_busy, 0);
  tomp_store_rlx(&tomp_yield_slow, 0);
  tomp_store_rlx(&spare_cpu, false);
  tomp_store_rlx(&tomp_sleepers.n, 0); /* the parent's sleepers are gone */
}
