/* kernels: a task tree and four small application kernels, each checking its answer, run
 * unchanged on tomp, GCC's libgomp and LLVM's libomp (bench/run.sh; docs/benchmarks.md).
 *
 * The command line and the RESULT line follow bench/ompbench.c, so bench/run.sh drives both
 * programs alike:
 *
 *   kernels [-T THREADS] [-t SECONDS] [-b BATCHES] TEST   time one test, print one RESULT line
 *   kernels -n N TEST       one untimed warm-up, then exactly N repetitions (callgrind)
 *   kernels -l              list the tests;  kernels -r: the runtime bound and loaded
 *
 * Where ompbench times one construct, these time work that a program would do, so an "op" is
 * a unit of that work (one task, one multiply-add, one grid point update, one element sorted,
 * one nonzero); ns/op is the time of the whole kernel divided by its units.  The kernels are
 * sized to take 0.05-0.3 s per repetition at 2 threads on the 2-CPU development machine.
 *
 * Every repetition checks its result, against a serial computation made once at start-up
 * (bitwise: each element is computed by the same code in the same order, whoever runs it) or
 * an exact invariant; a wrong answer prints what was wrong and exits 2, which bench/run.sh
 * reports as "wrong result". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int team;       /* the team size every region must get */
static int wrong;      /* a check failed: exit 2 */

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "kernels: WRONG RESULT (line %d): ", __LINE__);                             \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      wrong = 1;                                                                                   \
    }                                                                                              \
  } while (0)

static void *xalloc(size_t bytes) {
  void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
  if (!p) {
    fprintf(stderr, "kernels: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

/* A fixed pseudo-random sequence (splitmix64), so every runtime sorts and sums the same data. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The team really has `team` threads (a runtime that ignored omp_set_num_threads would
 * otherwise report a fast time for the wrong thing). */
static void expect_team(int seen) { EXPECT(seen == team, "team of %d threads, expected %d", seen, team); }

/* ---- task_tree: recursive fib with a task per call --------------------------------------- */

#define FIB_N 18

static long fib_task(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib_task(n - 1);
#pragma omp task shared(b)
  b = fib_task(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_calls(int n) { return n < 2 ? 1 : 1 + fib_calls(n - 1) + fib_calls(n - 2); }

static long fib_serial(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    long c = a + b;
    a = b;
    b = c;
  }
  return a;
}

static long k_task_tree(long reps) {
  long want = fib_serial(FIB_N);
  for (long r = 0; r < reps && !wrong; r++) {
    long got = -1;
    int seen = 0;
#pragma omp parallel
#pragma omp single
    {
      seen = omp_get_num_threads();
      got = fib_task(FIB_N);
    }
    expect_team(seen);
    EXPECT(got == want, "task_tree: fib(%d) = %ld, expected %ld", FIB_N, got, want);
  }
  return reps * (fib_calls(FIB_N) - 1); /* every call but the root is a task */
}

/* ---- matmul: C = A B, parallel for over rows ------------------------------------------------ */

#define MM_N 512

static double *mm_a, *mm_b, *mm_c, *mm_browsum;

/* Small integers: every product and sum is exact in double, so the checks are exact. */
static void mm_setup(void) {
  size_t n2 = (size_t)MM_N * MM_N;
  mm_a = xalloc(n2 * sizeof(double));
  mm_b = xalloc(n2 * sizeof(double));
  mm_c = xalloc(n2 * sizeof(double));
  mm_browsum = xalloc(MM_N * sizeof(double));
  for (int i = 0; i < MM_N; i++)
    for (int j = 0; j < MM_N; j++) {
      mm_a[i * MM_N + j] = (double)((int)(mix64(i * 7919u + j) % 11) - 5);
      mm_b[i * MM_N + j] = (double)((int)(mix64(j * 104729u + i + 1) % 9) - 4);
    }
  for (int k = 0; k < MM_N; k++) {
    double s = 0;
    for (int j = 0; j < MM_N; j++) s += mm_b[k * MM_N + j];
    mm_browsum[k] = s;
  }
}

/* Every row sum of C against A (B 1), and one element per row computed directly. */
static void mm_check(void) {
  for (int i = 0; i < MM_N && !wrong; i++) {
    const double *a = mm_a + (size_t)i * MM_N, *c = mm_c + (size_t)i * MM_N;
    double rs = 0, want_rs = 0, want_e = 0;
    int j = (i * 13 + 5) % MM_N;
    for (int k = 0; k < MM_N; k++) {
      rs += c[k];
      want_rs += a[k] * mm_browsum[k];
      want_e += a[k] * mm_b[(size_t)k * MM_N + j];
    }
    EXPECT(rs == want_rs, "matmul: row %d of C sums to %.1f, expected %.1f", i, rs, want_rs);
    EXPECT(c[j] == want_e, "matmul: C[%d][%d] = %.1f, expected %.1f", i, j, c[j], want_e);
  }
}

static long k_matmul(long reps) {
  for (long r = 0; r < reps && !wrong; r++) {
    int seen = 0;
#pragma omp parallel
    {
#pragma omp single nowait
      seen = omp_get_num_threads();
#pragma omp for schedule(static)
      for (int i = 0; i < MM_N; i++) {
        double *c = mm_c + (size_t)i * MM_N;
        const double *a = mm_a + (size_t)i * MM_N;
        for (int j = 0; j < MM_N; j++) c[j] = 0;
        for (int k = 0; k < MM_N; k++) {
          const double aik = a[k], *b = mm_b + (size_t)k * MM_N;
          for (int j = 0; j < MM_N; j++) c[j] += aik * b[j];
        }
      }
    }
    expect_team(seen);
    mm_check();
  }
  return reps * MM_N * MM_N * MM_N;
}

/* ---- jacobi: 5-point stencil sweeps in one parallel region, a barrier between sweeps ------- */

#define JAC_N 512
#define JAC_SWEEPS 250

static double *jac_grid[2], *jac_init, *jac_want;

/* One row of one sweep; the parallel and the serial reference run this same code, so their
 * results are bitwise equal. */
static inline void jacobi_row(double *restrict dst, const double *restrict src, int i) {
  for (int j = 1; j < JAC_N - 1; j++)
    dst[i * JAC_N + j] = 0.25 * (src[(i - 1) * JAC_N + j] + src[(i + 1) * JAC_N + j] +
                                 src[i * JAC_N + j - 1] + src[i * JAC_N + j + 1]);
}

static void jac_reset(void) {
  for (int b = 0; b < 2; b++) memcpy(jac_grid[b], jac_init, sizeof(double) * JAC_N * JAC_N);
}

static void jac_setup(void) {
  size_t bytes = sizeof(double) * JAC_N * JAC_N;
  jac_grid[0] = xalloc(bytes);
  jac_grid[1] = xalloc(bytes);
  jac_init = xalloc(bytes);
  jac_want = xalloc(bytes);
  /* hot top edge, a ramp on the left, cold elsewhere */
  for (int i = 0; i < JAC_N; i++)
    for (int j = 0; j < JAC_N; j++)
      jac_init[i * JAC_N + j] = i == 0 ? 100.0 : j == 0 ? (double)i / JAC_N : 0.0;
  jac_reset();
  for (int s = 0; s < JAC_SWEEPS; s++)
    for (int i = 1; i < JAC_N - 1; i++) jacobi_row(jac_grid[(s + 1) & 1], jac_grid[s & 1], i);
  memcpy(jac_want, jac_grid[JAC_SWEEPS & 1], bytes);
}

static long k_jacobi(long reps) {
  for (long r = 0; r < reps && !wrong; r++) {
    int seen = 0;
    jac_reset();
#pragma omp parallel
    {
#pragma omp single nowait
      seen = omp_get_num_threads();
      for (int s = 0; s < JAC_SWEEPS; s++) {
        double *dst = jac_grid[(s + 1) & 1];
        const double *src = jac_grid[s & 1];
        /* the barrier after a sweep is the only synchronisation: sweep s+1 overwrites the
         * grid sweep s read, and reads the one it wrote */
#pragma omp for schedule(static) nowait
        for (int i = 1; i < JAC_N - 1; i++) jacobi_row(dst, src, i);
#pragma omp barrier
      }
    }
    expect_team(seen);
    const double *got = jac_grid[JAC_SWEEPS & 1];
    for (int p = 0; p < JAC_N * JAC_N && !wrong; p++)
      EXPECT(got[p] == jac_want[p], "jacobi: point (%d,%d) = %.17g, serial %.17g", p / JAC_N,
             p % JAC_N, got[p], jac_want[p]);
  }
  return reps * JAC_SWEEPS * (JAC_N - 2) * (JAC_N - 2);
}

/* ---- sort: merge sort, a task per half down to a cutoff ------------------------------------ */

#define SORT_N (1 << 19)
#define SORT_CUTOFF 4096 /* below this a half is sorted serially by the task that owns it */

static int *sort_in, *sort_a, *sort_tmp, *sort_want;

static void merge_halves(int *a, int *tmp, long h, long n) {
  long i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof(int));
}

static void sort_serial(int *a, int *tmp, long n) {
  if (n < 2) return;
  long h = n / 2;
  sort_serial(a, tmp, h);
  sort_serial(a + h, tmp + h, n - h);
  merge_halves(a, tmp, h, n);
}

static void sort_tasks(int *a, int *tmp, long n) {
  if (n <= SORT_CUTOFF) {
    sort_serial(a, tmp, n);
    return;
  }
  long h = n / 2;
#pragma omp task
  sort_tasks(a, tmp, h);
#pragma omp task
  sort_tasks(a + h, tmp + h, n - h);
#pragma omp taskwait
  merge_halves(a, tmp, h, n);
}

static int cmp_int(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

static void sort_setup(void) {
  sort_in = xalloc(SORT_N * sizeof(int));
  sort_a = xalloc(SORT_N * sizeof(int));
  sort_tmp = xalloc(SORT_N * sizeof(int));
  sort_want = xalloc(SORT_N * sizeof(int));
  for (long i = 0; i < SORT_N; i++) sort_in[i] = (int)(mix64(i) >> 33);
  memcpy(sort_want, sort_in, SORT_N * sizeof(int));
  qsort(sort_want, SORT_N, sizeof(int), cmp_int);
}

static long k_sort(long reps) {
  for (long r = 0; r < reps && !wrong; r++) {
    int seen = 0;
    memcpy(sort_a, sort_in, SORT_N * sizeof(int));
#pragma omp parallel
#pragma omp single
    {
      seen = omp_get_num_threads();
      sort_tasks(sort_a, sort_tmp, SORT_N);
    }
    expect_team(seen);
    for (long i = 0; i < SORT_N && !wrong; i++)
      EXPECT(sort_a[i] == sort_want[i], "sort: element %ld = %d, expected %d (qsort)", i,
             sort_a[i], sort_want[i]);
  }
  return reps * SORT_N;
}

/* ---- irregular: sparse-row products under schedule(dynamic) ----------------------------------
 * Row i has 2^(h(i) mod 15) nonzeros, 1 to 16384 (four orders of magnitude), scattered at
 * random over the rows, so a static split is unbalanced and the loop needs dynamic
 * scheduling.  The matrix is implicit (columns and values come from a hash), which keeps the
 * memory small and the access pattern irregular. */

#define IRR_ROWS 12000
#define IRR_X 65536 /* the vector: 512 KiB, within the L2 of the machine */

static double *irr_x, *irr_y, *irr_want;
static long irr_nnz;

static long irr_row_len(int i) { return 1L << (mix64((uint64_t)i * 31 + 7) % 15); }

static inline double irr_row(int i) {
  long len = irr_row_len(i);
  uint32_t col = (uint32_t)mix64(i);
  double s = 0;
  for (long k = 0; k < len; k++) {
    col = col * 1664525u + 1013904223u; /* an LCG walk over the columns */
    s += irr_x[col >> 16] * (double)(1 + (k & 7));
  }
  return s;
}

static void irr_setup(void) {
  irr_x = xalloc(IRR_X * sizeof(double));
  irr_y = xalloc(IRR_ROWS * sizeof(double));
  irr_want = xalloc(IRR_ROWS * sizeof(double));
  for (int c = 0; c < IRR_X; c++) irr_x[c] = (double)(mix64(c + 12345) % 1000) / 1000;
  irr_nnz = 0;
  for (int i = 0; i < IRR_ROWS; i++) {
    irr_want[i] = irr_row(i);
    irr_nnz += irr_row_len(i);
  }
}

static long k_irregular(long reps) {
  for (long r = 0; r < reps && !wrong; r++) {
    int seen = 0;
    memset(irr_y, 0xff, IRR_ROWS * sizeof(double)); /* NaN: a row left out cannot pass */
#pragma omp parallel
    {
#pragma omp single nowait
      seen = omp_get_num_threads();
#pragma omp for schedule(dynamic, 1)
      for (int i = 0; i < IRR_ROWS; i++) irr_y[i] = irr_row(i);
    }
    expect_team(seen);
    for (int i = 0; i < IRR_ROWS && !wrong; i++)
      EXPECT(irr_y[i] == irr_want[i], "irregular: row %d = %.17g, serial %.17g", i, irr_y[i],
             irr_want[i]);
  }
  return reps * irr_nnz;
}

/* ---- the table ------------------------------------------------------------------------------ */

struct kernel {
  const char *name;
  void (*setup)(void); /* allocations and the serial reference, once, untimed */
  long (*run)(long reps);
  const char *op;
};

static const struct kernel kernels[] = {
    {"task_tree", NULL, k_task_tree, "one task of a recursive fib(18) task tree (all levels tasks)"},
    {"matmul", mm_setup, k_matmul, "one multiply-add of a 512^3 matrix product (parallel for)"},
    {"jacobi", jac_setup, k_jacobi, "one point update: 250 sweeps of 512^2, a barrier each"},
    {"sort", sort_setup, k_sort, "one element of a 2^19-int merge sort (tasks, cutoff 4096)"},
    {"irregular", irr_setup, k_irregular, "one nonzero: 12000 rows of 1..16384, dynamic,1"},
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

#ifdef BENCH_SO
/* As in bench/ompbench.c: the interface bench/ompt-ab.c drives when this file is built as a
 * shared object (-DBENCH_SO); bench_prepare runs a kernel's set-up once, untimed. */
#define BENCH_API __attribute__((visibility("default")))
BENCH_API int bench_setup(int threads) {
  if (threads) omp_set_num_threads(threads);
  team = omp_get_max_threads();
  return team;
}
BENCH_API int bench_count(void) { return (int)NKERNELS; }
BENCH_API const char *bench_name(int i) { return kernels[i].name; }
BENCH_API void bench_prepare(int i) {
  if (kernels[i].setup) kernels[i].setup();
}
BENCH_API long bench_run(int i, long n) {
  long ops = kernels[i].run(n);
  return wrong ? -1 : ops;
}
#else
/* ---- which runtime answers ------------------------------------------------------------------ */

struct libs {
  char text[4096];
};

/* Any mapped library whose file name looks like an OpenMP runtime. */
static int note_omp_lib(struct dl_phdr_info *info, size_t size, void *arg) {
  struct libs *l = arg;
  const char *path = info->dlpi_name, *base;
  char real[PATH_MAX];
  (void)size;
  if (!path || !*path) return 0;
  base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (!strstr(base, "gomp") && !strstr(base, "libomp") && !strstr(base, "tomp")) return 0;
  size_t used = strlen(l->text);
  snprintf(l->text + used, sizeof l->text - used, "%s%s", used ? "," : "",
           realpath(path, real) ? real : path);
  return 0;
}

/* bound: the file this binary's fork entry point comes from (gcc's GOMP_parallel@GOMP_4.0,
 * clang's __kmpc_fork_call@VERSION); loaded: every OpenMP runtime mapped. */
#ifdef __clang__
#define FORK_SYMBOL "__kmpc_fork_call", "VERSION"
#else
#define FORK_SYMBOL "GOMP_parallel", "GOMP_4.0"
#endif
static void which_runtime(char *bound, size_t size, struct libs *loaded) {
  Dl_info info;
  char real[PATH_MAX];
  void *fn = dlvsym(RTLD_DEFAULT, FORK_SYMBOL);
  if (fn && dladdr(fn, &info) && info.dli_fname)
    snprintf(bound, size, "%s", realpath(info.dli_fname, real) ? real : info.dli_fname);
  else
    snprintf(bound, size, "?");
  loaded->text[0] = 0;
  dl_iterate_phdr(note_omp_lib, loaded);
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static void usage(void) {
  fprintf(stderr, "usage: kernels [-T THREADS] [-t SECONDS] [-b BATCHES] TEST\n"
                  "       kernels [-T THREADS] -n N TEST | -l | -r\n"
                  "  -T team size (omp_set_num_threads)   -t time per test (0.3)\n"
                  "  -b timed batches, median reported (5)  -n N untimed repetitions\n"
                  "  -l list tests   -r print the runtime bound and loaded\n");
  exit(64);
}

int main(int argc, char **argv) {
  double budget = 0.3;
  int nbatch = 5, c, threads = 0;
  long fixed = 0;
  char bound[PATH_MAX];
  struct libs loaded;

  while ((c = getopt(argc, argv, "T:t:b:n:lrh")) != -1) {
    if (c == 'T') threads = atoi(optarg);
    else if (c == 't') budget = atof(optarg);
    else if (c == 'b') nbatch = atoi(optarg);
    else if (c == 'n') fixed = atol(optarg);
    else if (c == 'l') {
      for (size_t k = 0; k < NKERNELS; k++) printf("%-15s %s\n", kernels[k].name, kernels[k].op);
      return 0;
    } else if (c == 'r') {
      which_runtime(bound, sizeof bound, &loaded);
      printf("bound=%s loaded=%s\n", bound, loaded.text);
      return 0;
    } else
      usage();
  }
  if (optind != argc - 1 || budget <= 0 || nbatch < 1 || nbatch > 99 || threads < 0 || fixed < 0)
    usage();
  const struct kernel *k = NULL;
  for (size_t i = 0; i < NKERNELS; i++)
    if (!strcmp(kernels[i].name, argv[optind])) k = &kernels[i];
  if (!k) {
    fprintf(stderr, "kernels: unknown test '%s' (kernels -l lists them)\n", argv[optind]);
    return 64;
  }
  if (threads) omp_set_num_threads(threads);
  team = omp_get_max_threads();
  if (threads && team != threads) {
    fprintf(stderr, "kernels: asked for %d threads, the runtime offers %d\n", threads, team);
    return 2;
  }
  which_runtime(bound, sizeof bound, &loaded);
  if (k->setup) k->setup();

  k->run(1); /* warm-up: starts the pool, faults the pages in */
  if (wrong) return 2;
  if (fixed) {
    long ops = k->run(fixed);
    if (wrong) return 2;
    printf("RESULT test=%s threads=%d reps=%ld ops=%ld bound=%s loaded=%s\n", k->name, team, fixed,
           ops, bound, loaded.text);
    return 0;
  }

  /* As ompbench: repetitions per chunk double until a chunk is 1/16 of a batch (a kernel
   * usually is at once); a batch runs whole chunks until its share of the budget is spent. */
  double per_batch = budget / nbatch, ns[99], t0, dt;
  long reps = 1, chunks = 0;
  for (;;) {
    t0 = seconds();
    k->run(reps);
    dt = seconds() - t0;
    if (wrong) return 2;
    if (dt >= per_batch / 16 || reps >= (1L << 30)) break;
    reps *= 2;
  }
  for (int b = 0; b < nbatch; b++) {
    long ops = 0;
    t0 = seconds();
    do {
      ops += k->run(reps);
      chunks++;
      dt = seconds() - t0;
      if (wrong) return 2;
    } while (dt < per_batch);
    ns[b] = dt * 1e9 / (double)ops;
  }
  qsort(ns, nbatch, sizeof ns[0], by_value);
  printf("RESULT test=%s threads=%d ns_per_op=%.3f min=%.3f max=%.3f chunk=%ld chunks=%ld "
         "bound=%s loaded=%s\n",
         k->name, team, ns[nbatch / 2], ns[0], ns[nbatch - 1], reps, chunks, bound, loaded.text);
  return 0;
}
#endif /* BENCH_SO */
