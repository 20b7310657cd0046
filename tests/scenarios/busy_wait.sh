#!/usr/bin/env bash
# Waiting on a busy machine (src/core/wait.c).  With tomp's threads fitting the CPUs, a wait
# sleeps at once when /proc/loadavg shows more runnable threads than CPUs; with more threads
# than CPUs a wait yields (a hand-over between our own threads) until a yield is found slow
# (it gave the CPU to another program for its time slice), and then sleeps instead.  This runs
# tests/scenarios/busy_wait.c under a shim that serves /proc/loadavg from a file the program
# rewrites (busy or idle at will, whatever the machine's real load), can make every
# sched_yield take 2 ms or return at once, and counts each thread's sched_yield and futex-wait calls.  Checked:
# oversubscribed (taskset to one CPU), a wait for a partner that is not running yields, the
# machine idle or busy; after slow yields with other programs runnable it sleeps without
# yielding (before wait.c it yielded 127 times: failed), and regions stay correct; slow
# yields with nothing runnable but our threads (they went to one of ours) do not stop the
# yields (before the runnable count was asked: at most one yield, failed), nor do slow yields
# after which another thread is runnable now and then but never twice in a row (a teammate a
# futex wake-up made runnable, a daemon's moment: before two in a row were asked for, none
# yielded, failed); OMP_WAIT_POLICY=active keeps yielding; on 2+ CPUs and busy, a wait does
# not yield (but for one probe per 64 polls) and short regions stay correct; on 2+ CPUs one
# busy sample followed by idle ones does not make waits sleep at once (before the busy score
# every wait after that one sample slept without polling: failed); with one other program's
# thread per CPU a wait polls a while before it sleeps (before: slept at once, failed); with
# one fewer than the CPUs it polls with pauses only, for 200 ms (before: slept, failed).
# Which waits polled is told by the clock: a polling wait reads it every 64 polls.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/busy_wait
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v taskset >/dev/null || { echo "taskset (util-linux) is missing"; exit 1; }
rm -rf "$W"; mkdir -p "$W"
gcc -fopenmp -O2 -Wall -Wextra "$ROOT/tests/scenarios/busy_wait.c" -o "$W/busy_wait" -ldl || exit 1
gcc -O2 -Wall -Wextra -fPIC -shared -x c - -o "$W/shim.so" -ldl <<'C' || exit 1
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>
static __thread unsigned long yields, sleeps, clocks;
static __thread int yielded; /* BUSY_MOMENT: a yield since this thread last read the load */
unsigned long shim_my_yields(void) { return yields; }
unsigned long shim_my_sleeps(void) { return sleeps; }
unsigned long shim_my_clocks(void) { return clocks; }
#include <time.h>
/* a wait that polls reads the clock every 64 polls (wait.c); one that sleeps at once never */
int clock_gettime(clockid_t c, struct timespec *ts) {
  static int (*real)(clockid_t, struct timespec *);
  if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  clocks++;
  return real(c, ts);
}
/* BUSY_WAKE_LAG (mode wake_lag): while the program has called shim_set_lag(1), yields are
 * slow and a thread that returns from a futex wait stays runnable for 20 ms before it goes
 * on (spinning: as a woken thread waiting for a CPU, still counted asleep by the runtime) */
static int lag_on, in_futex;
void shim_set_lag(int on) { __atomic_store_n(&lag_on, on, __ATOMIC_SEQ_CST); }
int shim_in_futex(void) { return __atomic_load_n(&in_futex, __ATOMIC_SEQ_CST); } /* threads */
static unsigned long long now_ns(void) {
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000ull + t.tv_nsec;
}
int sched_yield(void) {
  yields++;
  yielded = 1;
  if (getenv("BUSY_SLOW_YIELD") || __atomic_load_n(&lag_on, __ATOMIC_SEQ_CST)) {
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
    return 0;
  }
  if (getenv("BUSY_FAST_YIELD")) return 0; /* the machine's load cannot make it slow */
  return (int)syscall(SYS_sched_yield);
}
long syscall(long n, ...) {
  static long (*real)(long, ...);
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  va_list ap;
  va_start(ap, n);
  long a[6];
  for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
  va_end(ap);
  int wait = n == SYS_futex && (a[1] & FUTEX_CMD_MASK) == FUTEX_WAIT;
  if (wait) sleeps++, __atomic_add_fetch(&in_futex, 1, __ATOMIC_SEQ_CST);
  long r = real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (wait) __atomic_sub_fetch(&in_futex, 1, __ATOMIC_SEQ_CST);
  if (wait && __atomic_load_n(&lag_on, __ATOMIC_SEQ_CST))
    for (unsigned long long t0 = now_ns(); now_ns() - t0 < 20000000ull;) {
    }
  return r;
}
static int loadavg_fd = -1;
int open(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  va_list ap;
  va_start(ap, flags);
  int mode = va_arg(ap, int);
  va_end(ap);
  const char *fake = getenv("BUSY_LOADAVG");
  int is_loadavg = strcmp(path, "/proc/loadavg") == 0;
  if (fake && is_loadavg) path = fake;
  int fd = real(path, flags, mode);
  if (is_loadavg) loadavg_fd = fd;
  return fd;
}
/* BUSY_TRANSIENT: the first read of /proc/loadavg shows 1000 runnable threads (a moment
 * when some other thread waited for a CPU), every later one 1 (idle); BUSY_BLIP: a read
 * after a thread's first, third, fifth... yield does (threads that are runnable for a moment
 * now and then: per thread, as the runtime's two-in-a-row rule is); BUSY_MOMENT: the first
 * read after each of this thread's yields does, the next ones not (a thread runnable right
 * after the yield and gone tens of microseconds later: one of ours that went to sleep while
 * the runtime looked at its threads, a kernel thread's moment) */
static unsigned long loadavg_reads;
unsigned long shim_loadavg_reads(void) { return __atomic_load_n(&loadavg_reads, __ATOMIC_RELAXED); }
/* BUSY_WAKE_LAG: the machine runs nothing but us: the count is this process's threads in
 * state R (BUSY_OTHERS=N: and N other programs' threads) */
static int ours_running(void) {
  int n = 0, dir = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/task", O_RDONLY | O_DIRECTORY);
  char b[4096], path[64], st[256];
  long len;
  while (dir >= 0 && (len = syscall(SYS_getdents64, dir, b, sizeof b)) > 0)
    for (long off = 0; off < len;) {
      const char *name = b + off + 19; /* struct linux_dirent64: d_name at 19 */
      off += *(unsigned short *)(void *)(b + off + 16);
      if (name[0] == '.') continue;
      snprintf(path, sizeof path, "/proc/self/task/%s/stat", name);
      int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
      if (fd < 0) continue;
      long k = syscall(SYS_read, fd, st, sizeof st - 1);
      syscall(SYS_close, fd);
      st[k > 0 ? k : 0] = 0;
      const char *c = strrchr(st, ')');
      n += c && c[1] == ' ' && c[2] == 'R';
    }
  if (dir >= 0) syscall(SYS_close, dir);
  return n;
}
static ssize_t loadavg_pread(int fd, void *buf, size_t n, off_t off,
                             ssize_t (*real)(int, void *, size_t, off_t)) {
  if (fd < 0 || fd != loadavg_fd) return real(fd, buf, n, off);
  unsigned long k = __atomic_fetch_add(&loadavg_reads, 1, __ATOMIC_RELAXED);
  int running;
  if (getenv("BUSY_TRANSIENT"))
    running = k == 0 ? 1000 : 1;
  else if (getenv("BUSY_BLIP")) /* after this thread's odd yields: never two in a row */
    running = yields % 2 == 1 ? 1000 : 1;
  else if (getenv("BUSY_MOMENT"))
    running = yielded ? 1000 : 1;
  else if (getenv("BUSY_WAKE_LAG"))
    running = ours_running();
  else if (getenv("BUSY_OTHERS")) /* ours that run, and that many other programs' threads */
    running = ours_running() + atoi(getenv("BUSY_OTHERS"));
  else
    return real(fd, buf, n, off);
  yielded = 0;
  char s[64];
  snprintf(s, sizeof s, "1.00 1.00 1.00 %d/500 12345\n", running);
  size_t len = strlen(s);
  if (off != 0) return 0;
  if (len > n) len = n;
  memcpy(buf, s, len);
  return (ssize_t)len;
}
ssize_t pread(int fd, void *buf, size_t n, off_t off) {
  static ssize_t (*real)(int, void *, size_t, off_t);
  if (!real) real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
  return loadavg_pread(fd, buf, n, off, real);
}
ssize_t pread64(int fd, void *buf, size_t n, off_t off) {
  static ssize_t (*real)(int, void *, size_t, off_t);
  if (!real) real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
  return loadavg_pread(fd, buf, n, off, real);
}
C
rc=0
run() { # name, taskset CPUs or "", env..., then the mode
  local name=$1 cpus=$2
  shift 2
  local pin=() && [ -n "$cpus" ] && pin=(taskset -c "$cpus")
  if env LD_LIBRARY_PATH="$B/lib" LD_PRELOAD="${SANLIB:+$SANLIB }$W/shim.so" OMP_NUM_THREADS=2 \
      BUSY_LOADAVG="$W/loadavg" "$@" timeout -k 5 120 "${pin[@]}" "$W/busy_wait" "$name" \
      >"$W/$name.out" 2>&1; then
    cat "$W/$name.out"
  else
    echo "FAIL: busy_wait $name"; cat "$W/$name.out"; rc=1
  fi
}
run oversub 0 BUSY_FAST_YIELD=1
run slow 0 BUSY_SLOW_YIELD=1
run slow_own 0 BUSY_SLOW_YIELD=1
run slow_blip 0 BUSY_SLOW_YIELD=1 BUSY_BLIP=1
run slow_moment 0 BUSY_SLOW_YIELD=1 BUSY_MOMENT=1
run wake_lag 0 BUSY_WAKE_LAG=1
run active 0 BUSY_SLOW_YIELD=1 OMP_WAIT_POLICY=active
if [ "$(nproc)" -ge 2 ]; then
  run busy ""
  run contended ""
  run contended_norseq "" GLIBC_TUNABLES=glibc.pthread.rseq=0
  run spare "" BUSY_OTHERS=$(($(nproc) - 1))
  run transient "" BUSY_TRANSIENT=1
else
  echo "busy, transient: skipped (one CPU)"
fi
exit $rc
