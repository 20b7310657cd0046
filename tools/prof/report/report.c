/* tomp-prof report [DIR|FILE...] [--format text|folded|speedscope|pprof|chrome|html|otf2] [-o FILE]
 *                  [--html FILE]
 *                  [--metric time|work|wait|blame|cpu|COUNTER] [--min-percent P] [--per-thread]
 *                  [--fold-recursion] [--width N] [--full-names] [--raw-names]
 * Reads the data files (default ./tomp-prof-data), builds the profile (load.c) and writes one
 * view: text to the terminal by default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tomp-prof.h"

const char *const tp_metric_name[TP_NMETRIC] = {"time", "work", "wait", "blame", "cpu"};
tp_view_opts_t tp_view_opts = {TP_M_TIME, 0.5, 0, 0, 0, 100, 0};

typedef int (*view_fn)(const tp_profile_t *, FILE *);
static const struct {
  const char *name;
  view_fn fn;
  int binary;
} views[] = {
    {"text", tp_view_text, 0},           {"folded", tp_export_folded, 0},
    {"speedscope", tp_export_speedscope, 0}, {"pprof", tp_export_pprof, 1},
    {"chrome", tp_export_chrome, 0},        {"otf2", NULL, 0},
    {"html", tp_export_html, 0},
};
enum { OTF2_VIEW = 5, HTML_VIEW = 6 }; /* otf2 writes a directory, not a stream */

static int report_usage(void) {
  fputs("usage: tomp-prof report [DIR|FILE...] [--format text|folded|speedscope|pprof|chrome|otf2|html]\n"
        "                        [-o FILE] [--html FILE] [--metric time|work|wait|blame|cpu|COUNTER]\n"
        "                        [--min-percent P]\n"
        "                        [--per-thread] [--fold-recursion] [--width N] [--full-names]\n"
        "                        [--raw-names]\n"
        "  DIR|FILE       data files, or directories of tomp-prof.*.dat (default ./tomp-prof-data);\n"
        "                 several processes (MPI ranks) are merged\n"
        "  --format F     text (default): call tree, functions, threads, regions;\n"
        "                 folded: FlameGraph lines 'a;b;c MICROSECONDS'; speedscope: JSON;\n"
        "                 pprof: gzipped profile.proto (go tool pprof); chrome: trace events\n"
        "                 (needs a --trace recording); otf2: an OTF2 archive in the directory\n"
        "                 -o DIR (DIR/traces.otf2: Vampir, otf2-print; needs --trace too);\n"
        "                 html: one page (call tree, flame graph, timeline, regions, ranks)\n"
        "                 that opens offline in a browser\n"
        "  --html FILE    the same as --format html -o FILE\n"
        "  -o FILE        write there instead of standard output\n"
        "  --metric M     what the tree ranks and prunes by, and the folded value (default time);\n"
        "                 or a counter of record --counters (cycles, cache-misses...: events)\n"
        "  --min-percent P  hide call-tree nodes under P% of the metric's total (default 0.5)\n"
        "  --per-thread   folded: root each stack at its thread\n"
        "  --fold-recursion  a function calling itself (directly or through others) shows once\n"
        "                 on a path: its deeper calls are merged into its first (all views)\n"
        "  --width N      text: line width (default 100, at least 60)\n"
        "  --full-names   text: never shorten a name (lines may exceed the width)\n"
        "  --raw-names    keep the compilers' names of outlined construct bodies\n"
        "                 (main._omp_fn.0, .omp_outlined.) instead of 'omp parallel @ file:line'\n",
        stderr);
  return 2;
}

static const char *option_value(int argc, char **argv, int *i) {
  const char *a = argv[*i], *eq = strchr(a, '=');
  if (a[1] == '-' && eq) return eq + 1;
  if (*i + 1 >= argc) {
    fprintf(stderr, "tomp-prof report: %s needs a value\n", a);
    return NULL;
  }
  return argv[++*i];
}

static int is_opt(const char *a, const char *name) {
  size_t n = strlen(name);
  return !strncmp(a, name, n) && (a[n] == 0 || (a[n] == '=' && name[1] == '-'));
}

static int html_default; /* tomp-prof html: write tomp-prof.html when no -o is given */

int tp_cmd_html(int argc, char **argv) {
  char **a = calloc((size_t)argc + 3, sizeof *a);
  if (!a) return 1;
  a[0] = argv[0];
  a[1] = "--format";
  a[2] = "html";
  for (int i = 1; i < argc; i++) a[i + 2] = argv[i];
  html_default = 1;
  int rc = tp_cmd_report(argc + 2, a);
  free(a);
  return rc;
}

int tp_cmd_report(int argc, char **argv) {
  char **paths = calloc((size_t)argc + 1, sizeof *paths);
  int npaths = 0, view = 0;
  const char *outpath = NULL, *counter_metric = NULL;
  if (!paths) return 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      free(paths);
      report_usage();
      return 0;
    } else if (is_opt(a, "--format") || is_opt(a, "-f")) {
      if (!(v = option_value(argc, argv, &i))) goto bad;
      size_t k;
      for (k = 0; k < sizeof views / sizeof views[0] && strcmp(views[k].name, v); k++) {
      }
      if (k == sizeof views / sizeof views[0]) {
        fprintf(stderr, "tomp-prof report: unknown format '%s' (text, folded, speedscope, pprof, chrome, otf2, html)\n", v);
        goto bad;
      }
      view = (int)k;
    } else if (is_opt(a, "-o") || is_opt(a, "--output")) {
      if (!(outpath = option_value(argc, argv, &i))) goto bad;
    } else if (is_opt(a, "--html")) {
      if (!(outpath = option_value(argc, argv, &i))) goto bad;
      view = HTML_VIEW;
    } else if (is_opt(a, "--metric")) {
      if (!(v = option_value(argc, argv, &i))) goto bad;
      int k;
      for (k = 0; k < TP_NMETRIC && strcmp(tp_metric_name[k], v); k++) {
      }
      tp_view_opts.metric = k; /* k == TP_NMETRIC: a counter's name, resolved once loaded */
      counter_metric = k == TP_NMETRIC ? v : NULL;
    } else if (is_opt(a, "--min-percent")) {
      if (!(v = option_value(argc, argv, &i))) goto bad;
      char *end;
      errno = 0;
      double pc = strtod(v, &end);
      if (errno || *end || !(pc >= 0 && pc <= 100)) {
        fprintf(stderr, "tomp-prof report: --min-percent '%s' is not a percentage in 0..100\n", v);
        goto bad;
      }
      tp_view_opts.min_percent = pc;
    } else if (!strcmp(a, "--per-thread")) {
      tp_view_opts.per_thread = 1;
    } else if (!strcmp(a, "--fold-recursion")) {
      tp_view_opts.fold_recursion = 1;
    } else if (!strcmp(a, "--full-names")) {
      tp_view_opts.full_names = 1;
    } else if (!strcmp(a, "--raw-names")) {
      tp_view_opts.raw_names = 1;
    } else if (is_opt(a, "--width")) {
      if (!(v = option_value(argc, argv, &i))) goto bad;
      char *end;
      errno = 0;
      long w = strtol(v, &end, 10);
      if (errno || *end || w < 60 || w > 10000) {
        fprintf(stderr, "tomp-prof report: --width '%s' is not a width in 60..10000\n", v);
        goto bad;
      }
      tp_view_opts.width = (int)w;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "tomp-prof report: unknown option '%s'\n", a);
      goto bad;
    } else {
      paths[npaths++] = argv[i];
    }
  }
  if (!npaths) paths[npaths++] = "tomp-prof-data";
  if (view == HTML_VIEW && !outpath && html_default) outpath = "tomp-prof.html";
  if (view == OTF2_VIEW && (!outpath || !strcmp(outpath, "-"))) {
    fputs("tomp-prof report: --format otf2 writes a directory: give it with -o DIR\n", stderr);
    free(paths);
    return 2;
  }
  tp_profile_t *p = tp_profile_load(paths, npaths);
  free(paths);
  if (!p) return 1;
  if (counter_metric) { /* --metric COUNTER: one the recording has (record --counters) */
    uint32_t k = 0;
    while (k < p->nctr && strcmp(p->ctr_names[k], counter_metric)) k++;
    if (k == p->nctr) {
      fprintf(stderr, "tomp-prof report: unknown metric '%s' (time, work, wait, blame, cpu", counter_metric);
      for (uint32_t j = 0; j < p->nctr; j++) fprintf(stderr, ", %s", p->ctr_names[j]);
      fprintf(stderr, "%s)\n", p->nctr ? "" : "; counters when recorded with --counters");
      tp_profile_free(p);
      return 2;
    }
    tp_view_opts.metric = TP_NMETRIC + (int)k;
  }
  if (view == OTF2_VIEW) {
    int orc = tp_export_otf2_dir(p, outpath);
    if (orc == 0) fprintf(stderr, "tomp-prof: wrote %s/traces.otf2 (otf2)\n", outpath);
    tp_profile_free(p);
    return orc == 0 ? 0 : 1;
  }
  FILE *out = stdout;
  if (outpath && strcmp(outpath, "-")) {
    out = fopen(outpath, views[view].binary ? "wb" : "w");
    if (!out) {
      fprintf(stderr, "tomp-prof report: cannot write '%s': %s\n", outpath, strerror(errno));
      tp_profile_free(p);
      return 1;
    }
  }
  int rc = views[view].fn(p, out);
  if (out != stdout) {
    if (fclose(out) != 0) rc = -1;
    if (rc == 0) fprintf(stderr, "tomp-prof: wrote %s (%s)\n", outpath, views[view].name);
  } else if (fflush(out) != 0) {
    rc = -1;
  }
  if (rc != 0 && outpath) fprintf(stderr, "tomp-prof report: writing '%s' failed\n", outpath);
  tp_profile_free(p);
  return rc == 0 ? 0 : 1;
bad:
  free(paths);
  report_usage();
  return 2;
}
