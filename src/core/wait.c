/* Is polling worth it?  A waiter polls in the hope that the thread it waits for is running
 * and about to arrive.  When more threads are runnable than there are CPUs, that thread may
 * be waiting for a CPU, perhaps the waiter's own: polling then costs it up to a scheduler
 * time slice per hand-over, and a waiter that keeps its CPU busy keeps the scheduler from
 * moving the thread onto it.  Yielding is no better once other programs are runnable: a
 * yield hands the CPU to one of them for its whole slice (measured, docs/benchmarks.md,
 * "Contention": 2 threads, a busy process per CPU, a yielding wait made a loop of short
 * regions 50-100 times slower than one that sleeps).  So on a busy machine a wait polls a
 * few times without yielding and sleeps (sync.h, tomp_spins): a sleeper's CPU goes to
 * whoever needs it, the scheduler may move the awaited thread there, and a woken sleeper
 * runs promptly.
 *
 * "Busy" is Linux's count of runnable threads in /proc/loadavg (the sampling thread
 * included) above the number of CPUs, or, when tomp's own threads outnumber the CPUs, above
 * the number of them not asleep (then a yield could only reach another program).  One
 * thread at a time reads it, at most once per TOMP_BUSY_PERIOD_NS, and only from inside a
 * wait: a program that never waits never reads it, and on an idle machine a wait that ends
 * within TOMP_BUSY_POLLS polls never looks.  Where the file cannot be read the machine
 * counts as never busy (the behaviour before this existed).  OMP_WAIT_POLICY=active and
 * GOMP_SPINCOUNT turn it off (env.c): waits then poll as asked. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

#define TOMP_BUSY_PERIOD_NS 1000000u /* 1 ms: a scheduler slice is a few ms */

uint32_t tomp_machine_busy;
/* Polls (without yielding) of a wait on a busy machine before it sleeps: none.  Measured
 * (docs/benchmarks.md, "Contention"): 100 polls (a few microseconds) and 1000 were slower
 * than sleeping at once, at 2 and 4 threads, under every load tried. */
unsigned long tomp_spin_count_busy = 0;
bool tomp_busy_sampling = true;
unsigned tomp_nthreads_sleeping;
__thread bool tomp_wait_yields __attribute__((tls_model("initial-exec")));
__thread uint32_t tomp_wait_polls __attribute__((tls_model("initial-exec")));

static uint64_t sampled_at; /* tomp_now_ns() of the last sample */
static uint32_t sampling;   /* a thread is sampling */
static int loadavg_fd = -1; /* opened on first use, kept (also across fork) */

/* The running count of /proc/loadavg ("0.52 0.58 0.59 3/123 4567": 3), or -1. */
static long runnable_threads(void) {
  if (loadavg_fd < 0) loadavg_fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (loadavg_fd < 0) return -1;
  char buf[128];
  ssize_t n = pread(loadavg_fd, buf, sizeof buf - 1, 0);
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
  if (now - tomp_load_rlx(&sampled_at) < TOMP_BUSY_PERIOD_NS) return;
  uint32_t idle = 0;
  if (!tomp_cas(&sampling, &idle, 1)) return; /* another thread is at it */
  if (now - tomp_load_rlx(&sampled_at) >= TOMP_BUSY_PERIOD_NS) {
    long r = runnable_threads();
    if (r < 0) tomp_store_rlx(&tomp_busy_sampling, false); /* never busy, as before */
    /* tomp's threads not asleep: with more of them than CPUs, runnable threads beyond these
     * are other programs' */
    long ours =
        (long)tomp_load_rlx(&tomp_nthreads_live) - (long)tomp_load_rlx(&tomp_nthreads_sleeping);
    static long cpus; /* the machine's, as the count is: not just those we may use */
    if (!cpus) cpus = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    uint32_t busy = r > (ours > cpus ? ours : cpus);
    if (tomp_load_rlx(&tomp_machine_busy) != busy) tomp_store_rlx(&tomp_machine_busy, busy);
    tomp_store_rlx(&sampled_at, tomp_now_ns());
  }
  tomp_store_rel(&sampling, 0);
}
