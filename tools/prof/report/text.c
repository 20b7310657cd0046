/* The text view: everything a terminal reader needs, 100 columns wide (--width; names are
 * shortened to fit unless --full-names).
 *   header        program, runtime, threads, samples (lost), duration, totals
 *   call tree     top-down, user-model stacks of all threads merged by function name;
 *                 columns time, % (of the chosen metric's total), work, wait, cpu, blame; nodes
 *                 below --min-percent of the metric's total are left out (their time still
 *                 counts in their parents)
 *   functions     flat list: self (leaf) and total (anywhere on the stack, once per stack)
 *   threads       per-thread samples, time, work, wait, wait %, cpu, blame
 *   ranks         with MPI ranks (or several processes): per process threads, time, work,
 *                 OpenMP wait, MPI wait (samples inside MPI calls), MPI %, cpu
 *   regions       per parallel region call path: instances, wall, threads, work, wait,
 *                 imbalance (max/mean of the threads' work), call site */
#include <stdlib.h>
#include <string.h>

#include "profile.h"

#define WIDTH (tp_view_opts.width >= 60 ? tp_view_opts.width : 100) /* --width */

#define NV (TP_NMETRIC + TP_NCTR) /* the metrics, then the counters' events (--metric COUNTER) */

typedef struct node {
  const tp_loc_t *loc;
  double v[NV];
  struct node *child, *next;
} node_t;

static void *xalloc(size_t n) {
  void *p = calloc(1, n);
  if (!p) {
    fputs("tomp-prof report: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

static int same_func(const tp_loc_t *a, const tp_loc_t *b) {
  return a == b || (a->kind == b->kind && !strcmp(a->func, b->func));
}

static node_t *child(node_t *n, const tp_loc_t *loc) {
  for (node_t *c = n->child; c; c = c->next)
    if (same_func(c->loc, loc)) return c;
  node_t *c = xalloc(sizeof *c);
  c->loc = loc;
  c->next = n->child;
  n->child = c;
  return c;
}

static void free_tree(node_t *n) {
  while (n) {
    node_t *next = n->next;
    free_tree(n->child);
    free(n);
    n = next;
  }
}

static int g_metric;
static const tp_profile_t *g_prof; /* for the counter columns */

/* A counter's column heading: short enough for 8 columns. */
static const char *ctr_head(const char *name) {
  static const char *const abbr[][2] = {{"instructions", "instr"}, {"cache-misses", "c-misses"},
      {"cache-references", "c-refs"}, {"branch-misses", "br-miss"}, {"task-clock", "task-clk"},
      {"page-faults", "faults"}, {"context-switches", "cswitch"}, {"cpu-migrations", "migrate"},
      {"LLC-load-misses", "LLC-miss"}, {"L1-dcache-load-misses", "L1d-miss"}};
  for (size_t i = 0; i < sizeof abbr / sizeof abbr[0]; i++)
    if (!strcmp(abbr[i][0], name)) return abbr[i][1];
  return name;
}

/* Event counts in 8 columns: 123456, 12.3M, 1.23G. */
static void print_count(FILE *out, double v) {
  static const char suffix[] = " kMGTPE";
  int k = 0;
  while (v >= 999999.5 && k < 6) v /= 1000, k++;
  if (!k) fprintf(out, " %8.0f", v);
  else fprintf(out, " %7.*f%c", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v, suffix[k]);
}

static void print_counts(FILE *out, const double *c) {
  for (uint32_t k = 0; g_prof && k < g_prof->nctr; k++) print_count(out, c[k]);
}

static int ctr_room(void) { return g_prof ? 9 * (int)g_prof->nctr : 0; }

static const char *metric_label(void) {
  return g_metric < TP_NMETRIC ? tp_metric_name[g_metric] : g_prof->ctr_names[g_metric - TP_NMETRIC];
}
static int by_metric(const void *x, const void *y) {
  const node_t *a = *(node_t *const *)x, *b = *(node_t *const *)y;
  double d = b->v[g_metric] - a->v[g_metric];
  if (d == 0) d = b->v[TP_M_TIME] - a->v[TP_M_TIME];
  return d > 0 ? 1 : d < 0 ? -1 : strcmp(a->loc->func, b->loc->func);
}

static const char *base_name(const char *p) {
  const char *s = p ? strrchr(p, '/') : NULL;
  return s ? s + 1 : p;
}

static double pct(double v, double total) { return total > 0 ? 100.0 * v / total : 0; }

static void print_name(FILE *out, const char *name, const tp_loc_t *loc, int room) {
  char buf[512];
  if (loc && loc->file && loc->kind == TP_LOC_USER && !strstr(name, " @ ")) /* not a construct */
    snprintf(buf, sizeof buf, "%s  [%s]", name, base_name(loc->file));
  else
    snprintf(buf, sizeof buf, "%s", name);
  if ((int)strlen(buf) > room && room > 3 && !tp_view_opts.full_names) {
    snprintf(buf, sizeof buf, "%.*s...", room - 3, name);
  }
  fprintf(out, "%s\n", buf);
}

static void print_tree(FILE *out, node_t *n, int depth, double total, double cut) {
  size_t k = 0;
  for (node_t *c = n->child; c; c = c->next) k++;
  if (!k) return;
  node_t **kids = xalloc(k * sizeof *kids);
  k = 0;
  for (node_t *c = n->child; c; c = c->next) kids[k++] = c;
  qsort(kids, k, sizeof *kids, by_metric);
  size_t hidden = 0;
  for (size_t i = 0; i < k; i++) {
    node_t *c = kids[i];
    if (c->v[g_metric] < cut || c->v[g_metric] <= 0) {
      hidden++;
      continue;
    }
    fprintf(out, "%8.3f %6.1f%% %8.3f %8.3f %8.3f %8.3f", c->v[TP_M_TIME],
            pct(c->v[g_metric], total), c->v[TP_M_WORK], c->v[TP_M_WAIT], c->v[TP_M_CPU],
            c->v[TP_M_BLAME]);
    print_counts(out, c->v + TP_NMETRIC);
    fputs("  ", out);
    int ind = depth < 24 ? depth : 24;
    if (depth >= 24) fprintf(out, "%*s+%d ", ind * 2 - 4, "", depth);
    else fprintf(out, "%*s", ind * 2, "");
    print_name(out, c->loc->func, c->loc, WIDTH - 54 - ctr_room() - ind * 2);
    print_tree(out, c, depth + 1, total, cut);
  }
  (void)hidden;
  free(kids);
}

/* ---- flat list ---- */
typedef struct flat {
  const tp_loc_t *loc;
  double self[NV], total[NV];
  size_t last_stack; /* counts a function once per stack */
} flat_t;

static int flat_cmp(const void *x, const void *y) {
  const flat_t *a = x, *b = y;
  double d = b->self[g_metric] - a->self[g_metric];
  if (d == 0) d = b->total[g_metric] - a->total[g_metric];
  return d > 0 ? 1 : d < 0 ? -1 : strcmp(a->loc->func, b->loc->func);
}

static void print_flat(const tp_profile_t *p, FILE *out, double total, double cut) {
  flat_t *f = NULL;
  size_t n = 0, cap = 0;
  uint32_t *of_loc = xalloc((p->nlocs + 1) * sizeof *of_loc); /* flat index + 1 */
  for (size_t i = 0; i < p->nlocs; i++) {
    size_t j;
    for (j = 0; j < n; j++) /* merge locations of one function (other lines) */
      if (same_func(f[j].loc, &p->locs[i])) break;
    if (j == n) {
      if (n == cap) {
        cap = cap ? cap * 2 : 64;
        f = realloc(f, cap * sizeof *f);
        if (!f) exit(1);
      }
      memset(&f[n], 0, sizeof *f);
      f[n].loc = &p->locs[i];
      f[n].last_stack = (size_t)-1;
      n++;
    }
    of_loc[i] = (uint32_t)j + 1;
  }
  for (size_t s = 0; s < p->nstacks; s++) {
    const tp_stack_t *st = &p->stacks[s];
    for (uint32_t d = 0; d < st->depth; d++) {
      flat_t *e = &f[of_loc[st->locs[d]] - 1];
      if (d == st->depth - 1) {
        for (int m = 0; m < TP_NMETRIC; m++) e->self[m] += st->v[m];
        for (int k = 0; k < TP_NCTR; k++) e->self[TP_NMETRIC + k] += st->ctr[k];
      }
      if (e->last_stack == s) continue;
      e->last_stack = s;
      for (int m = 0; m < TP_NMETRIC; m++) e->total[m] += st->v[m];
      for (int k = 0; k < TP_NCTR; k++) e->total[TP_NMETRIC + k] += st->ctr[k];
    }
  }
  qsort(f, n, sizeof *f, flat_cmp);
  fprintf(out, "\nFunctions by self %s (%s; self = at the leaf, total = anywhere on the stack)\n",
          metric_label(), g_metric < TP_NMETRIC ? "seconds" : "events; wait and blame in seconds");
  fprintf(out, "%8s %6s %8s %6s %8s %8s  %s\n", "self", "%", "total", "%", "wait", "blame", "function");
  int shown = 0;
  for (size_t i = 0; i < n && shown < 40; i++) {
    if (f[i].total[g_metric] < cut || f[i].total[g_metric] <= 0) continue;
    if (g_metric < TP_NMETRIC)
      fprintf(out, "%8.3f %5.1f%% %8.3f %5.1f%%", f[i].self[g_metric], pct(f[i].self[g_metric], total),
              f[i].total[g_metric], pct(f[i].total[g_metric], total));
    else { /* event counts: 9 columns each (print_count) */
      print_count(out, f[i].self[g_metric]);
      fprintf(out, " %5.1f%%", pct(f[i].self[g_metric], total));
      print_count(out, f[i].total[g_metric]);
      fprintf(out, " %5.1f%%", pct(f[i].total[g_metric], total));
    }
    fprintf(out, " %8.3f %8.3f  ",
            f[i].total[TP_M_WAIT], f[i].total[TP_M_BLAME]);
    print_name(out, f[i].loc->func, f[i].loc, WIDTH - 52);
    shown++;
  }
  free(f);
  free(of_loc);
}

static void thread_label(const tp_profile_t *p, const tp_thread_t *t, char *buf, size_t n) {
  const char *kind = t->kind == 1 ? " initial" : "";
  if (p->procs[t->proc].rank >= 0)
    snprintf(buf, n, "r%d:%u%s", p->procs[t->proc].rank, t->index, kind);
  else if (p->nprocs > 1)
    snprintf(buf, n, "%lld:%u%s", (long long)p->procs[t->proc].pid, t->index, kind);
  else
    snprintf(buf, n, "%u%s", t->index, kind);
}

static void print_threads(const tp_profile_t *p, FILE *out) {
  fprintf(out, "\nThreads (seconds)\n%-16s %8s %8s %8s %8s %6s %8s %8s", "thread", "samples",
          "time", "work", "wait", "wait%", "cpu", "blame");
  for (uint32_t k = 0; k < p->nctr; k++) fprintf(out, " %8.8s", ctr_head(p->ctr_names[k]));
  fprintf(out, "  %s\n", "tid");
  for (size_t i = 0; i < p->nthreads; i++) {
    const tp_thread_t *t = &p->threads[i];
    char label[64];
    thread_label(p, t, label, sizeof label);
    fprintf(out, "%-16s %8llu %8.3f %8.3f %8.3f %5.1f%% %8.3f %8.3f", label,
            (unsigned long long)t->samples, t->v[TP_M_TIME], t->v[TP_M_WORK], t->v[TP_M_WAIT],
            pct(t->v[TP_M_WAIT], t->v[TP_M_TIME]), t->v[TP_M_CPU], t->v[TP_M_BLAME]);
    print_counts(out, t->ctr);
    fprintf(out, "  %lld\n", (long long)t->tid);
  }
}

static int by_rank(const void *x, const void *y) {
  const tp_proc_t *a = *(const tp_proc_t *const *)x, *b = *(const tp_proc_t *const *)y;
  return a->rank != b->rank ? (a->rank < b->rank ? -1 : 1) : (a->pid > b->pid) - (a->pid < b->pid);
}

/* One row per process (MPI rank): where its threads' time went.  MPI wait is the time of
 * samples inside MPI calls, counted as wait (not work). */
static void print_ranks(const tp_profile_t *p, FILE *out) {
  int mpi = 0;
  for (size_t i = 0; i < p->nprocs; i++) mpi |= p->procs[i].rank >= 0;
  if (!mpi && p->nprocs < 2) return;
  const tp_proc_t **order = xalloc(p->nprocs * sizeof *order);
  for (size_t i = 0; i < p->nprocs; i++) order[i] = &p->procs[i];
  qsort(order, p->nprocs, sizeof *order, by_rank);
  fprintf(out, "\nRanks (seconds; MPI wait = samples inside MPI calls, counted as wait)\n"
               "%-6s %8s %4s %8s %8s %8s %8s %6s %8s\n", "rank", "pid", "thr", "time", "work",
          "omp wait", "MPI wait", "MPI%", "cpu");
  for (size_t i = 0; i < p->nprocs; i++) {
    const tp_proc_t *pr = order[i];
    size_t pi = (size_t)(pr - p->procs);
    double time = 0, cpu = 0;
    unsigned nt = 0;
    for (size_t t = 0; t < p->nthreads; t++)
      if (p->threads[t].proc == pi) nt++, time += p->threads[t].v[TP_M_TIME], cpu += p->threads[t].v[TP_M_CPU];
    double omp = pr->by_class[TP_SC_WAIT] + pr->by_class[TP_SC_IDLE] + pr->by_class[TP_SC_RTWAIT];
    char rank[16];
    if (pr->rank >= 0) snprintf(rank, sizeof rank, "%d", pr->rank);
    else snprintf(rank, sizeof rank, "-");
    fprintf(out, "%-6s %8lld %4u %8.3f %8.3f %8.3f %8.3f %5.1f%% %8.3f\n", rank, (long long)pr->pid,
            nt, time, pr->by_class[TP_SC_WORK], omp, pr->by_class[TP_SC_MPI],
            pct(pr->by_class[TP_SC_MPI], time), cpu);
  }
  free(order);
}

/* "creator (file:line) < caller < ... < main": the function that created the region first,
 * the line of the parallel construct's call, then the path back to the root. */
static void call_site(const tp_profile_t *p, const tp_region_t *r, char *buf, size_t n) {
  if (!r->depth) {
    snprintf(buf, n, "(initial task)");
    return;
  }
  const tp_loc_t *leaf = &p->locs[r->locs[r->depth - 1]];
  size_t len = (size_t)snprintf(buf, n, "%s", leaf->func);
  if (leaf->file && len < n)
    len += (size_t)snprintf(buf + len, n - len, " (%s:%u)", base_name(leaf->file), leaf->line);
  for (uint32_t i = r->depth - 1; i-- > 0 && len < n;)
    len += (size_t)snprintf(buf + len, n - len, " < %s", p->locs[r->locs[i]].func);
}

static void print_regions(const tp_profile_t *p, FILE *out) {
  if (!p->nregions) return;
  fprintf(out, "\nParallel regions (seconds; imbalance = max/mean of the threads' work)\n"
               "%9s %8s %4s %8s %8s %6s  %s\n", "instances", "wall", "thr", "work", "wait",
          "imbal", "created at");
  for (size_t i = 0; i < p->nregions; i++) {
    const tp_region_t *r = &p->regions[i];
    double work = 0;
    for (uint32_t t = 0; t < r->nthreads; t++) work += r->work[t];
    char site[256], imb[16];
    call_site(p, r, site, sizeof site);
    if (r->imbalance > 0) snprintf(imb, sizeof imb, "%6.2f", r->imbalance);
    else snprintf(imb, sizeof imb, "%6s", "-");
    fprintf(out, "%9llu %8.3f %4u %8.3f %8.3f %s  %.*s\n", (unsigned long long)r->instances, r->wall,
            r->nthreads, work, r->wait, imb, WIDTH - 50, site);
  }
}

/* Counters: their totals (and instructions per cycle), sampling on a counter, and what was
 * asked for but not recorded. */
static void print_counter_header(const tp_profile_t *p, FILE *out) {
  double ctot[TP_NCTR] = {0};
  for (size_t t = 0; t < p->nthreads; t++)
    for (uint32_t k = 0; k < p->nctr; k++) ctot[k] += p->threads[t].ctr[k];
  if (p->nctr) {
    int cyc = -1, ins = -1;
    fputs("counters (user space, events over the samples' intervals):", out);
    for (uint32_t k = 0; k < p->nctr; k++) {
      fprintf(out, " %s %.4g%s", p->ctr_names[k], ctot[k], k + 1 < p->nctr ? "," : "");
      if (!strcmp(p->ctr_names[k], "cycles")) cyc = (int)k;
      if (!strcmp(p->ctr_names[k], "instructions")) ins = (int)k;
    }
    if (cyc >= 0 && ins >= 0 && ctot[cyc] > 0) fprintf(out, "; %.2f instructions per cycle", ctot[ins] / ctot[cyc]);
    fputc('\n', out);
  }
  for (size_t i = 0; i < p->nprocs; i++) {
    const tp_proc_t *pr = &p->procs[i];
    if (pr->sample_on && (i == 0 || !p->procs[0].sample_on))
      fprintf(out, "sampled every %llu %s events of each thread (not a timer): time is the CPU "
                   "time the samples stand for\n",
              (unsigned long long)pr->sample_period, pr->sample_on);
    if (pr->counter_note && (i == 0 || !p->procs[0].counter_note))
      fprintf(out, "not recorded: %s\n", pr->counter_note);
  }
}

static void print_header(const tp_profile_t *p, FILE *out, const double *tot, double wait_cpu) {
  uint64_t samples = 0, lost = 0, late = 0;
  double dur = 0, lost_time = 0, late_extra = 0;
  int has_cpu = 0;
  for (size_t i = 0; i < p->nprocs; i++) {
    const tp_proc_t *pr = &p->procs[i];
    samples += pr->samples;
    lost += pr->lost;
    lost_time += pr->lost_time;
    late += pr->late;
    late_extra += pr->late_extra;
    has_cpu |= pr->has_cpu;
    if (pr->duration > dur) dur = pr->duration;
    char rank[24] = "";
    if (pr->rank >= 0) snprintf(rank, sizeof rank, ", rank %d", pr->rank);
    if (i < 4)
      fprintf(out, "tomp-prof report: %.60s  (pid %lld%s)  runtime: %s\n",
              pr->cmdline ? pr->cmdline : "?", (long long)pr->pid, rank,
              pr->runtime && *pr->runtime ? pr->runtime : "?");
  }
  if (p->nprocs > 4) fprintf(out, "tomp-prof report: ... %zu processes in all\n", p->nprocs);
  double mpi = 0;
  for (size_t i = 0; i < p->nprocs; i++) mpi += p->procs[i].by_class[TP_SC_MPI];
  fprintf(out, "%zu thread%s, %llu samples (%llu lost) at %u Hz, %.3f s recorded\n", p->nthreads,
          p->nthreads == 1 ? "" : "s", (unsigned long long)samples, (unsigned long long)lost,
          p->nprocs ? p->procs[0].sample_hz : 0, dur);
  fprintf(out, "thread time %.3f s = work %.3f s + wait %.3f s (%.1f%% waiting); blame %.3f s\n",
          tot[TP_M_TIME], tot[TP_M_WORK], tot[TP_M_WAIT], pct(tot[TP_M_WAIT], tot[TP_M_TIME]),
          tot[TP_M_BLAME]);
  if (mpi > 0)
    fprintf(out, "MPI wait %.3f s (%.1f%% of thread time): samples inside MPI calls, counted as wait\n",
            mpi, pct(mpi, tot[TP_M_TIME]));
  /* every timer period is accounted for: merged expiries weigh their sample, lost ones are
   * said here */
  if (late)
    fprintf(out, "%llu samples stand for more than one period (timer overruns, late signals: a "
                 "loaded machine): %.3f s weighted in\n",
            (unsigned long long)late, late_extra);
  if (lost)
    fprintf(out, "not sampled: %.3f s of thread time (%llu samples lost)\n", lost_time,
            (unsigned long long)lost);
  if (has_cpu)
    fprintf(out, "cpu %.3f s of %.3f s: work %.3f s on CPU; wait %.3f s on CPU (spinning), %.3f s "
                 "off CPU (blocked, preempted)\n",
            tot[TP_M_CPU], tot[TP_M_TIME], tot[TP_M_CPU] - wait_cpu, wait_cpu,
            tot[TP_M_WAIT] > wait_cpu ? tot[TP_M_WAIT] - wait_cpu : 0);
  print_counter_header(p, out);
}

int tp_view_text(const tp_profile_t *p, FILE *out) {
  g_metric = tp_view_opts.metric >= 0 && tp_view_opts.metric < TP_NMETRIC + (int)p->nctr ? tp_view_opts.metric
                                                                                         : TP_M_TIME;
  g_prof = p;
  double tot[NV] = {0}, wait_cpu = 0;
  node_t root = {0};
  for (size_t s = 0; s < p->nstacks; s++) {
    const tp_stack_t *st = &p->stacks[s];
    node_t *n = &root;
    for (int m = 0; m < TP_NMETRIC; m++) tot[m] += st->v[m];
    for (int k = 0; k < TP_NCTR; k++) tot[TP_NMETRIC + k] += st->ctr[k];
    if (st->v[TP_M_TIME] > 0) wait_cpu += st->v[TP_M_CPU] * st->v[TP_M_WAIT] / st->v[TP_M_TIME];
    for (uint32_t d = 0; d < st->depth; d++) {
      n = child(n, &p->locs[st->locs[d]]);
      for (int m = 0; m < TP_NMETRIC; m++) n->v[m] += st->v[m];
      for (int k = 0; k < TP_NCTR; k++) n->v[TP_NMETRIC + k] += st->ctr[k];
    }
  }
  print_header(p, out, tot, wait_cpu);
  double cut = tot[g_metric] * tp_view_opts.min_percent / 100.0;
  fprintf(out, "\nCall tree (seconds, counters in events; %% of %s; nodes under %.2g%% hidden)\n", metric_label(),
          tp_view_opts.min_percent);
  fprintf(out, "%8s %7s %8s %8s %8s %8s", "time", "%", "work", "wait", "cpu", "blame");
  for (uint32_t k = 0; k < p->nctr; k++) fprintf(out, " %8.8s", ctr_head(p->ctr_names[k]));
  fprintf(out, "  %s\n", "function");
  print_tree(out, &root, 0, tot[g_metric], cut);
  free_tree(root.child);
  print_flat(p, out, tot[g_metric], cut);
  print_threads(p, out);
  print_ranks(p, out);
  print_regions(p, out);
  return ferror(out) ? -1 : 0;
}
