/* An LD_PRELOAD for EPCC's microbenchmarks on tomp: how each test waited, as counts.
 *
 * It counts tomp's sched_yield calls and its futex waits and wakes (tomp makes them through
 * glibc's syscall(); libgomp and libomp do not, so their counts read 0) and prints, on stderr,
 * what each EPCC test made: EPCC prints "Computing NAME time using N reps" after calibrating
 * the test and "NAME time     = ..." after measuring it, and this shim's printf writes a line
 * at each of them, so a test's measured repetitions are the line before its result:
 *
 *   epcc-counts: measured yields=N futex_wait=N futex_wake=N
 *   TASK BARRIER time     = 3.71 microseconds +/- 0.23
 *
 * (the "calibration" line before "Computing" holds the calibration and the previous test's
 * bookkeeping).  A test polled if its yields are many and its futex waits few; it slept if
 * the waits are thousands (docs/benchmarks.md, "EPCC at 4 threads: the task rows").
 *
 * EPCC_COUNTS_QUIET=1 also serves tomp's reads of /proc/loadavg with a running count of this
 * process's own threads in state R (/proc/self/task/N/stat): tomp's busy-machine verdict then
 * sees what a machine running nothing else would show, while other sessions load the real one,
 * so that runs taken under load can still tell our own threads' waiting from another
 * program's.  At exit it prints how many reads it served (0: tomp never asked, or another
 * build that does not read the file).
 *
 * Build: gcc -O2 -Wall -Wextra -fPIC -shared -o epcc-counts.so bench/epcc-counts.c -ldl
 * Use:   OMP_NUM_THREADS=4 LD_LIBRARY_PATH=build/lib LD_PRELOAD=$PWD/epcc-counts.so \
 *          ~/.cache/tomp-apps/bin/epcc-taskbench --outer-repetitions 3 --test-time 1000
 * printf flushes stdout at those two lines, so that both streams interleave in order. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned long n_yield, n_wait, n_wake, n_served;
#define COUNT(c) __atomic_add_fetch(&(c), 1, __ATOMIC_RELAXED)

/* The system call itself, so that nothing here goes through the interposed syscall(). */
static long raw_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  long ret;
  register long r10 __asm__("r10") = a3;
  register long r8 __asm__("r8") = a4;
  register long r9 __asm__("r9") = a5;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  if (ret < 0 && ret > -4096) {
    errno = (int)-ret;
    return -1;
  }
  return ret;
}

int sched_yield(void) {
  COUNT(n_yield);
  return (int)raw_syscall(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
}

long syscall(long nr, ...) {
  va_list ap;
  long a[6];
  va_start(ap, nr);
  for (int i = 0; i < 6; i++)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (nr == SYS_futex) {
    int op = (int)a[1] & FUTEX_CMD_MASK;
    if (op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET) COUNT(n_wait);
    if (op == FUTEX_WAKE || op == FUTEX_WAKE_BITSET) COUNT(n_wake);
  }
  return raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void report(const char *what) {
  static unsigned long last_yield, last_wait, last_wake;
  unsigned long y = __atomic_load_n(&n_yield, __ATOMIC_RELAXED);
  unsigned long w = __atomic_load_n(&n_wait, __ATOMIC_RELAXED);
  unsigned long k = __atomic_load_n(&n_wake, __ATOMIC_RELAXED);
  fprintf(stderr, "epcc-counts: %s yields=%lu futex_wait=%lu futex_wake=%lu\n", what,
          y - last_yield, w - last_wait, k - last_wake);
  last_yield = y, last_wait = w, last_wake = k;
}

int printf(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  if (strncmp(fmt, "Computing ", 10) == 0) report("calibration");
  if (strstr(fmt, " time     = ")) report("measured");
  va_start(ap, fmt);
  int n = vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
  return n;
}

/* ---- EPCC_COUNTS_QUIET: /proc/loadavg as a machine running only us would show it ---- */

static int quiet;        /* EPCC_COUNTS_QUIET set (read before main, before any thread) */
static int fake_fd = -1; /* the descriptor handed out for /proc/loadavg */

__attribute__((constructor)) static void read_env(void) {
  const char *q = getenv("EPCC_COUNTS_QUIET");
  quiet = q && atoi(q) != 0;
}

static int (*next_open(void))(const char *, int, ...) {
  static int (*real)(const char *, int, ...);
  if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  return real;
}

int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  if (quiet && strcmp(path, "/proc/loadavg") == 0) {
    int fd = next_open()("/dev/null", O_RDONLY | (flags & O_CLOEXEC));
    if (fd >= 0) __atomic_store_n(&fake_fd, fd, __ATOMIC_RELEASE);
    return fd;
  }
  return next_open()(path, flags, mode);
}
/* the same function on x86_64 (off_t is 64 bits) */
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

/* This process's threads in state R, the reader included (as in the real file). */
static int own_running(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return 1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
    int fd = next_open()(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) continue;
    buf[k] = 0;
    const char *p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
    if (p && p[1] == ' ' && p[2] == 'R') n++;
  }
  closedir(d);
  return n > 0 ? n : 1;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off) {
  static ssize_t (*next)(int, void *, size_t, off_t);
  if (fd >= 0 && fd == __atomic_load_n(&fake_fd, __ATOMIC_ACQUIRE)) {
    char s[64];
    int k = snprintf(s, sizeof s, "0.00 0.00 0.00 %d/100 1\n", own_running());
    if (off >= k) return 0;
    size_t n = (size_t)(k - off) < len ? (size_t)(k - off) : len;
    memcpy(buf, s + off, n);
    COUNT(n_served);
    return (ssize_t)n;
  }
  if (!next) next = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
  return next(fd, buf, len, off);
}
ssize_t pread64(int fd, void *buf, size_t len, off_t off) __attribute__((alias("pread")));

__attribute__((destructor)) static void at_exit(void) {
  report("end");
  if (quiet) fprintf(stderr, "epcc-counts: quiet loadavg reads served=%lu\n", n_served);
}
