/* LLVM ABI loops: __kmpc_for_static_init_4/4u/8/8u (plain, chunked, simd-balanced), and
 * __kmpc_dispatch_init/next_* for dynamic, guided, runtime, auto, with the monotonic and
 * nonmonotonic modifiers, over signed and unsigned 32- and 64-bit induction variables counting
 * up and down; lastprivate (the thread told it runs the last iteration), ordered, doacross,
 * sections (a static loop over the section numbers); chunked static loops in a team of one
 * (tomp answers them with one block).  Every iteration must run exactly once. */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "../check.h"

#define N 1003
static int hit[N];

static void reset(void) {
  memset(hit, 0, sizeof hit);
}
static void check_all(const char *what) {
  for (int i = 0; i < N; i++)
    CHECKF(hit[i] == 1, "%s: iteration %d ran %d times", what, i, hit[i]);
}
#define HIT(i) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED)

int main(void) {
  omp_set_dynamic(0);
  omp_set_num_threads(3);
  int last = -1;

  /* static, every integer type, up and down */
  reset();
#pragma omp parallel for schedule(static) lastprivate(last)
  for (int i = 0; i < N; i++) {
    HIT(i);
    last = i;
  }
  check_all("static int");
  CHECK(last == N - 1);

  reset();
#pragma omp parallel for schedule(static, 7)
  for (unsigned i = N; i > 0; i--)
    HIT(i - 1);
  check_all("static,7 unsigned down");

  reset();
#pragma omp parallel for schedule(static, 5)
  for (long long i = (long long)N * 3 - 3; i >= 0; i -= 3)
    HIT(i / 3);
  check_all("static,5 long long step -3");

  reset();
  unsigned long long big = 0xffffffff00000000ull;
#pragma omp parallel for schedule(static) lastprivate(last)
  for (unsigned long long i = big; i < big + N; i++) {
    HIT(i - big);
    last = (int)(i - big);
  }
  check_all("static unsigned long long");
  CHECK(last == N - 1);

  reset();
#pragma omp parallel for simd schedule(simd : static)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("simd:static");

  /* simd:runtime (clang 14 passes it as runtime with the nonmonotonic modifier) */
  omp_set_schedule(omp_sched_static, 3);
  reset();
#pragma omp parallel for simd schedule(simd : runtime)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("simd:runtime (static,3)");
  omp_set_schedule(omp_sched_dynamic, 5);
  reset();
#pragma omp parallel for simd schedule(simd : runtime)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("simd:runtime (dynamic,5)");
  omp_set_schedule(omp_sched_static, 0);
  reset();
#pragma omp parallel for simd schedule(simd : runtime)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("simd:runtime (static)");

  /* fewer iterations than threads: the idle threads get an empty range */
  int few[2] = {0, 0};
#pragma omp parallel for schedule(static) num_threads(4)
  for (int i = 0; i < 2; i++)
    __atomic_add_fetch(&few[i], 1, __ATOMIC_RELAXED);
  CHECK(few[0] == 1 && few[1] == 1);

  /* dispatch: every schedule kind, with lastprivate */
  reset();
#pragma omp parallel for schedule(dynamic, 3) lastprivate(last)
  for (int i = 0; i < N; i++) {
    HIT(i);
    last = i;
  }
  check_all("dynamic,3");
  CHECK(last == N - 1);

  reset();
#pragma omp parallel for schedule(monotonic : dynamic)
  for (unsigned i = 0; i < N; i++)
    HIT(i);
  check_all("monotonic:dynamic");

  reset();
#pragma omp parallel for schedule(nonmonotonic : dynamic, 2)
  for (long long i = N - 1; i >= 0; i--)
    HIT(i);
  check_all("nonmonotonic:dynamic,2 down");

  reset();
#pragma omp parallel for schedule(guided, 4) lastprivate(last)
  for (unsigned long long i = 0; i < N; i++) {
    HIT(i);
    last = (int)i;
  }
  check_all("guided,4 ull");
  CHECK(last == N - 1);

  reset();
  omp_set_schedule(omp_sched_guided, 2);
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("runtime (guided,2)");

  reset();
  omp_set_schedule(omp_sched_static, 0);
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("runtime (static)");

  reset();
#pragma omp parallel for schedule(auto)
  for (int i = 0; i < N; i++)
    HIT(i);
  check_all("auto");

  /* worksharing loops inside one region, nowait, and orphaned */
  reset();
#pragma omp parallel
  {
#pragma omp for schedule(dynamic) nowait
    for (int i = 0; i < N / 2; i++)
      HIT(i);
#pragma omp for schedule(static, 3)
    for (int i = N / 2; i < N; i++)
      HIT(i);
  }
  check_all("two loops");

  /* ordered: the ordered parts run in iteration order */
  int seq[N], pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 2)
  for (int i = 0; i < N; i++) {
#pragma omp ordered
    seq[pos++] = i;
  }
  CHECK(pos == N);
  for (int i = 0; i < N; i++)
    CHECKF(seq[i] == i, "ordered position %d holds %d", i, seq[i]);

  pos = 0;
#pragma omp parallel for ordered schedule(static)
  for (int i = N - 1; i >= 0; i--) {
#pragma omp ordered
    seq[pos++] = i;
  }
  for (int i = 0; i < N; i++)
    CHECKF(seq[i] == N - 1 - i, "ordered down %d holds %d", i, seq[i]);

  /* doacross: each row waits for the row above; a[i][j] = a[i-1][j] + a[i][j-1] chain */
  enum { R = 40, C = 30 };
  static long a[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = (i == 0 || j == 0) ? 1 : 0;
#pragma omp parallel for ordered(2) schedule(static, 1)
  for (int i = 1; i < R; i++)
    for (int j = 1; j < C; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      a[i][j] = a[i - 1][j] + a[i][j - 1];
#pragma omp ordered depend(source)
    }
  /* binomial numbers: a[i][j] = C(i + j, i) mod 2^64 */
  for (int i = 1; i < R; i++)
    for (int j = 1; j < C; j++)
      CHECKF(a[i][j] == a[i - 1][j] + a[i][j - 1], "doacross %d,%d", i, j);
  CHECK(a[2][2] == 6 && a[3][3] == 20);

  static long b[200];
  b[0] = 1;
#pragma omp parallel for ordered(1) schedule(dynamic, 3)
  for (int i = 1; i < 200; i++) {
#pragma omp ordered depend(sink : i - 1)
    b[i] = b[i - 1] + 1;
#pragma omp ordered depend(source)
  }
  for (int i = 0; i < 200; i++)
    CHECKF(b[i] == i + 1, "doacross dynamic b[%d] = %ld", i, b[i]);

  /* sections */
  int sec[5] = {0};
#pragma omp parallel sections
  {
#pragma omp section
    sec[0]++;
#pragma omp section
    sec[1]++;
#pragma omp section
    sec[2]++;
#pragma omp section
    sec[3]++;
#pragma omp section
    sec[4]++;
  }
  for (int s = 0; s < 5; s++)
    CHECK(sec[s] == 1);

  /* a team of one: chunked static loops come back as one block (every iteration once, in
   * order, lastprivate right), up to the top of the induction variable's range */
  int order = 0, inorder = 1;
  reset();
#pragma omp parallel for num_threads(1) schedule(static, 3) lastprivate(last)
  for (int i = 0; i < N; i++) {
    HIT(i);
    inorder &= order++ == i;
    last = i;
  }
  check_all("static,3 one thread");
  CHECK(inorder && last == N - 1);
  reset();
#pragma omp parallel for num_threads(1) schedule(static, 1)
  for (unsigned i = 0xffffffffu; i > 0xffffffffu - N; i--)
    HIT(0xffffffffu - i);
  check_all("static,1 one thread unsigned from the top");
  reset();
#pragma omp parallel for num_threads(1) schedule(static, 2) lastprivate(last)
  for (int i = 2147483647 - N; i < 2147483647; i++) {
    HIT(i - (2147483647 - N));
    last = i - (2147483647 - N);
  }
  check_all("static,2 one thread up to INT_MAX - 1");
  CHECK(last == N - 1);
  reset();
#pragma omp parallel for num_threads(1) schedule(simd : static, 4)
  for (long i = 0; i < N; i++)
    HIT(i);
  check_all("simd:static,4 one thread");
  return 0;
}
