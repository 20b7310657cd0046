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

static inline void tomp_futex_wait(uint32_t *addr, uint32_t val) {
  syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static inline void tomp_futex_wake(uint32_t *addr, int n) {
  syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Number of polls before a waiter sleeps; set from OMP_WAIT_POLICY / GOMP_SPINCOUNT and
 * reduced when threads outnumber processors (spinning then only steals the CPU the thread
 * we wait for needs). */
extern unsigned long tomp_spin_count;
extern unsigned long tomp_spin_count_oversub;
/* false with OMP_WAIT_POLICY=active: the oversubscribed budget stays whole (see below) */
extern bool tomp_spin_oversub_scaled;
extern unsigned tomp_nthreads_live; /* threads that may spin: workers + initial thread */
extern unsigned tomp_num_procs;

/* Oversubscribed, a poll yields the CPU (tomp_wait_pause) to one of the live / procs
 * runnable threads per CPU, so the more there are, the less likely the one we wait for is
 * the one that runs, and the longer a round of yields takes: the budget shrinks in
 * proportion, and a team far larger than the machine sleeps at once (a region of 10,000
 * threads on 2 CPUs: 256 yields per wait and thread were 6.8 s; docs/benchmarks.md). */
static inline unsigned long tomp_spins_oversub(unsigned live) {
  unsigned long b = tomp_spin_count_oversub;
  return tomp_spin_oversub_scaled ? b * tomp_num_procs / live : b;
}

static inline unsigned long tomp_spins(void) {
  unsigned live = tomp_load_rlx(&tomp_nthreads_live);
  return tomp_likely(live <= tomp_num_procs) ? tomp_spin_count : tomp_spins_oversub(live);
}

/* One poll's pause in a wait loop.  Oversubscribed, the thread we wait for may be waiting
 * for our CPU: a poll then yields it, so a hand-over costs a context switch instead of a
 * futex sleep and wake-up (the budget, tomp_spins(), then counts yields). */
static inline void tomp_wait_pause(void) {
  if (tomp_load_rlx(&tomp_nthreads_live) > tomp_num_procs)
    sched_yield();
  else
    tomp_cpu_relax();
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
