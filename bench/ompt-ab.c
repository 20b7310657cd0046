/* ompt-ab: what OMPT costs, timed inside one process.
 *
 * bench/ompt-cost.sh times each configuration of tomp in a process of its own; on the 2-CPU
 * development VM two identical configurations then differ by up to 12% on a row, far more
 * than the 1% the OMPT issue asks about.  ompt-ab loads the benchmark code (bench/ompbench.c
 * or bench/kernels.c built with -DBENCH_SO) once per configuration, each copy in a link-map
 * namespace of its own (dlmopen) where it binds to that configuration's libgomp.so.1, and
 * alternates short blocks of the same test between the copies, so every configuration sees
 * the same machine, milliseconds apart.
 *
 *   ompt-ab [-T THREADS] [-r ROUNDS] [-m BLOCK_MS] [-g GAP_MS] -b BENCH.so CFG... [-- TEST...]
 *   CFG is LABEL=LIBGOMP[:TOOL]: the runtime's libgomp.so.1 and, optionally, a tool for
 *   OMP_TOOL_LIBRARIES (set only while that runtime starts).  The first CFG is the base.
 *
 * A round runs every test once on every configuration, the order of the configurations
 * rotating and reversing from round to round.  A block is one untimed call (wakes the team,
 * warms the caches) and then calls until BLOCK_MS have passed; its result is ns per op.
 * With THREADS > 1 every block starts after a GAP_MS sleep, long enough for the previous
 * configuration's workers to end their spin and sleep (tomp spins about 2 ms), so two teams
 * never compete for the CPUs.
 *
 * Output, per test: each configuration's median ns/op, and its median ratio to the base (the
 * ratio of the two blocks of one round) with a distribution-free 95% confidence interval of
 * that median (order statistics); then per configuration the same for the suite: each round's
 * geometric mean of the ratios over all tests.  A check failing inside a test (wrong count or
 * order) ends the run with exit status 2. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAXCFG = 8, MAXTEST = 64, MAXROUND = 401 };

struct cfg {
  const char *label, *lib, *tool;
  int (*setup)(int);
  int (*count)(void);
  const char *(*name)(int);
  void (*prepare)(int);
  long (*run)(int, long);
};

static struct cfg cfgs[MAXCFG];
static int ncfg;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "ompt-ab: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

static void *sym(void *h, const char *name, const char *label) {
  void *p = dlsym(h, name);
  if (!p) {
    fprintf(stderr, "ompt-ab: %s: the benchmark library lacks %s\n", label, name);
    exit(1);
  }
  return p;
}

/* Loads one configuration: its runtime first, so that the benchmark library's DT_NEEDED
 * libgomp.so.1 matches it by soname inside the new namespace; the tool through the
 * environment the runtime reads when it starts (bench_setup is its first OpenMP call). */
static void load(struct cfg *c, const char *bench, int threads) {
  if (c->tool) {
    setenv("OMP_TOOL_LIBRARIES", c->tool, 1);
    setenv("BENCH_TOOL_ANNOUNCE", "1", 1);
  }
  void *rt = dlmopen(LM_ID_NEWLM, c->lib, RTLD_NOW | RTLD_LOCAL);
  if (!rt) die("cannot load the runtime", dlerror());
  Lmid_t ns;
  if (dlinfo(rt, RTLD_DI_LMID, &ns)) die("dlinfo", dlerror());
  void *b = dlmopen(ns, bench, RTLD_NOW | RTLD_LOCAL);
  if (!b) die("cannot load the benchmark library", dlerror());
  c->setup = (int (*)(int))sym(b, "bench_setup", c->label);
  c->count = (int (*)(void))sym(b, "bench_count", c->label);
  c->name = (const char *(*)(int))sym(b, "bench_name", c->label);
  c->prepare = (void (*)(int))sym(b, "bench_prepare", c->label);
  c->run = (long (*)(int, long))sym(b, "bench_run", c->label);
  /* The benchmark's GOMP_parallel must come from this configuration's runtime. */
  Dl_info di;
  void *gp = dlsym(b, "GOMP_parallel");
  char want[4096], got[4096];
  if (!gp || !dladdr(gp, &di) || !realpath(di.dli_fname, got) || !realpath(c->lib, want) ||
      strcmp(got, want))
    die("the benchmark library did not bind to", c->lib);
  int team = c->setup(threads);
  if (threads && team != threads) {
    fprintf(stderr, "ompt-ab: %s: asked for %d threads, the runtime offers %d\n", c->label,
            threads, team);
    exit(1);
  }
  if (c->tool) {
    if (!dlmopen(ns, c->tool, RTLD_NOW | RTLD_NOLOAD)) die("the runtime did not load", c->tool);
    unsetenv("OMP_TOOL_LIBRARIES");
    unsetenv("BENCH_TOOL_ANNOUNCE");
  }
}

static int by_value(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Median of v[0..n) and the 95% confidence interval of the median from order statistics
 * (the normal approximation to the binomial: ranks n/2 -+ 0.98 sqrt(n)); sorts v. */
static void stats(double *v, int n, double *med, double *lo, double *hi) {
  qsort(v, (size_t)n, sizeof v[0], by_value);
  *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  int l = (int)floor(n / 2.0 - 0.98 * sqrt(n)), h = (int)ceil(n / 2.0 + 0.98 * sqrt(n));
  if (l < 0) l = 0;
  if (h > n - 1) h = n - 1;
  *lo = v[l], *hi = v[h];
}

static double ns[MAXTEST][MAXCFG][MAXROUND];

static void usage(void) {
  fprintf(stderr, "usage: ompt-ab [-T THREADS] [-r ROUNDS] [-m BLOCK_MS] [-g GAP_MS] -b BENCH.so "
                  "LABEL=LIBGOMP[:TOOL]... [-- TEST...]\n");
  exit(64);
}

int main(int argc, char **argv) {
  int threads = 1, rounds = 21, opt;
  double block = 0.01, gap = 0.01;
  const char *bench = NULL;
  while ((opt = getopt(argc, argv, "+T:r:m:g:b:h")) != -1) {
    switch (opt) {
    case 'T': threads = atoi(optarg); break;
    case 'r': rounds = atoi(optarg); break;
    case 'm': block = atof(optarg) / 1e3; break;
    case 'g': gap = atof(optarg) / 1e3; break;
    case 'b': bench = optarg; break;
    default: usage();
    }
  }
  if (!bench || threads < 1 || rounds < 3 || rounds > MAXROUND || block <= 0 || gap < 0) usage();
  for (; optind < argc && strcmp(argv[optind], "--"); optind++) {
    if (ncfg == MAXCFG) die("too many configurations", NULL);
    struct cfg *c = &cfgs[ncfg++];
    char *s = strdup(argv[optind]), *eq = strchr(s, '='), *colon;
    if (!eq) usage();
    *eq = 0;
    c->label = s, c->lib = eq + 1;
    if ((colon = strchr(c->lib, ':'))) *colon = 0, c->tool = colon + 1;
  }
  if (ncfg < 2) usage();
  if (optind < argc) optind++; /* the "--" */

  unsetenv("OMP_TOOL_LIBRARIES"), unsetenv("OMP_TOOL"), unsetenv("BENCH_TOOL_ANNOUNCE");
  for (int c = 0; c < ncfg; c++) load(&cfgs[c], bench, threads);

  int tests[MAXTEST], ntest = 0, all = cfgs[0].count();
  if (optind == argc)
    for (int i = 0; i < all && ntest < MAXTEST; i++) tests[ntest++] = i;
  for (; optind < argc; optind++) {
    int i = 0;
    while (i < all && strcmp(cfgs[0].name(i), argv[optind])) i++;
    if (i == all) die("unknown test", argv[optind]);
    if (ntest < MAXTEST) tests[ntest++] = i;
  }

  /* Calibration on the base: repetitions per call double until one call takes an eighth of a
   * block (the fastest of three calls counts); every configuration then runs that many. */
  long reps[MAXTEST];
  for (int t = 0; t < ntest; t++) {
    for (int c = 0; c < ncfg; c++) {
      cfgs[c].prepare(tests[t]);
      if (cfgs[c].run(tests[t], 1) < 0) die("check failed in", cfgs[c].name(tests[t]));
    }
    long n = 1;
    for (;;) {
      double best = 1e30;
      for (int k = 0; k < 3; k++) {
        double t0 = now();
        cfgs[0].run(tests[t], n);
        double e = now() - t0;
        if (e < best) best = e;
      }
      if (best >= block / 8 || n >= 1L << 40) break;
      n *= best < block / 128 ? 8 : 2;
    }
    reps[t] = n;
  }

  fprintf(stderr, "ompt-ab: %d tests x %d configurations x %d rounds, %d threads, %.0f ms blocks\n",
          ntest, ncfg, rounds, threads, block * 1e3);
  for (int r = 0; r < rounds; r++) {
    for (int t = 0; t < ntest; t++) {
      for (int k = 0; k < ncfg; k++) {
        int c = (r / 2 + (r % 2 ? ncfg - 1 - k : k)) % ncfg;
        struct cfg *cf = &cfgs[c];
        if (threads > 1 && gap > 0) {
          struct timespec ts = {(time_t)gap, (long)((gap - (time_t)gap) * 1e9)};
          nanosleep(&ts, NULL);
        }
        if (cf->run(tests[t], reps[t]) < 0) die("check failed in", cf->name(tests[t]));
        long ops = 0, o;
        double t0 = now(), el;
        do {
          if ((o = cf->run(tests[t], reps[t])) < 0) die("check failed in", cf->name(tests[t]));
          ops += o;
          el = now() - t0;
        } while (el < block);
        ns[t][c][r] = el * 1e9 / (double)ops;
      }
    }
  }

  double v[MAXROUND], med, lo, hi;
  printf("%d threads, %d rounds of %.0f ms blocks; ns/op (median) and ratio to %s: median "
         "[95%% CI]\n\n",
         threads, rounds, block * 1e3, cfgs[0].label);
  printf("| %-14s |", "test");
  for (int c = 0; c < ncfg; c++) printf(c ? " %26s |" : " %9s |", cfgs[c].label);
  printf("\n|----------------|----------:|");
  for (int c = 1; c < ncfg; c++) printf("---------------------------:|");
  printf("\n");
  static double logs[MAXCFG][MAXROUND];
  for (int t = 0; t < ntest; t++) {
    for (int r = 0; r < rounds; r++) v[r] = ns[t][0][r];
    stats(v, rounds, &med, &lo, &hi);
    printf("| %-14s | %9.2f |", cfgs[0].name(tests[t]), med);
    for (int c = 1; c < ncfg; c++) {
      for (int r = 0; r < rounds; r++) v[r] = ns[t][c][r];
      stats(v, rounds, &med, &lo, &hi);
      double m = med;
      for (int r = 0; r < rounds; r++) {
        v[r] = ns[t][c][r] / ns[t][0][r];
        logs[c][r] += log(v[r]) / ntest;
      }
      stats(v, rounds, &med, &lo, &hi);
      printf(" %8.2f %.3f [%.3f,%.3f] |", m, med, lo, hi);
    }
    printf("\n");
  }
  printf("| %-14s | %9s |", "geometric mean", "");
  for (int c = 1; c < ncfg; c++) {
    for (int r = 0; r < rounds; r++) v[r] = exp(logs[c][r]);
    stats(v, rounds, &med, &lo, &hi);
    printf(" %8s %.3f [%.3f,%.3f] |", "", med, lo, hi);
  }
  printf("\n");
  return 0;
}
