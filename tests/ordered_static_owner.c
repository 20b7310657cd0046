/* Which thread runs which iteration of a static schedule that goes through the runtime: ordered
 * loops (gcc calls GOMP_loop_ordered_static_start/next for them) and schedule(runtime) with a
 * static run-sched-var.  OpenMP 5.2, 11.5.3 (schedule clause): "If the kind argument is static,
 * chunks of increasing collapsed iteration numbers are assigned to the threads of the team in a
 * round-robin fashion in the order of the thread number.  Each chunk includes chunk_size
 * collapsed iterations, except possibly for the chunk that contains the sequentially last
 * iteration ... If chunk_size is not specified, the collapsed iteration space is divided into
 * chunks that are approximately equal in size, and at most one chunk is distributed to each
 * thread."  So with schedule(static, c) iteration i runs on thread (i / c) % nthreads, and each
 * thread's iterations without a chunk size are one contiguous block, the blocks in thread order.
 *
 * Why a test: EPCC's syncbench times `ordered schedule(static,1)`; a runtime that hands the
 * iterations out in blocks instead (libomp 14 does so for gcc's ordered static entry points: on
 * 4 threads iterations 0-3 all ran on thread 0) needs nthreads - 1 hand-overs per loop instead of
 * one per iteration and looks 40x faster there (docs/benchmarks.md, "EPCC").  This keeps tomp on
 * the specified schedule. */
#include <omp.h>

#include "check.h"

#define N 203 /* not a multiple of any team size or chunk used */
static int owner[N], seq[N], pos;

static void reset(void) {
  pos = 0;
  for (int i = 0; i < N; i++)
    owner[i] = seq[i] = -1;
}

/* iteration i of chunk size c on t threads: round robin */
static void check_chunked(int t, int c, const char *what) {
  for (int i = 0; i < N; i++)
    CHECKF(owner[i] == (i / c) % t, "%s, %d threads, chunk %d: iteration %d ran on thread %d", what,
           t, c, i, owner[i]);
}

/* no chunk size: contiguous blocks in thread order, sizes differing by at most one */
static void check_blocks(int t, const char *what) {
  int lo = N, hi = 0;
  for (int i = 1; i < N; i++)
    CHECKF(owner[i] == owner[i - 1] || owner[i] == owner[i - 1] + 1,
           "%s, %d threads: iteration %d on thread %d after %d on thread %d", what, t, i, owner[i],
           i - 1, owner[i - 1]);
  for (int k = 0; k < t; k++) {
    int n = 0;
    for (int i = 0; i < N; i++)
      n += owner[i] == k;
    if (n < lo) lo = n;
    if (n > hi) hi = n;
  }
  CHECKF(owner[0] == 0 && hi - lo <= 1, "%s, %d threads: blocks of %d to %d iterations", what, t,
         lo, hi);
}

int main(void) {
  omp_set_dynamic(0);
  for (int t = 1; t <= 4; t++) {
    int chunks[] = {1, 2, 7};
    for (unsigned k = 0; k < sizeof chunks / sizeof *chunks; k++) {
      int c = chunks[k];
      reset();
#pragma omp parallel for ordered schedule(static, c) num_threads(t)
      for (int i = 0; i < N; i++) {
#pragma omp ordered
        {
          owner[i] = omp_get_thread_num();
          seq[pos++] = i;
        }
      }
      check_chunked(t, c, "ordered schedule(static, c)");
      for (int i = 0; i < N; i++)
        CHECKF(seq[i] == i, "ordered, %d threads, chunk %d: position %d ran iteration %d", t, c, i,
               seq[i]);
      omp_set_schedule(omp_sched_static, c);
      reset();
#pragma omp parallel for schedule(runtime) num_threads(t)
      for (int i = 0; i < N; i++)
        owner[i] = omp_get_thread_num();
      check_chunked(t, c, "schedule(runtime), run-sched-var static, c");
    }
    reset();
#pragma omp parallel for ordered schedule(static) num_threads(t)
    for (int i = 0; i < N; i++) {
#pragma omp ordered
      {
        owner[i] = omp_get_thread_num();
        seq[pos++] = i;
      }
    }
    check_blocks(t, "ordered schedule(static)");
    for (int i = 0; i < N; i++)
      CHECKF(seq[i] == i, "ordered static, %d threads: position %d ran iteration %d", t, i, seq[i]);
    omp_set_schedule(omp_sched_static, 0);
    reset();
#pragma omp parallel for schedule(runtime) num_threads(t)
    for (int i = 0; i < N; i++)
      owner[i] = omp_get_thread_num();
    check_blocks(t, "schedule(runtime), run-sched-var static");
  }
  printf("ok\n");
  return 0;
}
