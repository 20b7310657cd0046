/* Library start-up, global state and the runtime's messages. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi.h"
#include "internal.h"

tomp_global_t tomp_g;
unsigned long tomp_spin_count = 1ul << 16;
unsigned long tomp_spin_polls_per_ms = 1ul << 15;
bool tomp_warnings_off;
unsigned long tomp_spin_count_oversub = 256;
bool tomp_spin_oversub_scaled = true;
unsigned tomp_nthreads_live = 1;
unsigned tomp_num_procs = 1;

static void vmsg(const char *prefix, const char *fmt, va_list ap) {
  char buf[512];
  int n = snprintf(buf, sizeof buf, "%s", prefix);
  if (n < 0) n = 0;
  int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
  if (m < 0) m = 0;
  size_t len = strlen(buf);
  buf[len++] = '\n';
  /* one write so concurrent messages do not interleave */
  ssize_t r = write(2, buf, len);
  (void)r;
}

void tomp_warn(const char *fmt, ...) {
  if (__atomic_load_n(&tomp_warnings_off, __ATOMIC_RELAXED)) return;
  va_list ap;
  va_start(ap, fmt);
  vmsg("tomp: ", fmt, ap);
  va_end(ap);
}

void tomp_warn_llvm(int number, const char *fmt, ...) {
  if (__atomic_load_n(&tomp_warnings_off, __ATOMIC_RELAXED)) return;
  char prefix[32];
  snprintf(prefix, sizeof prefix, "OMP: Warning #%d: ", number);
  va_list ap;
  va_start(ap, fmt);
  vmsg(prefix, fmt, ap);
  va_end(ap);
}

void tomp_inform(int number, const char *fmt, ...) {
  char prefix[32];
  if (tomp_llvm_only()) snprintf(prefix, sizeof prefix, "OMP: Info #%d: ", number);
  else snprintf(prefix, sizeof prefix, "tomp: ");
  va_list ap;
  va_start(ap, fmt);
  vmsg(prefix, fmt, ap);
  va_end(ap);
}

void tomp_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("tomp: fatal: ", fmt, ap);
  va_end(ap);
  abort();
}

void *tomp_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (tomp_unlikely(!p)) tomp_fatal("out of memory allocating %zu bytes", n);
  return p;
}

void *tomp_calloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz ? sz : 1);
  if (tomp_unlikely(!p)) tomp_fatal("out of memory allocating %zu x %zu bytes", n, sz);
  return p;
}

void tomp_mutex_lock_slow(tomp_mutex_t *m) {
  for (int i = 0; i < 100; i++) {
    tomp_cpu_relax();
    uint32_t v = tomp_load_rlx(&m->v);
    if (!(v & 1) && tomp_cas(&m->v, &v, v | 1)) return;
  }
  /* register as a waiter; leave the count when taking the lock */
  uint32_t v = __atomic_add_fetch(&m->v, 2, __ATOMIC_ACQ_REL);
  for (;;) {
    if (!(v & 1)) {
      if (tomp_cas(&m->v, &v, (v | 1) - 2)) return;
      continue;
    }
    tomp_futex_wait(&m->v, v);
    v = tomp_load_rlx(&m->v);
  }
}

static int initialised;

/* The default spin budget is a time, not a count: a pause instruction costs from a few to
 * ~150 cycles depending on the CPU.  2 ms of polling before a futex sleep: a sleeper's
 * wake-up costs tens to hundreds of microseconds on a virtual machine (an idle vCPU is
 * halted), so a shorter budget turns every uneven barrier into a sleep.  Measured on the
 * 2-vCPU VM of docs/benchmarks.md, jacobi (250 barriers between ~0.1 ms sweeps) at 2
 * threads: 30 us of polling 1.35 ns per point, 1 ms 0.41, 2 ms 0.40 (libgomp, which polls
 * 300000 pauses, ~5 ms here: 0.42); task_tree 400 -> ~200 ns per task.  libomp spins for
 * 200 ms (KMP_BLOCKTIME).  OMP_WAIT_POLICY and GOMP_SPINCOUNT (env.c) override it. */
#define TOMP_SPIN_NS 2000000.0

static void calibrate_spin(void) {
  double best = 1e9;
  for (int round = 0; round < 3; round++) {
    double t0 = (double)tomp_now_ns();
    for (int i = 0; i < 256; i++) tomp_cpu_relax();
    double dt = ((double)tomp_now_ns() - t0) / 256;
    if (dt < best) best = dt;
  }
  if (best < 0.5) best = 0.5;
  tomp_spin_count = (unsigned long)(TOMP_SPIN_NS / best);
  tomp_spin_polls_per_ms = (unsigned long)(1e6 / best); /* KMP_BLOCKTIME's unit (env_kmp.c) */
}

/* glibc's malloc serves a block of 128 KiB or more with an mmap of its own and gives the
 * heap's top back to the system once 128 KiB of it are free; both thresholds rise when the
 * program frees an mmapped block larger than the mmap threshold (mallopt(3): it becomes the
 * block's size, the trim threshold twice that).  A program that allocates and frees a few
 * temporaries just under 128 KiB per time step then faults their pages in again every step:
 * LULESH -s 12 -i 100 took 14,386 page faults on tomp, about 20 ms of a 0.1 s run at one
 * thread, against 475 on libomp 14, whose start-up happens to free a block of 1 MiB (strace:
 * an mmap of 1,052,672 bytes and its munmap) and so raises both thresholds for the program.
 * tomp does the same on purpose: one block of 1 MiB, mapped and unmapped, none of its pages
 * touched but the header's.  A threshold the user set (mallopt, MALLOC_MMAP_THRESHOLD_,
 * MALLOC_TRIM_THRESHOLD_, GLIBC_TUNABLES) stops glibc's adjustment and stays as set. */
static void malloc_thresholds(void) {
#ifdef __GLIBC__
  void *volatile block = malloc((size_t)1 << 20);
  free(block);
#endif
}

void tomp_init(void) {
  if (__atomic_exchange_n(&initialised, 1, __ATOMIC_ACQ_REL)) return;
  long np = sysconf(_SC_NPROCESSORS_ONLN);
  tomp_num_procs = np > 0 ? (unsigned)np : 1;
  calibrate_spin();
  malloc_thresholds();
  tomp_affinity_init();
  tomp_env_init();
  tomp_thread_init_initial();
  tomp_observers_start(); /* OMPT looks for a tool here */
}

__attribute__((constructor(101))) static void tomp_ctor(void) {
  tomp_init();
}
