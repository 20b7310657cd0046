/* ompbench: OpenMP construct overhead microbenchmarks (in the spirit of the EPCC suite, written
 * from scratch for tomp).
 *
 * One binary, compiled once with `gcc -fopenmp -O2`, is run unchanged on tomp, GCC's libgomp
 * and LLVM's libomp (its GOMP compatibility layer); only the library the loader binds changes.
 * So the comparison is of runtimes, never of compilers.  The same source compiled once with
 * `clang-14 -fopenmp -O2` (LLVM's __kmpc_* ABI) runs on tomp (as libomp.so.5) and libomp.
 *
 *   ompbench [-T THREADS] [-t SECONDS] [-b BATCHES] TEST   run one test, print one RESULT line
 *   ompbench -l                                    list tests with a one-line description
 *   ompbench -r                                    print which runtime was loaded and exit
 *   ompbench -n N TEST                             no timing: one untimed warm-up repetition,
 *                                                  then exactly N (for instruction counting)
 *
 * -T sets the team size with omp_set_num_threads (so it does not depend on the runtime parsing
 * OMP_NUM_THREADS); every test checks that its teams really have that many threads.
 *
 * Each test runs "n repetitions" of a construct.  n is calibrated (doubling from 1) until one
 * batch takes SECONDS/BATCHES; then BATCHES timed batches run and the median batch gives
 * ns/op = elapsed / ops.  What one "op" is depends on the test (see the table below and
 * docs/benchmarks.md): fork/join and barrier count constructs, mutual exclusion counts
 * acquisitions by all threads together, loops count iterations of all threads together.
 * No reference time is subtracted: on a noisy 2-core machine a difference of two noisy
 * numbers is noisier than either, and every runtime pays the same loop overhead.
 *
 * Every test checks its result (counts, order); a wrong result exits 2, so the driver reports
 * the runtime as unsupported instead of printing a fast but meaningless number.  A runtime
 * that lacks an entry point fails with the loader's "symbol lookup error" (exit 127): the
 * Makefile links this program with -z lazy so that only the tests calling a missing function
 * fail, not the whole binary. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Keeps the compiler from deleting an otherwise empty region or loop body. */
#define TOUCH() __asm__ __volatile__("" ::: "memory")

static int nthr; /* team size used by every region (omp_get_max_threads at start) */
static int failed;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "ompbench: check failed at line %d: ", __LINE__);                           \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      failed = 1;                                                                                  \
    }                                                                                              \
  } while (0)

/* ---- the tests: each runs n repetitions and returns the number of ops it timed ---------- */

static long b_parallel(long n) {
  long seen = 0;
  for (long i = 0; i < n; i++) {
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) seen += omp_get_num_threads() == nthr;
      TOUCH();
    }
  }
  CHECK(seen == n, "%ld of %ld regions had %d threads", seen, n, nthr);
  return n;
}

static long b_barrier(long n) {
  int teamsz = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) teamsz = omp_get_num_threads();
    for (long i = 0; i < n; i++) {
#pragma omp barrier
    }
  }
  CHECK(teamsz == nthr, "team of %d, expected %d", teamsz, nthr);
  return n;
}

static long b_single(long n) {
  long count = 0;
#pragma omp parallel
  for (long i = 0; i < n; i++) {
#pragma omp single
    count++;
  }
  CHECK(count == n, "single ran %ld times, expected %ld", count, n);
  return n;
}

static long b_critical(long n) {
  long count = 0;
#pragma omp parallel
  for (long i = 0; i < n; i++) {
#pragma omp critical
    count++;
  }
  CHECK(count == n * nthr, "count %ld, expected %ld", count, n * nthr);
  return n * nthr;
}

static long b_lock(long n) {
  long count = 0;
  omp_lock_t lk;
  omp_init_lock(&lk);
#pragma omp parallel
  for (long i = 0; i < n; i++) {
    omp_set_lock(&lk);
    count++;
    omp_unset_lock(&lk);
  }
  omp_destroy_lock(&lk);
  CHECK(count == n * nthr, "count %ld, expected %ld", count, n * nthr);
  return n * nthr;
}

/* x86 has no atomic read-modify-write of an 80-bit long double: gcc brackets the update with
 * GOMP_atomic_start/GOMP_atomic_end (a runtime-wide lock). */
static long b_atomic(long n) {
  long double x = 0;
#pragma omp parallel
  for (long i = 0; i < n; i++) {
#pragma omp atomic
    x += 1.0L;
  }
  CHECK(x == (long double)(n * nthr), "sum %Lf, expected %ld", x, n * nthr);
  return n * nthr;
}

static long b_reduction(long n) {
  long sum = 0;
  for (long i = 0; i < n; i++) {
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (int j = 0; j < nthr; j++) sum += j + 1;
  }
  CHECK(sum == n * nthr * (nthr + 1) / 2, "sum %ld, expected %ld", sum,
        n * nthr * (nthr + 1) / 2);
  return n;
}

/* Loop schedules: every repetition is one worksharing loop of LOOP_ITERS_PER_THREAD * nthr
 * iterations inside one parallel region; an op is one iteration (all threads together). */
#define LOOP_ITERS_PER_THREAD 1024

#define DEFINE_LOOP(NAME, SCHED)                                                                   \
  static long NAME(long n) {                                                                       \
    long total = 0, iters = (long)LOOP_ITERS_PER_THREAD * nthr;                                    \
    _Pragma("omp parallel reduction(+ : total)") for (long r = 0; r < n; r++) {                   \
      _Pragma(SCHED) for (long j = 0; j < iters; j++) {                                           \
        total++;                                                                                   \
        TOUCH();                                                                                   \
      }                                                                                            \
    }                                                                                              \
    CHECK(total == n * iters, "%ld iterations, expected %ld", total, n * iters);                  \
    return n * iters;                                                                              \
  }

DEFINE_LOOP(b_static_1, "omp for schedule(static, 1)")
DEFINE_LOOP(b_static_64, "omp for schedule(static, 64)")
DEFINE_LOOP(b_dynamic_1, "omp for schedule(dynamic, 1)")
DEFINE_LOOP(b_dynamic_64, "omp for schedule(dynamic, 64)")
DEFINE_LOOP(b_guided_1, "omp for schedule(guided, 1)")
DEFINE_LOOP(b_guided_64, "omp for schedule(guided, 64)")

#define ORDERED_ITERS_PER_THREAD 256

static long ordered_next; /* the iteration the ordered sequence expects next */

static long b_ordered(long n) {
  long iters = (long)ORDERED_ITERS_PER_THREAD * nthr, bad = 0;
  ordered_next = 0;
#pragma omp parallel reduction(+ : bad)
  for (long r = 0; r < n; r++) {
#pragma omp for ordered schedule(static, 1)
    for (long j = 0; j < iters; j++) {
#pragma omp ordered
      {
        bad += ordered_next != r * iters + j;
        ordered_next++;
      }
    }
  }
  CHECK(bad == 0, "%ld ordered iterations ran out of order", bad);
  return n * iters;
}

/* Tasks: bodies are one relaxed atomic increment so the count proves every task ran. */
static long task_count;

static void task_body(void) { __atomic_fetch_add(&task_count, 1, __ATOMIC_RELAXED); }

static long b_task_master(long n) {
  task_count = 0;
#pragma omp parallel
  if (omp_get_thread_num() == 0) {
    for (long i = 0; i < n; i++) {
#pragma omp task
      task_body();
    }
  }
  CHECK(task_count == n, "%ld tasks ran, expected %ld", task_count, n);
  return n;
}

static long b_task_all(long n) {
  task_count = 0;
#pragma omp parallel
  for (long i = 0; i < n; i++) {
#pragma omp task
    task_body();
  }
  CHECK(task_count == n * nthr, "%ld tasks ran, expected %ld", task_count, n * nthr);
  return n * nthr;
}

static long b_taskwait(long n) {
  long bad = 0;
  task_count = 0;
#pragma omp parallel reduction(+ : bad)
  for (long i = 0; i < n; i++) {
    int done = 0;
#pragma omp task shared(done)
    done = 1;
#pragma omp taskwait
    bad += !done;
  }
  CHECK(bad == 0, "%ld taskwaits returned before their child finished", bad);
  return n * nthr;
}

#define TASKLOOP_ITERS 64

static long b_taskloop(long n) {
  task_count = 0;
  long bad = 0;
#pragma omp parallel
  if (omp_get_thread_num() == 0) {
    for (long i = 0; i < n; i++) {
      long before = __atomic_load_n(&task_count, __ATOMIC_RELAXED);
#pragma omp taskloop num_tasks(2 * nthr)
      for (int j = 0; j < TASKLOOP_ITERS; j++) task_body();
      /* taskloop without nogroup waits for its tasks */
      bad += __atomic_load_n(&task_count, __ATOMIC_RELAXED) != before + TASKLOOP_ITERS;
    }
  }
  CHECK(bad == 0 && task_count == n * TASKLOOP_ITERS, "taskloop: %ld early returns, %ld iterations",
        bad, task_count);
  return n;
}

static long b_task_dep_chain(long n) {
  long x = 0, bad = 0;
#pragma omp parallel
  if (omp_get_thread_num() == 0) {
    for (long i = 0; i < n; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
      {
        bad += x != i; /* the chain serialises these updates */
        x = i + 1;
      }
    }
  }
  CHECK(bad == 0 && x == n, "dependence chain broken: x=%ld, expected %ld, %ld out of order", x,
        n, bad);
  return n;
}

/* A recursive fib tree: every call but the root is a task, each waits for its two children.
 * Thread 0 builds the trees; the others steal subtrees. */
static long fib_task(int k) {
  if (k < 2) return k;
  long a, b;
#pragma omp task shared(a)
  a = fib_task(k - 1);
#pragma omp task shared(b)
  b = fib_task(k - 2);
#pragma omp taskwait
  return a + b;
}

#define TREE_K 10
#define TREE_TASKS 176 /* calls of fib_task(10) minus the root */

static long b_task_tree(long n) {
  long bad = 0;
#pragma omp parallel
  if (omp_get_thread_num() == 0) {
    for (long i = 0; i < n; i++) bad += fib_task(TREE_K) != 55;
  }
  CHECK(bad == 0, "fib tree: %ld wrong results", bad);
  return n * TREE_TASKS;
}

struct test {
  const char *name;
  long (*fn)(long);
  const char *op; /* what one op is */
};

static const struct test tests[] = {
    {"parallel", b_parallel, "one parallel region (fork + join)"},
    {"barrier", b_barrier, "one barrier (all threads)"},
    {"single", b_single, "one single construct incl. its implied barrier"},
    {"critical", b_critical, "one critical section entry+exit (summed over threads)"},
    {"lock", b_lock, "one omp_set_lock+omp_unset_lock (summed over threads)"},
    {"atomic", b_atomic, "one long-double atomic update = GOMP_atomic_start/end (summed)"},
    {"reduction", b_reduction, "one parallel for reduction(+) region"},
    {"static_1", b_static_1, "one loop iteration, schedule(static,1) (inlined by gcc)"},
    {"static_64", b_static_64, "one loop iteration, schedule(static,64) (inlined by gcc)"},
    {"dynamic_1", b_dynamic_1, "one loop iteration, schedule(dynamic,1)"},
    {"dynamic_64", b_dynamic_64, "one loop iteration, schedule(dynamic,64)"},
    {"guided_1", b_guided_1, "one loop iteration, schedule(guided,1)"},
    {"guided_64", b_guided_64, "one loop iteration, schedule(guided,64)"},
    {"ordered", b_ordered, "one ordered iteration, for ordered schedule(static,1)"},
    {"task_master", b_task_master, "one tiny task created by thread 0 and run by any thread"},
    {"task_all", b_task_all, "one tiny task, every thread creating (summed over threads)"},
    {"taskwait", b_taskwait, "one task + taskwait per thread (summed over threads)"},
    {"taskloop", b_taskloop, "one taskloop of 64 iterations in 2*T tasks (from thread 0)"},
    {"task_dep_chain", b_task_dep_chain, "one task in a depend(inout) chain (from thread 0)"},
    {"task_tree", b_task_tree, "one task of a fib(10) tree with taskwait (from thread 0)"},
};
#define NTESTS (sizeof tests / sizeof tests[0])

#ifdef BENCH_SO
/* Built with -DBENCH_SO -fPIC -shared, this file is a library that bench/ompt-ab.c loads once
 * per runtime (each in its own link-map namespace, bound to that runtime) and drives through
 * these five functions, so two runtimes can be timed in one process, block against block. */
#define BENCH_API __attribute__((visibility("default")))
BENCH_API int bench_setup(int threads) {
  if (threads) omp_set_num_threads(threads);
  nthr = omp_get_max_threads();
  return nthr;
}
BENCH_API int bench_count(void) { return (int)NTESTS; }
BENCH_API const char *bench_name(int i) { return tests[i].name; }
BENCH_API void bench_prepare(int i) { (void)i; }
BENCH_API long bench_run(int i, long n) {
  long ops = tests[i].fn(n);
  return failed ? -1 : ops;
}
#else
/* ---- timing ---------------------------------------------------------------------------- */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* ---- which runtime is this? ------------------------------------------------------------- */

static int list_omp_lib(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const char *p = info->dlpi_name;
  if (p && (strstr(p, "gomp") || strstr(p, "libomp") || strstr(p, "tomp"))) {
    char real[PATH_MAX];
    char *list = arg;
    size_t len = strlen(list);
    snprintf(list + len, 4096 - len, "%s%s", len ? "," : "", realpath(p, real) ? real : p);
  }
  return 0;
}

/* The entry point every parallel region of this binary calls: gcc's GOMP_parallel@GOMP_4.0,
 * clang's __kmpc_fork_call@VERSION (the version node a clang binary needs from libomp.so.5). */
#ifdef __clang__
#define FORK_SYMBOL "__kmpc_fork_call", "VERSION"
#else
#define FORK_SYMBOL "GOMP_parallel", "GOMP_4.0"
#endif

/* The library FORK_SYMBOL resolves to (what this program's calls bind to), and every
 * OpenMP-looking library mapped (to catch a second runtime loaded alongside). */
static void runtime_info(char *bound, size_t bsz, char *loaded) {
  void *sym = dlvsym(RTLD_DEFAULT, FORK_SYMBOL);
  Dl_info di;
  char real[PATH_MAX];
  snprintf(bound, bsz, "?");
  if (sym && dladdr(sym, &di) && di.dli_fname)
    snprintf(bound, bsz, "%s", realpath(di.dli_fname, real) ? real : di.dli_fname);
  loaded[0] = 0;
  dl_iterate_phdr(list_omp_lib, loaded);
}

static void usage(void) {
  fprintf(stderr,
          "usage: ompbench [-T THREADS] [-t SECONDS] [-b BATCHES] TEST | ... -n N TEST | -l | -r\n"
          "  -T  team size (omp_set_num_threads); default: the runtime's\n"
          "  -t  target measuring time per test (default 0.3)\n"
          "  -b  timed batches; the median batch is reported (default 5)\n"
          "  -n  run exactly N repetitions after one warm-up, untimed (for callgrind)\n"
          "  -l  list tests   -r  print the runtime bound and loaded, then exit\n");
  exit(64);
}

int main(int argc, char **argv) {
  double target = 0.3;
  int batches = 5, opt;
  long fixed = 0;
  int want_threads = 0;
  char bound[PATH_MAX], loaded[4096];

  while ((opt = getopt(argc, argv, "T:t:b:n:lrh")) != -1) {
    switch (opt) {
    case 'T': want_threads = atoi(optarg); if (want_threads < 1) usage(); break;
    case 't': target = atof(optarg); break;
    case 'b': batches = atoi(optarg); break;
    case 'n': fixed = atol(optarg); if (fixed < 1) usage(); break;
    case 'l':
      for (size_t i = 0; i < NTESTS; i++) printf("%-15s %s\n", tests[i].name, tests[i].op);
      return 0;
    case 'r':
      runtime_info(bound, sizeof bound, loaded);
      printf("bound=%s loaded=%s\n", bound, loaded);
      return 0;
    default: usage();
    }
  }
  if (optind != argc - 1 || target <= 0 || batches < 1 || batches > 99) usage();
  const struct test *t = NULL;
  for (size_t i = 0; i < NTESTS; i++)
    if (!strcmp(tests[i].name, argv[optind])) t = &tests[i];
  if (!t) {
    fprintf(stderr, "ompbench: unknown test '%s' (ompbench -l lists them)\n", argv[optind]);
    return 64;
  }

  if (want_threads) omp_set_num_threads(want_threads);
  nthr = omp_get_max_threads();
  if (want_threads && nthr != want_threads) {
    fprintf(stderr, "ompbench: asked for %d threads, runtime offers %d\n", want_threads, nthr);
    return 2;
  }
  runtime_info(bound, sizeof bound, loaded);

  /* Warm-up, then calibration: the untimed first run starts the worker pool; then n doubles
   * until one run of n repetitions (a "chunk") takes 1/CHUNKS of a batch (the fastest of
   * three runs counts).  A batch repeats
   * chunks until its time is up, so a machine that gets busier after calibration makes
   * batches hold fewer chunks, never run far over time; one that gets quieter, more. */
  if (fixed) {
    t->fn(1);
    long ops = failed ? 0 : t->fn(fixed);
    if (failed) return 2;
    printf("RESULT test=%s threads=%d reps=%ld ops=%ld bound=%s loaded=%s\n", t->name, nthr, fixed,
           ops, bound, loaded);
    return 0;
  }

  enum { CHUNKS = 16 };
  double batch_time = target / batches, el = 0;
  long n = 1;
  t->fn(1);
  if (failed) return 2;
  for (;;) {
    /* the fastest of three runs: one run slowed by a wake-up or a preemption must not fix the
     * chunk at a size where every repetition pays a whole parallel region (n = 1) */
    el = 1e30;
    for (int k = 0; k < 3; k++) {
      double t0 = now();
      t->fn(n);
      double e = now() - t0;
      if (e < el) el = e;
    }
    if (failed) return 2;
    if (el >= batch_time / CHUNKS || n >= (1L << 40)) break;
    n *= el < batch_time / CHUNKS / 16 ? 8 : 2;
  }

  double per_op[99];
  long chunks = 0;
  for (int b = 0; b < batches; b++) {
    long ops = 0;
    double t0 = now();
    do {
      ops += t->fn(n);
      chunks++;
      el = now() - t0;
      if (failed) return 2;
    } while (el < batch_time);
    per_op[b] = el * 1e9 / (double)ops;
  }
  qsort(per_op, batches, sizeof per_op[0], cmp_double);
  printf("RESULT test=%s threads=%d ns_per_op=%.2f min=%.2f max=%.2f chunk=%ld chunks=%ld bound=%s "
         "loaded=%s\n",
         t->name, nthr, per_op[batches / 2], per_op[0], per_op[batches - 1], n, chunks, bound,
         loaded);
  return 0;
}
#endif /* BENCH_SO */
