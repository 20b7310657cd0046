/* Bench-only LD_PRELOAD for bench/yield-verdicts.sh: why does an oversubscribed team leave
 * its yields for futex sleeps (src/core/wait.c, tomp_wait_yield and others_runnable)?
 *
 * It watches what the runtime does from outside, through the calls it makes:
 *   - every sched_yield is counted and timed (also the few the runtime does not time); one
 *     that keeps the thread off its CPU for 0.5 ms or more (wait.c's TOMP_YIELD_SLOW_NS) is
 *     slow;
 *   - a read of /proc/loadavg within 100 us of a slow yield is the runtime asking who else
 *     is runnable (wait.c's others_runnable; the first read only): the shim counts this
 *     process's threads in state R right then, and when the load's running count is larger
 *     (another thread was runnable) it records which: every thread of the machine in state R
 *     that is not ours, by command name (a scan of /proc: milliseconds, so only at those
 *     moments; the runtime's own look comes that much later);
 *   - every futex wait is counted (a sleeping waiter).
 * Per EPCC test (at each printf of an "overhead" line) it writes one line on stderr:
 *   YV test=NAME yields=Y slow=S others=O futex=F names=comm,comm,...
 * With YIELD_SHIM_OURS=1 the load's running count is this process's threads in state R (a
 * machine that runs nothing but us, whatever its real load): then any "others" is one of
 * our threads counted at one look and not at the next. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SLOW_NS 500000ull

static unsigned long yields, slow, others, futex_waits;
/* when this thread's last slow yield ended: the runtime's others_runnable reads the load
 * right after one (a read more than 100 us later is the busy sample's, after a yield the
 * runtime did not time: tomp_wait_backoff's, a task wait's) */
static __thread unsigned long long slow_end;
static int loadavg_fd = -1;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static char names[8192]; /* the other threads seen since the last report */

static unsigned long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

/* State and command name of /proc/PID/task/TID/stat ("tid (comm) S ..."), 0 if unreadable. */
static char task_state(const char *path, char *comm, size_t n) {
  char line[512];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t k = read(fd, line, sizeof line - 1);
  close(fd);
  if (k <= 0) return 0;
  line[k] = 0;
  char *open_paren = strchr(line, '('), *close_paren = strrchr(line, ')');
  if (!open_paren || !close_paren || close_paren < open_paren || close_paren[1] != ' ') return 0;
  if (comm) { /* one word in the report */
    snprintf(comm, n, "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);
    for (char *c = comm; *c; c++)
      if (*c == ' ' || *c == ',' || *c == '=') *c = '_';
  }
  return close_paren[2];
}

/* This process's threads in state R. */
static int ours_running(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d) return 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
    n += task_state(path, NULL, 0) == 'R';
  }
  closedir(d);
  return n;
}

/* Adds the command names of the machine's other threads in state R to names. */
static void note_others(void) {
  DIR *procs = opendir("/proc");
  if (!procs) return;
  int me = getpid();
  for (struct dirent *p; (p = readdir(procs));) {
    if (!isdigit((unsigned char)p->d_name[0]) || atoi(p->d_name) == me) continue;
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%.20s/task", p->d_name);
    DIR *tasks = opendir(dir);
    if (!tasks) continue;
    for (struct dirent *t; (t = readdir(tasks));) {
      if (t->d_name[0] == '.') continue;
      char path[128], comm[64];
      snprintf(path, sizeof path, "%s/%.20s/stat", dir, t->d_name);
      if (task_state(path, comm, sizeof comm) != 'R') continue;
      pthread_mutex_lock(&names_lock);
      size_t used = strlen(names);
      if (used + strlen(comm) + 2 < sizeof names)
        snprintf(names + used, sizeof names - used, "%s%s", used ? "," : "", comm);
      pthread_mutex_unlock(&names_lock);
    }
    closedir(tasks);
  }
  closedir(procs);
}

int sched_yield(void) {
  __atomic_add_fetch(&yields, 1, __ATOMIC_RELAXED);
  unsigned long long t0 = now_ns();
  int r = (int)syscall(SYS_sched_yield);
  unsigned long long t1 = now_ns();
  if (t1 - t0 >= SLOW_NS) {
    __atomic_add_fetch(&slow, 1, __ATOMIC_RELAXED);
    slow_end = t1;
  }
  return r;
}

long syscall(long n, ...) {
  static long (*real)(long, ...);
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  va_list ap;
  va_start(ap, n);
  long a[6];
  for (int i = 0; i < 6; i++)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (n == SYS_futex && (a[1] & FUTEX_CMD_MASK) == FUTEX_WAIT)
    __atomic_add_fetch(&futex_waits, 1, __ATOMIC_RELAXED);
  return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int open(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  va_list ap;
  va_start(ap, flags);
  int mode = va_arg(ap, int);
  va_end(ap);
  int fd = real(path, flags, mode);
  if (fd >= 0 && strcmp(path, "/proc/loadavg") == 0) loadavg_fd = fd;
  return fd;
}

static ssize_t loadavg_pread(int fd, void *buf, size_t n, off_t off,
                             ssize_t (*real)(int, void *, size_t, off_t)) {
  if (fd < 0 || fd != loadavg_fd) return real(fd, buf, n, off);
  ssize_t len;
  if (getenv("YIELD_SHIM_OURS")) {
    char s[64];
    snprintf(s, sizeof s, "1.00 1.00 1.00 %d/500 12345\n", ours_running());
    len = off == 0 ? (ssize_t)strlen(s) : 0;
    if ((size_t)len > n) len = (ssize_t)n;
    memcpy(buf, s, (size_t)len);
  } else {
    len = real(fd, buf, n, off);
  }
  if (!slow_end || now_ns() - slow_end > 100000 || len <= 0) return len;
  slow_end = 0;
  char s[128];
  size_t k = (size_t)len < sizeof s - 1 ? (size_t)len : sizeof s - 1;
  memcpy(s, buf, k);
  s[k] = 0;
  long running = 0;
  if (sscanf(s, "%*s %*s %*s %ld/", &running) == 1 && running > ours_running()) {
    __atomic_add_fetch(&others, 1, __ATOMIC_RELAXED);
    if (!getenv("YIELD_SHIM_OURS")) note_others();
  }
  return len;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off) {
  static ssize_t (*real)(int, void *, size_t, off_t);
  if (!real) real = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
  return loadavg_pread(fd, buf, n, off, real);
}
/* on 64-bit Linux the same call, whichever name the runtime was built to use */
ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));

/* EPCC prints one "NAME overhead = ..." line per test, from the primary thread */
int printf(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *at = strstr(buf, " overhead");
  if (at) {
    char test[64];
    snprintf(test, sizeof test, "%.*s", (int)(at - buf), buf);
    for (char *c = test; *c; c++)
      if (*c == ' ') *c = '_';
    pthread_mutex_lock(&names_lock);
    fprintf(stderr, "YV test=%s yields=%lu slow=%lu others=%lu futex=%lu names=%s\n", test,
            __atomic_exchange_n(&yields, 0, __ATOMIC_RELAXED),
            __atomic_exchange_n(&slow, 0, __ATOMIC_RELAXED),
            __atomic_exchange_n(&others, 0, __ATOMIC_RELAXED),
            __atomic_exchange_n(&futex_waits, 0, __ATOMIC_RELAXED), names[0] ? names : "-");
    names[0] = 0;
    pthread_mutex_unlock(&names_lock);
  }
  fputs(buf, stdout);
  return k;
}
