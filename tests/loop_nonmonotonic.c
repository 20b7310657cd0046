/* schedule(nonmonotonic:dynamic) (gcc's default for schedule(dynamic)) where threads finish
 * their share at very different times, so that chunks change hands late in the loop (tomp
 * deals the chunks out in per-thread ranges and lets threads steal from each other's): every
 * iteration runs exactly once, lastprivate gets the last iteration's value, chunks have the
 * requested size, for long and unsigned long long loops counting up and down, nowait chains
 * that lap the worksharing ring, combined parallel loops, and more threads than CPUs or
 * iterations; schedule(runtime) with run-sched-var dynamic (nonmonotonic, and monotonic via
 * omp_set_schedule: then a thread's iterations increase) and a linear clause.
 * test-env: OMP_SCHEDULE=dynamic,2
 * test-timeout: 60
 * test-libomp-fails: on libomp 14 no thread ends with the last iteration's lastprivate value
 */
#include <omp.h>
#include <string.h>

#include "check.h"

#define N 3001
static int hit[N];
static int owner[N];

static void reset(void) {
  memset(hit, 0, sizeof hit);
  memset(owner, -1, sizeof owner);
}

/* Iterations in the first part of the space are slow: the threads dealt the rest run out
 * of work first and must take chunks from that part. */
static void work(long i, long n) {
  volatile long sink = 0;
  long spin = i < n / 3 ? 400 : 1;
  for (long k = 0; k < spin; k++)
    sink += k;
}

static void run(long i, long n) {
  CHECKF(i >= 0 && i < n, "iteration %ld outside [0, %ld)", i, n);
  __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
  __atomic_store_n(&owner[i], omp_get_thread_num(), __ATOMIC_RELAXED);
  work(i, n);
}

static void expect_once(long n, const char *what, int t) {
  for (long i = 0; i < n; i++)
    CHECKF(hit[i] == 1, "%s, %d threads, n %ld: iteration %ld ran %d times", what, t, n, i, hit[i]);
}

/* Iterations a thread ran outside the contiguous block a static schedule would have given it
 * (informational: shows chunks moving between threads). */
static long moved(long n, int t) {
  long m = 0;
  for (long i = 0; i < n; i++)
    if (owner[i] != (int)(i * t / n)) m++;
  return m;
}

int main(void) {
  long total_moved = 0;
  for (int t = 1; t <= 6; t++)
    for (int mono = 0; mono <= 1; mono++) {
      omp_set_schedule(
          mono ? (omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic) : omp_sched_dynamic, 2);
      for (long n = 0; n <= N; n += (n < 12 ? 1 : 997)) {
        reset();
        long last = -1, lin = 7;
#pragma omp parallel for num_threads(t) schedule(dynamic) lastprivate(last)
        for (long i = 0; i < n; i++) {
          run(i, n);
          last = i;
        }
        expect_once(n, "combined dynamic", t);
        if (n) CHECKF(last == n - 1, "lastprivate %ld, expected %ld (%d threads)", last, n - 1, t);
        total_moved += moved(n, t);

        reset();
#pragma omp parallel num_threads(t)
        {
          /* a nowait chain: the same slots and ranges reused while others still steal */
          for (int r = 0; r < 12; r++) {
#pragma omp for schedule(nonmonotonic : dynamic, 3) nowait
            for (long i = 0; i < n; i++)
              if (i % 12 == r) run(i, n);
          }
#pragma omp barrier
#pragma omp single
          {
            for (long i = 0; i < n; i++)
              CHECKF(hit[i] == 1, "nowait chain, %d threads, n %ld: iteration %ld ran %d times", t,
                     n, i, hit[i]);
            reset();
          }
          /* chunk of 5 counting down: a thread's runs of consecutive iterations start and end
           * at chunk boundaries (logical multiples of 5, or the loop's end) */
          long prev = -2;
#pragma omp for schedule(dynamic, 5) lastprivate(last)
          for (long i = n - 1; i >= 0; i--) {
            long k = n - 1 - i; /* logical iteration */
            if (k != prev + 1) {
              CHECKF(k % 5 == 0, "a chunk starts at logical iteration %ld (chunk size 5)", k);
              CHECKF(prev == -2 || prev % 5 == 4, "a chunk ends at logical iteration %ld", prev);
            }
            prev = k;
            run(i, n);
            last = i;
          }
          CHECKF(prev == -2 || prev % 5 == 4 || prev == n - 1, "a chunk ends at %ld", prev);
#pragma omp single
          {
            expect_once(n, "dynamic,5 down", t);
            if (n) CHECKF(last == 0, "lastprivate %ld after counting down (%d threads)", last, t);
            reset();
          }
          /* unsigned long long, a large base and a step of 7 counting down */
          unsigned long long top = 0xfffffffffff00000ull, bot = top - 7ull * (unsigned long long)n;
#pragma omp for schedule(dynamic, 2)
          for (unsigned long long u = top; u > bot; u -= 7)
            run((long)((top - u) / 7), n);
#pragma omp single
          {
            expect_once(n, "ull dynamic,2", t);
            reset();
            lin = 7;
          }
          long mine = -1;
#pragma omp for schedule(runtime) linear(lin : 1)
          for (long i = 0; i < n; i++) {
            CHECKF(lin == 7 + i, "linear %ld at iteration %ld", lin, i);
            CHECKF(!mono || i > mine, "monotonic: iteration %ld after %ld", i, mine);
            mine = i;
            lin++;
            run(i, n);
          }
#pragma omp single
          {
            expect_once(n, mono ? "runtime monotonic" : "runtime", t);
            CHECKF(lin == 7 + n, "linear %ld after the loop, expected %ld", lin, 7 + n);
          }
        }
      }
    }
  printf("iterations run outside their static block: %ld\n", total_moved);
  return 0;
}
