/* Hardware and software counters through perf_event_open(2), per OpenMP thread.
 *
 * TOMP_PROF_COUNTERS=cycles,instructions,cache-misses (at most TP_MAX_COUNTERS): each thread
 * opens the counters for itself (user space only: exclude_kernel, what perf_event_paranoid 2
 * allows an unprivileged process), as one group when the kernel accepts it (one read(2) per
 * sample), and every sample carries each counter's events since the thread's previous
 * sample.  A counter multiplexed with others (more counters than the PMU has) is scaled by
 * time enabled / time running.
 *
 * TOMP_PROF_SAMPLE_ON=EVENT:N: instead of the timer, each thread is sampled every N events
 * of EVENT (the counter's overflow; the kernel sends SIGPROF to the thread through F_SETSIG
 * and F_SETOWN_EX), so samples follow the cycles (or instructions, cache misses) rather than
 * the wall clock, and each sample weighs the thread's CPU time since its previous one.
 *
 * What the kernel refuses (a virtual machine without a PMU: ENOENT; perf_event_paranoid or a
 * container's seccomp filter: EACCES, EPERM, ENOSYS) is found at initialize on the initial
 * thread: one message says what is missing and why, the rest is recorded, and sampling falls
 * back to the timer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* F_SETSIG, F_SETOWN_EX */
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rec.h"

typedef struct event {
  const char *name;
  uint32_t type;
  uint64_t config;
} event_t;

#define CACHE(id, op, res) ((id) | (op) << 8 | (res) << 16)
static const event_t known[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
     CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
    {"LLC-load-misses", PERF_TYPE_HW_CACHE,
     CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
};
#define NKNOWN (sizeof known / sizeof known[0])

static const event_t *ctr[TP_MAX_COUNTERS];
static unsigned nctr;
static const event_t *son; /* sampling on this event's overflow (NULL: the timer) */
static uint64_t son_period;
static int son_kernel;        /* the sampling event counts kernel time too (permitted: root, or
                                 perf_event_paranoid < 2): otherwise expiries in the kernel (page
                                 faults, system calls) are skipped and samples thin out there */
static tp_counters_rec_t rec; /* what the file says (names, sampling, the note) */
static int asked;             /* counters or sampling were asked for: write rec */

static const event_t *find(const char *name, size_t len) {
  for (size_t i = 0; i < NKNOWN; i++)
    if (strlen(known[i].name) == len && !strncmp(known[i].name, name, len)) return &known[i];
  return NULL;
}

static void list_known(void) {
  static int said;
  if (said++) return;
  fputs("tomp-prof: counters: ", stderr);
  for (size_t i = 0; i < NKNOWN; i++)
    fprintf(stderr, "%s%s", i ? ", " : "", known[i].name);
  fputc('\n', stderr);
}

void tp_counters_config(void) {
  const char *v = getenv("TOMP_PROF_COUNTERS");
  nctr = 0;
  son = NULL;
  if (v && *v) {
    asked = 1;
    for (const char *p = v; *p;) {
      size_t len = strcspn(p, ",");
      const event_t *e = find(p, len);
      if (!e) {
        fprintf(stderr, "tomp-prof: TOMP_PROF_COUNTERS: unknown counter '%.*s'; left out\n",
                (int)len, p);
        list_known();
      } else if (nctr == TP_MAX_COUNTERS) {
        fprintf(stderr, "tomp-prof: TOMP_PROF_COUNTERS: at most %d counters; '%.*s' left out\n",
                TP_MAX_COUNTERS, (int)len, p);
      } else {
        ctr[nctr++] = e;
      }
      p += len;
      if (*p) p++;
    }
  }
  v = getenv("TOMP_PROF_SAMPLE_ON");
  if (v && *v) {
    asked = 1;
    const char *colon = strchr(v, ':');
    char *end = NULL;
    errno = 0;
    unsigned long long n = colon ? strtoull(colon + 1, &end, 10) : 0;
    const event_t *e = colon ? find(v, (size_t)(colon - v)) : NULL;
    if (!e || !colon || errno || *end || n < 1000 || n > (1ull << 40)) {
      fprintf(stderr,
              "tomp-prof: TOMP_PROF_SAMPLE_ON='%s' is not EVENT:N with a known event and "
              "N in 1000..2^40 events between samples; sampling on the timer\n",
              v);
      if (!e) list_known();
    } else {
      son = e;
      son_period = n;
    }
  }
}

/* group: the leader's descriptor, -1 to lead a group (PERF_FORMAT_GROUP: one read gives all),
 * -2 for a counter read on its own. */
static int perf_open(const event_t *e, int group, uint64_t period) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = e->type;
  a.config = e->config;
  a.exclude_kernel = !(period && son_kernel);
  a.exclude_hv = 1;
  a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  if (group == -1 && !period) a.read_format |= PERF_FORMAT_GROUP;
  if (period) {
    a.sample_period = period;
    a.wakeup_events = 1;
    a.disabled = 1; /* enabled once the signal is routed */
  }
  return (int)syscall(SYS_perf_event_open, &a, 0 /* this thread */, -1, group < 0 ? -1 : group,
                      PERF_FLAG_FD_CLOEXEC);
}

const char *tp_counters_explain(int err, const char *name, char *buf, size_t n) {
  int paranoid = -100;
  FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
  if (f) {
    if (fscanf(f, "%d", &paranoid) != 1) paranoid = -100;
    fclose(f);
  }
  char level[64] = "";
  if (paranoid != -100) snprintf(level, sizeof level, " (it is %d here)", paranoid);
  switch (err) {
  case ENOENT:
  case ENODEV:
  case EOPNOTSUPP:
    snprintf(buf, n,
             "%s: no such counter on this CPU (a virtual machine often has no hardware "
             "counters; software events such as task-clock, page-faults, "
             "context-switches work there)",
             name);
    break;
  case EACCES:
  case EPERM:
    snprintf(buf, n,
             "%s: perf_event_open is not permitted: /proc/sys/kernel/perf_event_paranoid "
             "must be 2 or less for a process to count its own threads%s, and a "
             "container needs perf_event_open allowed by its seccomp profile (or "
             "CAP_PERFMON); as root: sysctl kernel.perf_event_paranoid=2",
             name, level);
    break;
  case ENOSYS:
    snprintf(buf, n,
             "%s: perf_event_open is not available (a kernel without perf events, or a "
             "container's seccomp filter forbids it)",
             name);
    break;
  case EMFILE:
  case ENFILE:
    snprintf(buf, n, "%s: too many open files", name);
    break;
  default:
    snprintf(buf, n, "%s: perf_event_open failed: %s", name, strerror(err));
    break;
  }
  return buf;
}

/* Appends to the file's note (cut at its size). */
static void note(const char *msg) {
  size_t len = strlen(rec.note);
  if (len && len + 2 < sizeof rec.note) {
    memcpy(rec.note + len, "; ", 2);
    len += 2;
  }
  size_t n = strlen(msg), room = sizeof rec.note - 1 - len;
  if (n > room) n = room;
  memcpy(rec.note + len, msg, n);
  rec.note[len + n] = 0;
}

void tp_counters_probe(void) {
  if (!asked) return;
  char why[512], msg[768];
  unsigned kept = 0;
  for (unsigned i = 0; i < nctr; i++) {
    int fd = perf_open(ctr[i], -2, 0);
    if (fd >= 0) {
      close(fd);
      ctr[kept++] = ctr[i];
      continue;
    }
    tp_counters_explain(errno, ctr[i]->name, why, sizeof why);
    snprintf(msg, sizeof msg, "counter %s", why);
    fprintf(stderr, "tomp-prof: %s; recorded without it\n", msg);
    note(msg);
  }
  nctr = kept;
  if (son) {
    son_kernel = 1;
    int fd = perf_open(son, -2, son_period);
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
      son_kernel = 0;
      fd = perf_open(son, -2, son_period);
    }
    if (fd >= 0) {
      close(fd);
    } else {
      tp_counters_explain(errno, son->name, why, sizeof why);
      snprintf(msg, sizeof msg, "sampling on %s", why);
      fprintf(stderr, "tomp-prof: %s; sampling on the timer (%u Hz) instead\n", msg, tp_g.cfg.hz);
      note(msg);
      son = NULL;
    }
  }
  rec.h.type = TP_REC_COUNTERS;
  rec.h.size = sizeof rec;
  rec.n = nctr;
  for (unsigned i = 0; i < nctr; i++)
    snprintf(rec.names[i], sizeof rec.names[i], "%s", ctr[i]->name);
  if (son) {
    rec.sample_on = 1;
    rec.sample_period = son_period;
    snprintf(rec.sample_name, sizeof rec.sample_name, "%s", son->name);
  }
  tp_buf_write_direct(&rec, sizeof rec);
}

unsigned tp_counters_n(void) {
  return nctr;
}
int tp_counters_sampling(void) {
  return son != NULL;
}

/* One reading, scaled when the counter was multiplexed: into out[]; 0 or -1. */
static int read_now(tp_thread_t *t, uint64_t *out) {
  uint64_t buf[3 + TP_MAX_COUNTERS];
  int ok = 0;
  if (t->ctr_group) {
    ssize_t want = (ssize_t)((3 + nctr) * sizeof(uint64_t));
    if (read(t->ctr_fd[0], buf, (size_t)want) != want || buf[0] != nctr) return -1;
    for (unsigned i = 0; i < nctr; i++) {
      uint64_t v = buf[3 + i];
      if (buf[2] && buf[2] < buf[1]) v = (uint64_t)((double)v * (double)buf[1] / (double)buf[2]);
      out[i] = v;
    }
    return 0;
  }
  for (unsigned i = 0; i < nctr; i++) {
    out[i] = TP_CTR_UNKNOWN;
    if (t->ctr_fd[i] < 0 || read(t->ctr_fd[i], buf, 3 * sizeof(uint64_t)) != 3 * sizeof(uint64_t))
      continue;
    uint64_t v = buf[0];
    if (buf[2] && buf[2] < buf[1]) v = (uint64_t)((double)v * (double)buf[1] / (double)buf[2]);
    out[i] = v;
    ok = 1;
  }
  return ok ? 0 : -1;
}

void tp_counters_open(tp_thread_t *t) {
  if (!nctr) return;
  int group = 1;
  for (unsigned i = 0; i < nctr; i++) {
    t->ctr_fd[i] = group ? perf_open(ctr[i], i ? t->ctr_fd[0] : -1, 0) : -1;
    if (t->ctr_fd[i] < 0) group = 0;
  }
  if (!group) { /* the kernel would not group them (e.g. events of different PMUs): one by one */
    for (unsigned i = 0; i < nctr; i++) {
      if (t->ctr_fd[i] >= 0) close(t->ctr_fd[i]);
      t->ctr_fd[i] = perf_open(ctr[i], -2, 0);
    }
  }
  t->ctr_group = group;
  if (read_now(t, t->ctr_last) != 0) memset(t->ctr_last, 0, sizeof t->ctr_last);
  atomic_store(&t->ctr_ok, 1);
}

void tp_counters_close(tp_thread_t *t) {
  atomic_store(&t->ctr_ok, 0); /* our own handler, should it run now, reads nothing */
  atomic_signal_fence(memory_order_seq_cst);
  for (unsigned i = 0; i < TP_MAX_COUNTERS; i++) {
    if (t->ctr_fd[i] >= 0) close(t->ctr_fd[i]);
    t->ctr_fd[i] = -1;
  }
}

void tp_counters_read(tp_thread_t *t, uint64_t *out) {
  uint64_t now[TP_MAX_COUNTERS];
  if (!atomic_load_explicit(&t->ctr_ok, memory_order_relaxed) || read_now(t, now) != 0) {
    for (unsigned i = 0; i < nctr; i++)
      out[i] = TP_CTR_UNKNOWN;
    return;
  }
  for (unsigned i = 0; i < nctr; i++) {
    if (now[i] == TP_CTR_UNKNOWN) {
      out[i] = TP_CTR_UNKNOWN;
      continue;
    }
    out[i] = now[i] >= t->ctr_last[i] ? now[i] - t->ctr_last[i] : 0;
    t->ctr_last[i] = now[i];
  }
}

int tp_counters_arm_overflow(tp_thread_t *t) {
  if (!son) return -1;
  int fd = perf_open(son, -2, son_period);
  if (fd < 0) return -1;
  struct f_owner_ex owner = {F_OWNER_TID, (pid_t)gettid()};
  if (fcntl(fd, F_SETSIG, SIGPROF) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0 ||
      ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    close(fd);
    return -1;
  }
  t->overflow_fd = fd;
  return 0;
}

void tp_counters_disarm_overflow(tp_thread_t *t) {
  int fd = t->overflow_fd;
  if (fd < 0) return;
  t->overflow_fd = -1;
  ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  close(fd);
}
