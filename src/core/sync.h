/* Low-level synchronisation primitives: atomics, futexes, spin-then-sleep waiting and a
 * futex mutex.  Everything that blocks in tomp blocks through here, so the wait policy
 * (OMP_WAIT_POLICY, GOMP_SPINCOUNT) is applied in one place. */
#ifndef TOMP_SYNC_H
#define TOMP_SYNC_H

#include <stdbool.h>
#include <sched.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TOMP_CACHELINE 64
#define tomp_likely(x) __builtin_expect(!!(x), 1)
#define tomp_unlikely(x) __builtin_expect(!!(x), 0)

#define tomp_load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define tomp_load_rlx(p) __atomic_load_n((p), __ATOMIC_RELAXED)
/* CLOCK_MONOTONIC in nanoseconds (the vDSO: no system call) */
static inline uint64_t tomp_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Store v in lvalue x unless it already holds v: a shared line other threads read stays
 * valid in their caches (for data only this thread writes while they do not look). */
#define TOMP_SET(x, v)                                                                             \
  do {                                                                                             \
    __typeof__(x) tomp_set_v_ = (v);                                                               \
    if ((x) != tomp_set_v_) (x) = tomp_set_v_;                                                     \
  } while (0)
#define tomp_store_rel(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define tomp_store_rlx(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define tomp_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
#define tomp_add_fetch(p, v) __atomic_add_fetch((p), (v), __ATOMIC_ACQ_REL)
#define tomp_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_ACQ_REL)
#define tomp_cas(p, expp, v)                                                                       \
  __atomic_compare_exchange_n((p), (expp), (v), false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)

static inline void tomp_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#else
  __asm__ __volatile__("" ::: "memory");
#endif
}

/* tomp's threads inside tomp_futex_wait: not runnable (wait.c counts them out of the runnable
 * threads it may blame on another program) */
struct tomp_sleepers {
  uint32_t n;
} __attribute__((aligned(64))); /* a line of its own: changed twice per sleep, by every sleeper */
extern struct tomp_sleepers tomp_sleepers;
extern bool tomp_busy_sampling; /* false: never busy (OMP_WAIT_POLICY=active, GOMP_SPINCOUNT) */
static inline void tomp_futex_wait(uint32_t *addr, uint32_t val) {
  /* the count serves only the busy verdict: without it, a sleep costs no shared write */
  bool counted = tomp_load_rlx(&tomp_busy_sampling);
  if (counted) __atomic_add_fetch(&tomp_sleepers.n, 1, __ATOMIC_RELAXED);
  syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
  if (counted) __atomic_sub_fetch(&tomp_sleepers.n, 1, __ATOMIC_RELAXED);
}

static inline void tomp_futex_wake(uint32_t *addr, int n) {
  syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Number of polls before a waiter sleeps; set from OMP_WAIT_POLICY / GOMP_SPINCOUNT and
 * reduced when threads outnumber processors or the machine is busy (spinning then only
 * steals the CPU the thread we wait for needs). */
extern unsigned long tomp_spin_count;
extern unsigned long tomp_spin_polls_per_ms; /* polls in a millisecond, measured at start-up */
extern unsigned long tomp_spin_count_oversub;
/* false with OMP_WAIT_POLICY=active: the oversubscribed budget stays whole (see below) */
extern bool tomp_spin_oversub_scaled;
extern unsigned tomp_nthreads_live; /* threads that may spin: workers + initial thread */
extern unsigned tomp_num_procs;

/* A busy machine (wait.c): at the last sample more threads were runnable than there are
 * CPUs, so the thread a waiter polls for may be waiting for a CPU.  A wait then polls only
 * for about what a futex wake-up costs, less the more other programs' threads compete per
 * CPU (tomp_spins_contended: the budget set at each sample), and sleeps: a sleeper's CPU
 * goes to whoever needs it, the scheduler may move the awaited thread there, and a woken
 * sleeper runs promptly; but while other programs leave a CPU free it polls for 200 ms, so
 * that our threads keep their CPUs.  When
 * tomp's own threads outnumber the CPUs, polls yield instead (below), and what counts is
 * whether a yield recently gave the CPU away for long (tomp_yield_slow): then another
 * program had it, and waits sleep at once for a while.  Sampled from inside waits, at most
 * once per millisecond. */
extern uint32_t tomp_machine_busy;
extern uint32_t tomp_yield_slow;
void tomp_busy_sample(void) __attribute__((visibility("hidden")));
void tomp_wait_poll_look(void) __attribute__((visibility("hidden")));
void tomp_wait_atfork_child(void) __attribute__((visibility("hidden")));
unsigned long tomp_spins_contended(void) __attribute__((visibility("hidden")));
void tomp_wait_yield(void) __attribute__((visibility("hidden")));
/* per thread: this wait yields at each poll (decided when it starts, with its budget); polls
 * and busy waits since the last look at the sample */
extern __thread bool tomp_wait_yields __attribute__((tls_model("initial-exec")))
__attribute__((visibility("hidden")));
extern __thread uint32_t tomp_wait_polls __attribute__((tls_model("initial-exec")))
__attribute__((visibility("hidden")));
#define TOMP_BUSY_POLLS 64 /* polls between two looks at the busy sample */

/* Oversubscribed, a poll yields the CPU (tomp_wait_pause) to one of the live / procs
 * runnable threads per CPU, so the more there are, the less likely the one we wait for is
 * the one that runs, and the longer a round of yields takes: the budget shrinks in
 * proportion, and a team far larger than the machine sleeps at once (a region of 10,000
 * threads on 2 CPUs: 256 yields per wait and thread were 6.8 s; docs/benchmarks.md). */
static inline unsigned long tomp_spins_oversub(unsigned live) {
  unsigned long b = tomp_load_rlx(&tomp_spin_count_oversub); /* kmp_set_blocktime writes it */
  return tomp_spin_oversub_scaled ? b * tomp_num_procs / live : b;
}

/* A wait on a busy machine starts: no yields unless decided otherwise, and a wait with too
 * few polls to look at the sample still renews it now and then. */
static inline void tomp_busy_wait_start(void) {
  tomp_wait_yields = false;
  if (++tomp_wait_polls >= TOMP_BUSY_POLLS) tomp_busy_sample();
}

/* After a slow yield with others runnable: no polls, the wait sleeps at once. */
static inline unsigned long tomp_spins_none(void) {
  tomp_busy_wait_start();
  return 0;
}

/* The budget of the wait that starts now: the caller polls that many times, calling
 * tomp_wait_pause between polls, then sleeps. */
static inline unsigned long tomp_spins(void) {
  unsigned live = tomp_load_rlx(&tomp_nthreads_live);
  if (tomp_likely(live <= tomp_num_procs)) {
    if (tomp_unlikely(tomp_load_rlx(&tomp_machine_busy))) return tomp_spins_contended();
    tomp_wait_yields = false;
    return tomp_load_rlx(&tomp_spin_count);
  }
  if (tomp_unlikely(tomp_load_rlx(&tomp_yield_slow))) return tomp_spins_none();
  tomp_wait_yields = true;
  return tomp_spins_oversub(live);
}

/* One poll's pause in a wait loop.  Oversubscribed, the thread we wait for is likely one of
 * ours waiting for our CPU: a poll then yields it (tomp_wait_yield, timed), so a hand-over
 * costs a context switch instead of a futex sleep and wake-up (the budget, tomp_spins(),
 * then counts yields).  Every TOMP_BUSY_POLLS polls the busy sample may be renewed. */
static inline void tomp_wait_pause(void) {
  if (tomp_wait_yields)
    tomp_wait_yield();
  else
    tomp_cpu_relax();
  if (tomp_unlikely(++tomp_wait_polls >= TOMP_BUSY_POLLS)) tomp_wait_poll_look();
}

/* The i-th poll of a wait that has no futex to sleep on (a worker leaving its previous
 * region, which takes moments): pause, after 64 polls yield, and on a busy machine sleep a
 * moment instead (a yield would give the CPU to another program for a whole slice). */
static inline void tomp_wait_backoff(unsigned i) {
  if (i < 64) {
    tomp_cpu_relax();
  } else if (!tomp_load_rlx(&tomp_machine_busy)) {
    sched_yield();
  } else {
    struct timespec ts = {0, 1000};
    nanosleep(&ts, NULL); /* the timer slack makes it some 50 us */
  }
}

/* Wait until *addr != val: spin for the wait policy's budget, then sleep on the futex.
 * The waker must change *addr before calling tomp_futex_wake(addr, ...). */
static inline void tomp_wait_while_eq(uint32_t *addr, uint32_t val) {
  unsigned long n = tomp_spins();
  for (unsigned long i = 0; i < n; i++) {
    if (tomp_load_acq(addr) != val) return;
    tomp_wait_pause();
  }
  while (tomp_load_acq(addr) == val) tomp_futex_wait(addr, val);
}

/* A futex mutex: bit 0 is the lock, the other bits count the threads that sleep (or are
 * about to) on it.  Unlike a three-state mutex, the "has waiters" mark leaves with the last
 * waiter, so one contended moment does not make every later unlock a system call.  Four
 * bytes, so it also serves as omp_lock_t in GCC's layout. */
typedef struct {
  uint32_t v;
} tomp_mutex_t;
#define TOMP_MUTEX_INIT {0}

static inline bool tomp_mutex_trylock(tomp_mutex_t *m) {
  uint32_t v = tomp_load_rlx(&m->v);
  while (!(v & 1))
    if (tomp_cas(&m->v, &v, v | 1)) return true;
  return false;
}

void tomp_mutex_lock_slow(tomp_mutex_t *m);

static inline void tomp_mutex_lock(tomp_mutex_t *m) {
  uint32_t z = 0;
  if (tomp_likely(tomp_cas(&m->v, &z, 1))) return;
  tomp_mutex_lock_slow(m);
}

static inline void tomp_mutex_unlock(tomp_mutex_t *m) {
  if (tomp_unlikely(__atomic_sub_fetch(&m->v, 1, __ATOMIC_RELEASE) != 0))
    tomp_futex_wake(&m->v, 1);
}

#endif
