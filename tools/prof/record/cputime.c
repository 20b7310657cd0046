/* The thread's CPU time over each sample's interval, without a system call in the handler.
 *
 * CLOCK_THREAD_CPUTIME_ID is not in the vDSO: reading it is a real system call, about
 * 0.5 us in a loop and three times that in a signal handler whose caches other processes
 * have cooled, which made it the largest single cost of a sample.  Instead the tool asks the
 * kernel for a record at each context switch of each thread (perf_event_open of the
 * software "dummy" event with context_switch = 1, time stamped on CLOCK_MONOTONIC, the clock
 * the samples use) into a small ring buffer mapped into the process.  The handler reads the
 * records that arrived since its previous sample (plain loads: usually none, because a thread
 * that computes is rarely switched out): the thread was on a CPU for the whole interval but
 * the gaps between a switch-out and the next switch-in, so its CPU time is the interval minus
 * those gaps, exact to the switch itself (the kernel's own accounting of the thread's CPU
 * time starts and stops at the same switches).
 *
 * Why not the others: reading the clock every Nth sample loses CPU time per sample (a sample
 * in a spin and one in a sleep between two reads would share one figure); a CPU-time timer per
 * thread costs a signal per expiry and ticks at the kernel's 4 ms; the perf mmap page's time
 * fields need cap_user_time (0 on this VM) to be extrapolated between the kernel's updates.
 * The cost moves to the kernel's context switch of a recorded thread (the perf context
 * switched with it and a 16-byte record: about one clock read's cost): a thread that switches
 * more than 4 times per sample reads its clock per sample instead (tp_cpu_take).
 *
 * The writer thread opens each thread's records (perf_event_open for the thread's tid, mmap),
 * so that no OpenMP thread waits in the kernel for that: the first such event on the system
 * enables a kernel static key, which waits for an RCU grace period (12 ms here under load,
 * far more under heavy load).  A thread reads its clock until its records are there.
 *
 * Where the kernel refuses (perf_event_paranoid 3, a seccomp filter, the locked-memory limit
 * for the buffers of many threads: perf_event_mlock_kb, RLIMIT_MEMLOCK) the thread reads the
 * clock per sample as before.  TOMP_PROF_CPU=clock asks for that everywhere (comparisons). */
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rec.h"

uint64_t tp_cpu_ns(void) {
  struct timespec ts;
  if (!tp_g.cfg.cpu || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return TP_CPU_UNKNOWN;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Data pages of a thread's ring buffer: room for the switches of one sampling period at
 * 50,000 switches a second (16 bytes each), at least 2 pages, a power of two (the kernel's
 * rule), at most 64. */
static size_t data_pages(size_t page) {
  size_t want = 16u * 50000u / (tp_g.cfg.hz ? tp_g.cfg.hz : 1), n = 2;
  while (n * page < want && n < 64)
    n *= 2;
  return n;
}

void tp_cpu_start(tp_thread_t *t) {
  t->last_cpu_ns = tp_cpu_ns();
  if (tp_g.cfg.cpu != TP_CPU_SWITCHES) return;
  int none = SW_NONE;
  /* the writer thread opens the records (tp_cpu_open_for): the thread reads its clock until */
  if (atomic_compare_exchange_strong(&t->sw_state, &none, SW_WANTED)) tp_buf_wake_writer();
}

void tp_cpu_open_for(tp_thread_t *t) {
  int want = SW_WANTED;
  if (!atomic_compare_exchange_strong(&t->sw_state, &want, SW_OPENING)) return;
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_DUMMY;
  a.sample_type = PERF_SAMPLE_TIME; /* each record ends in its time stamp (sample_id_all) */
  a.sample_id_all = 1;
  a.context_switch = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  a.exclude_kernel = 1; /* what perf_event_paranoid 2 allows; switch records still come */
  a.exclude_hv = 1;
  a.watermark = 1; /* nobody polls: no wake-ups before the buffer is full */
  size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (1 + data_pages(page)) * page;
  a.wakeup_watermark = (uint32_t)(len - page);
  void *p = MAP_FAILED;
  int fd = (int)syscall(SYS_perf_event_open, &a, (pid_t)t->tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd >= 0) {
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    /* the mapping keeps the event alive: no descriptor is held per thread (a program with
     * thousands of threads keeps its descriptors) */
    close(fd);
  }
  int opening = SW_OPENING;
  if (p == MAP_FAILED) { /* refused: the clock serves this thread */
    atomic_compare_exchange_strong(&t->sw_state, &opening, SW_NONE);
    return;
  }
  struct perf_event_mmap_page *pg = p;
  t->sw_page = p;
  t->sw_len = len;
  t->sw_data = (const char *)p + (pg->data_offset ? pg->data_offset : page);
  t->sw_mask = (pg->data_size ? pg->data_size : len - page) - 1;
  t->sw_tail = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
  t->sw_out = 0;
  t->sw_fresh = 1;
  t->sw_used = 1;
  /* published to the thread's handler; a thread that stopped meanwhile is not */
  if (!atomic_compare_exchange_strong_explicit(&t->sw_state, &opening, SW_READY, memory_order_release,
                                               memory_order_relaxed))
    munmap(p, len);
}

void tp_cpu_stop(tp_thread_t *t) {
  /* our own handler, should it run now, reads the clock; the writer, should it be opening
   * the records now, unmaps them itself */
  if (atomic_exchange(&t->sw_state, SW_STOPPED) == SW_READY) munmap(t->sw_page, t->sw_len);
}

#define SW_WINDOW 64 /* samples */
#define SW_MAX 4      /* switches per sample, on average over a window */

static uint64_t load8(const tp_thread_t *t, uint64_t pos) {
  uint64_t v;
  memcpy(&v, t->sw_data + (pos & t->sw_mask), 8); /* records are 8-byte aligned: no wrap */
  return v;
}

/* CPU time in [from, now] from the switch records since the previous call; *nsw: how many. */
static uint64_t from_switches(tp_thread_t *t, uint64_t from, uint64_t now, uint32_t *nsw) {
  struct perf_event_mmap_page *pg = t->sw_page;
  uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
  uint64_t off = 0, pos = t->sw_tail;
  int unknown = 0;
  *nsw = 0;
  while (pos < head) {
    struct perf_event_header h;
    uint64_t w = load8(t, pos);
    memcpy(&h, &w, sizeof h);
    if (h.size < sizeof h || (h.size & 7) || h.size > head - pos) {
      unknown = 1; /* cannot happen with a sane kernel: start over from the head */
      break;
    }
    if (h.type == PERF_RECORD_SWITCH && h.size >= 16) {
      uint64_t ts = load8(t, pos + h.size - 8); /* sample_id: the time alone */
      ++*nsw;
      if (h.misc & PERF_RECORD_MISC_SWITCH_OUT) {
        if (!t->sw_out) {
          t->sw_out = 1;
          t->sw_out_ns = ts;
        }
      } else if (t->sw_out) {
        uint64_t a = t->sw_out_ns > from ? t->sw_out_ns : from;
        if (ts > a) off += ts - a;
        t->sw_out = 0;
      }
    } else if (h.type == PERF_RECORD_LOST) {
      unknown = 1; /* the buffer overflowed: some switches are missing */
    }
    pos += h.size;
  }
  __atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
  t->sw_tail = head;
  /* the thread runs now: a switch-out without its switch-in means records are missing */
  if (t->sw_out) unknown = 1;
  t->sw_out = 0;
  if (unknown || now < from) return TP_CPU_UNKNOWN;
  return off < now - from ? now - from - off : 0;
}

int tp_cpu_switched(const tp_thread_t *t) {
  if (!t->sw_took || atomic_load_explicit(&t->sw_state, memory_order_acquire) != SW_READY) return -1;
  const struct perf_event_mmap_page *pg = t->sw_page;
  return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) != t->sw_tail;
}

uint64_t tp_cpu_take(tp_thread_t *t, uint64_t from, uint64_t now) {
  t->sw_took = 0;
  if (!tp_g.cfg.cpu) return TP_CPU_UNKNOWN;
  if (atomic_load_explicit(&t->sw_state, memory_order_acquire) == SW_READY && !t->sw_fresh) {
    uint32_t nsw;
    uint64_t cpu = from_switches(t, from, now, &nsw);
    t->sw_took = 1;
    /* A switch costs the kernel about as much as one clock read (0.5-1 us here: the records,
     * and the perf context switched with the thread): a thread that switches more than
     * SW_MAX times per sample (it blocks and wakes in a tight loop) reads its clock per
     * sample from now on, which bounds the records' cost at ~SW_MAX clock reads a sample. */
    t->sw_win_switches += nsw;
    if (++t->sw_win_samples == SW_WINDOW) {
      if (t->sw_win_switches > SW_MAX * SW_WINDOW) {
        t->last_cpu_ns = tp_cpu_ns();
        t->sw_dropped = 1;
        tp_cpu_stop(t);
      }
      t->sw_win_samples = t->sw_win_switches = 0;
    }
    return cpu;
  }
  if (t->sw_fresh && atomic_load_explicit(&t->sw_state, memory_order_acquire) == SW_READY) {
    /* just opened: this interval began before the records did; the clock answers once more,
     * the records from now on */
    uint32_t nsw;
    from_switches(t, from, now, &nsw);
    t->sw_fresh = 0;
  }
  uint64_t c = tp_cpu_ns(), d = TP_CPU_UNKNOWN;
  if (c != TP_CPU_UNKNOWN && t->last_cpu_ns != TP_CPU_UNKNOWN && c >= t->last_cpu_ns)
    d = c - t->last_cpu_ns;
  t->last_cpu_ns = c;
  return d;
}
