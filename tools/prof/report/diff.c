/* tomp-prof diff A B: what changed between two recordings (before/after a change, two thread
 * counts, two runtimes).  Each side is read like `report` reads it (a data file or a
 * directory of them, processes merged), then per function (total: anywhere on a path, once
 * per path) and per call path (all threads merged) the change in time, work, wait, cpu and
 * blame is listed, largest change of the chosen metric first.  Functions and paths match by
 * name, so recordings of different builds of a program compare. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tomp-prof.h"

/* One row: a function or a call path, its metrics on each side. */
typedef struct row {
  char *key;
  double v[2][TP_NMETRIC];
} row_t;

typedef struct table {
  row_t *r;
  size_t n, cap;
  size_t *slot; /* open addressing: row index + 1 */
  size_t nslot;
} table_t;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q) {
    fputs("tomp-prof diff: out of memory\n", stderr);
    exit(1);
  }
  return q;
}

static size_t hash(const char *s) {
  size_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static row_t *row(table_t *t, const char *key) {
  if (2 * (t->n + 1) > t->nslot) {
    size_t ns = t->nslot ? 2 * t->nslot : 1024;
    size_t *s = xrealloc(NULL, ns * sizeof *s);
    memset(s, 0, ns * sizeof *s);
    for (size_t i = 0; i < t->n; i++) {
      size_t h = hash(t->r[i].key) & (ns - 1);
      while (s[h])
        h = (h + 1) & (ns - 1);
      s[h] = i + 1;
    }
    free(t->slot);
    t->slot = s;
    t->nslot = ns;
  }
  size_t h = hash(key) & (t->nslot - 1);
  while (t->slot[h] && strcmp(t->r[t->slot[h] - 1].key, key))
    h = (h + 1) & (t->nslot - 1);
  if (t->slot[h]) return &t->r[t->slot[h] - 1];
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->r = xrealloc(t->r, t->cap * sizeof *t->r);
  }
  row_t *r = &t->r[t->n];
  memset(r, 0, sizeof *r);
  r->key = strdup(key);
  if (!r->key) exit(1);
  t->slot[h] = ++t->n;
  return r;
}

static void add(double *dst, const double *v) {
  for (int m = 0; m < TP_NMETRIC; m++)
    dst[m] += v[m];
}

/* Adds side `side` of profile p to the function and path tables and to tot. */
static void collect(const tp_profile_t *p, int side, table_t *funcs, table_t *paths, double *tot) {
  size_t cap = 256;
  char *buf = xrealloc(NULL, cap);
  const char **seen = NULL;
  size_t seencap = 0;
  for (size_t i = 0; i < p->nstacks; i++) {
    const tp_stack_t *st = &p->stacks[i];
    add(tot, st->v);
    size_t len = 0;
    if (st->depth > seencap) {
      seencap = st->depth;
      seen = xrealloc(seen, seencap * sizeof *seen);
    }
    uint32_t nseen = 0;
    for (uint32_t d = 0; d < st->depth; d++) {
      const char *fn = p->locs[st->locs[d]].func;
      size_t fl = strlen(fn);
      if (len + fl + 2 > cap) {
        cap = 2 * (len + fl + 2);
        buf = xrealloc(buf, cap);
      }
      if (d) buf[len++] = ';';
      memcpy(buf + len, fn, fl + 1);
      len += fl;
      uint32_t k = 0;
      while (k < nseen && strcmp(seen[k], fn))
        k++;
      if (k < nseen) continue; /* once per path */
      seen[nseen++] = fn;
      add(row(funcs, fn)->v[side], st->v);
    }
    if (st->depth) add(row(paths, buf)->v[side], st->v);
  }
  free(buf);
  free(seen);
}

static int g_metric;
static int by_change(const void *x, const void *y) {
  const row_t *a = x, *b = y;
  double da = fabs(a->v[1][g_metric] - a->v[0][g_metric]);
  double db = fabs(b->v[1][g_metric] - b->v[0][g_metric]);
  return da < db ? 1 : da > db ? -1 : strcmp(a->key, b->key);
}

static void print_table(FILE *out, const char *title, table_t *t, size_t top, int width) {
  qsort(t->r, t->n, sizeof *t->r, by_change);
  fprintf(out, "\n%s (seconds; B - A; largest change of %s first)\n", title,
          tp_metric_name[g_metric]);
  fprintf(out, "%8s %8s %8s %7s %8s %8s %8s %8s  %s\n", "A", "B", "change", "%", "work", "wait",
          "cpu", "blame", "name");
  size_t shown = 0;
  for (size_t i = 0; i < t->n && shown < top; i++) {
    const row_t *r = &t->r[i];
    double a = r->v[0][g_metric], b = r->v[1][g_metric];
    if (a == 0 && b == 0) continue;
    char pct[16];
    if (a > 0)
      snprintf(pct, sizeof pct, "%+6.1f%%", 100.0 * (b - a) / a);
    else
      snprintf(pct, sizeof pct, "%7s", "new");
    fprintf(out, "%8.3f %8.3f %+8.3f %s %+8.3f %+8.3f %+8.3f %+8.3f  ", a, b, b - a, pct,
            r->v[1][TP_M_WORK] - r->v[0][TP_M_WORK], r->v[1][TP_M_WAIT] - r->v[0][TP_M_WAIT],
            r->v[1][TP_M_CPU] - r->v[0][TP_M_CPU], r->v[1][TP_M_BLAME] - r->v[0][TP_M_BLAME]);
    int room = width - 78;
    int len = (int)strlen(r->key);
    if (len > room && room > 3 && !tp_view_opts.full_names) /* a path: keep its leaf end */
      fprintf(out, "...%s\n", r->key + len - (room - 3));
    else
      fprintf(out, "%s\n", r->key);
    shown++;
  }
}

static void free_table(table_t *t) {
  for (size_t i = 0; i < t->n; i++)
    free(t->r[i].key);
  free(t->r);
  free(t->slot);
}

static int diff_usage(void) {
  fputs("usage: tomp-prof diff A B [--metric time|work|wait|blame|cpu] [--top N] [--width N]\n"
        "                          [--full-names] [--fold-recursion] [--raw-names]\n"
        "  A, B           data files or directories of them (as for report): before and after\n"
        "  --metric M     the change to rank by (default time)\n"
        "  --top N        rows per table (default 25)\n"
        "  --width N      line width (default 120, at least 80)\n"
        "  --full-names, --fold-recursion, --raw-names: as for report\n",
        stderr);
  return 2;
}

int tp_cmd_diff(int argc, char **argv) {
  char *side[2] = {NULL, NULL};
  long top = 25;
  int width = 120;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      diff_usage();
      return 0;
    }
    if ((!strcmp(a, "--metric") || !strcmp(a, "--top") || !strcmp(a, "--width")) && i + 1 < argc) {
      const char *v = argv[++i];
      if (!strcmp(a, "--metric")) {
        int k = 0;
        while (k < TP_NMETRIC && strcmp(tp_metric_name[k], v))
          k++;
        if (k == TP_NMETRIC) {
          fprintf(stderr, "tomp-prof diff: unknown metric '%s' (time, work, wait, blame, cpu)\n",
                  v);
          return diff_usage();
        }
        tp_view_opts.metric = k;
        continue;
      }
      char *end;
      errno = 0;
      long n = strtol(v, &end, 10);
      long lo = !strcmp(a, "--top") ? 1 : 80;
      if (errno || *end || n < lo || n > 100000) {
        fprintf(stderr, "tomp-prof diff: %s '%s' is not a number in %ld..100000\n", a, v, lo);
        return diff_usage();
      }
      if (!strcmp(a, "--top"))
        top = n;
      else
        width = (int)n;
    } else if (!strcmp(a, "--full-names")) {
      tp_view_opts.full_names = 1;
    } else if (!strcmp(a, "--fold-recursion")) {
      tp_view_opts.fold_recursion = 1;
    } else if (!strcmp(a, "--raw-names")) {
      tp_view_opts.raw_names = 1;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "tomp-prof diff: unknown option '%s'\n", a);
      return diff_usage();
    } else if (!side[0]) {
      side[0] = argv[i];
    } else if (!side[1]) {
      side[1] = argv[i];
    } else {
      fprintf(stderr, "tomp-prof diff: more than two recordings given ('%s')\n", a);
      return diff_usage();
    }
  }
  if (!side[1]) {
    fputs("tomp-prof diff: give two recordings, A (before) and B (after)\n", stderr);
    return diff_usage();
  }
  g_metric = tp_view_opts.metric;
  table_t funcs = {0}, paths = {0};
  double tot[2][TP_NMETRIC] = {{0}};
  for (int s = 0; s < 2; s++) {
    tp_profile_t *p = tp_profile_load(&side[s], 1);
    if (!p) {
      free_table(&funcs);
      free_table(&paths);
      return 1;
    }
    printf("%s: %s  (%zu threads, %.3f s recorded)\n", s ? "B" : "A", side[s], p->nthreads,
           p->nprocs ? p->procs[0].duration : 0.0);
    collect(p, s, &funcs, &paths, tot[s]);
    tp_profile_free(p);
  }
  printf("thread time A %.3f s, B %.3f s (%+.3f s); work %+.3f s, wait %+.3f s, cpu %+.3f s, "
         "blame %+.3f s\n",
         tot[0][TP_M_TIME], tot[1][TP_M_TIME], tot[1][TP_M_TIME] - tot[0][TP_M_TIME],
         tot[1][TP_M_WORK] - tot[0][TP_M_WORK], tot[1][TP_M_WAIT] - tot[0][TP_M_WAIT],
         tot[1][TP_M_CPU] - tot[0][TP_M_CPU], tot[1][TP_M_BLAME] - tot[0][TP_M_BLAME]);
  print_table(stdout, "Functions (total: anywhere on a path)", &funcs, (size_t)top, width);
  print_table(stdout, "Call paths", &paths, (size_t)top, width);
  free_table(&funcs);
  free_table(&paths);
  return fflush(stdout) == 0 ? 0 : 1;
}
