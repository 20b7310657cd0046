/* tomp-prof report test: directed blame with two holders of one lock, the pattern that
 * charged the blame to the wrong holder when blame was counted per lock and taken at release.
 * Thread 0 calls long_lock_holder(), which keeps the lock for a long computation; thread 1
 * calls short_lock_holder(), which takes the same lock for a moment, so thread 1 spends
 * most of its time waiting for thread 0.  When thread 0 releases, thread 1 often
 * acquires and releases before thread 0's release callback has run.  The blame for thread
 * 1's waits belongs to long_lock_holder.  Thread 1 contends once per long hold (it waits
 * until thread 0 is inside), so it never keeps the lock from thread 0.  The same again with
 * one critical section entered from long_critical_holder() and short_critical_holder(). */
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static double shared_sum;
static int done;
#define HOLD 150000 /* iterations of long_work: about 0.4 ms */
#define ROUNDS 600

static int holds; /* long holds begun so far (counted inside the lock) */

static void begun(void) { __atomic_fetch_add(&holds, 1, __ATOMIC_RELEASE); }

static __attribute__((noinline)) double long_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 7);
  return s;
}

__attribute__((noinline)) double gap_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 3);
  return s;
}

__attribute__((noinline)) void long_lock_holder(long n) {
  omp_set_lock(&lock);
  begun();
  shared_sum += long_work(n);
  omp_unset_lock(&lock);
  __asm__ volatile("" ::: "memory"); /* no tail call: the release happens here */
}

__attribute__((noinline)) void short_lock_holder(void) {
  omp_set_lock(&lock);
  shared_sum += 1;
  omp_unset_lock(&lock);
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void long_critical_holder(long n) {
#pragma omp critical
  {
    begun();
    shared_sum += long_work(n);
  }
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void short_critical_holder(void) {
#pragma omp critical
  shared_sum += 1;
  __asm__ volatile("" ::: "memory");
}

static long short_rounds[2];
static double gap_sum; /* thread 0's */

/* Thread 1: wait until thread 0 has begun a hold it has not contended for yet (so that it
 * contends with every long hold and never keeps the lock from thread 0); 0 when done. */
static int next_hold(int *seen) {
  for (;;) {
    int h = __atomic_load_n(&holds, __ATOMIC_ACQUIRE);
    if (h != *seen) {
      *seen = h;
      return 1;
    }
    if (__atomic_load_n(&done, __ATOMIC_ACQUIRE)) return 0;
  }
}

int main(void) {
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num(), seen = 0;
    if (me == 0) {
      for (int i = 0; i < ROUNDS; i++) {
        long_lock_holder(HOLD);
        gap_sum += gap_work(HOLD / 2); /* time for the short holder to wake up and pass */
      }
      __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    } else {
      while (next_hold(&seen)) {
        short_lock_holder();
        short_rounds[0]++;
      }
    }
#pragma omp barrier
#pragma omp single
    done = 0;
    if (me == 0) {
      for (int i = 0; i < ROUNDS; i++) {
        long_critical_holder(HOLD);
        gap_sum += gap_work(HOLD / 2);
      }
      __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    } else {
      seen = __atomic_load_n(&holds, __ATOMIC_ACQUIRE);
      while (next_hold(&seen)) {
        short_critical_holder();
        short_rounds[1]++;
      }
    }
  }
  omp_destroy_lock(&lock);
  printf("sum %g, short holds %ld %ld\n", shared_sum + gap_sum, short_rounds[0], short_rounds[1]);
  return shared_sum > 0 && short_rounds[0] > 0 && short_rounds[1] > 0 ? 0 : 1;
}
