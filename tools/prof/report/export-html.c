/* A single-file HTML report: call tree, flame graph, per-thread timeline, regions, MPI ranks
 * and threads, in one page that opens offline.  The page is this file's skeleton, the
 * stylesheet export-html.css and the script export-html.js (both built into the program with
 * .incbin), and the profile as JSON inside <script type="application/json">: the script
 * builds every view from it.  A Content-Security-Policy forbids any network access.
 *
 * The JSON (times in seconds):
 *   procs    [{pid, rank, cmd, runtime, hz, dur, start, samples, lost, lost_time, cls[5]}]
 *            start: from the earliest process's start; cls: time by TP_SC_* class
 *   locs     [[function, file|null, line, kind]]                     (profile.h tp_loc_t)
 *   stacks   [[thread, [loc...root first], time, work, wait, cpu, blame]]
 *   threads  [[proc, index, tid, kind, samples, time, work, wait, cpu, blame]]
 *   regions  [[[loc...], instances, wall, threads, work, wait, imbalance]]
 *   lanes    [[thread, [start, end, stack, class, ...]]]  consecutive samples of a thread on
 *            one stack and class merged; times from the earliest process's start
 *   events   [[thread, start, duration, name, category]]   --trace slices (instants left out)
 * Every '<' in the JSON is written \u003c, so no string can end the script element. */
#include <stdlib.h>
#include <string.h>

#include "export-util.h"
#include "profile.h"

/* The stylesheet and the script, NUL-terminated; make runs the compiler from the top of the
 * repository, where .incbin finds them (prof.mk makes this object depend on both). */
__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        "tp_html_css:\n"
        ".incbin \"tools/prof/report/export-html.css\"\n"
        ".byte 0\n"
        ".balign 16\n"
        "tp_html_js:\n"
        ".incbin \"tools/prof/report/export-html.js\"\n"
        ".byte 0\n"
        ".popsection\n");
/* the symbols the assembly above defines (not prototypes of another file's functions) */
extern const char tp_html_css[] __asm__("tp_html_css");
extern const char tp_html_js[] __asm__("tp_html_js");

/* Beyond this many timeline segments, a thread's consecutive samples of one class are merged
 * whatever their stacks (the tooltip then shows the first one's stack). */
#define MAX_SEGMENTS 200000
#define MAX_EVENTS 100000

static void num(FILE *o, double v) {
  tp_json_num(o, v, 7);
}
static void comma_num(FILE *o, double v) {
  putc(',', o);
  num(o, v);
}

static void write_procs(FILE *o, const tp_profile_t *p) {
  fputs("\"procs\":[", o);
  for (size_t i = 0; i < p->nprocs; i++) {
    const tp_proc_t *pr = &p->procs[i];
    fprintf(o, "%s\n{\"pid\":%lld,\"rank\":%d,\"cmd\":", i ? "," : "", (long long)pr->pid,
            pr->rank);
    tp_json_str(o, pr->cmdline);
    fputs(",\"runtime\":", o);
    tp_json_str(o, pr->runtime);
    fprintf(o, ",\"hz\":%u,\"dur\":", pr->sample_hz);
    num(o, pr->duration);
    fputs(",\"start\":", o);
    num(o, pr->start);
    fprintf(o, ",\"samples\":%llu,\"lost\":%llu,\"lost_time\":", (unsigned long long)pr->samples,
            (unsigned long long)pr->lost);
    num(o, pr->lost_time);
    fputs(",\"cls\":[", o);
    for (int c = 0; c < TP_NSC; c++) {
      if (c) putc(',', o);
      num(o, pr->by_class[c]);
    }
    fputs("]}", o);
  }
  fputs("],\n", o);
}

/* time, work, wait, cpu, blame: the page's metric order */
static void values(FILE *o, const double *v) {
  static const int order[] = {TP_M_TIME, TP_M_WORK, TP_M_WAIT, TP_M_CPU, TP_M_BLAME};
  for (int k = 0; k < 5; k++)
    comma_num(o, v[order[k]]);
}

static void path(FILE *o, const uint32_t *locs, uint32_t depth) {
  putc('[', o);
  for (uint32_t d = 0; d < depth; d++)
    fprintf(o, d ? ",%u" : "%u", locs[d]);
  putc(']', o);
}

static void write_model(FILE *o, const tp_profile_t *p) {
  fputs("\"locs\":[", o);
  for (size_t i = 0; i < p->nlocs; i++) {
    const tp_loc_t *l = &p->locs[i];
    fputs(i ? ",\n[" : "\n[", o);
    tp_json_str(o, l->func);
    putc(',', o);
    if (l->file)
      tp_json_str(o, l->file);
    else
      fputs("null", o);
    fprintf(o, ",%u,%u]", l->line, l->kind);
  }
  fputs("],\n\"stacks\":[", o);
  for (size_t i = 0; i < p->nstacks; i++) {
    const tp_stack_t *s = &p->stacks[i];
    fprintf(o, "%s\n[%u,", i ? "," : "", s->thread);
    path(o, s->locs, s->depth);
    values(o, s->v);
    putc(']', o);
  }
  fputs("],\n\"threads\":[", o);
  for (size_t i = 0; i < p->nthreads; i++) {
    const tp_thread_t *t = &p->threads[i];
    fprintf(o, "%s\n[%u,%u,%lld,%u,%llu", i ? "," : "", t->proc, t->index, (long long)t->tid,
            t->kind, (unsigned long long)t->samples);
    values(o, t->v);
    putc(']', o);
  }
  fputs("],\n\"regions\":[", o);
  for (size_t i = 0; i < p->nregions; i++) {
    const tp_region_t *r = &p->regions[i];
    double work = 0;
    for (uint32_t t = 0; t < r->nthreads; t++)
      work += r->work[t];
    fputs(i ? ",\n[" : "\n[", o);
    path(o, r->locs, r->depth);
    fprintf(o, ",%llu", (unsigned long long)r->instances);
    comma_num(o, r->wall);
    fprintf(o, ",%u", r->nthreads);
    comma_num(o, work);
    comma_num(o, r->wait);
    comma_num(o, r->imbalance);
    putc(']', o);
  }
  fputs("],\n", o);
}

static void segment(FILE *o, size_t *n, double b, double e, uint32_t stack, uint32_t cls) {
  if (o) {
    if ((*n)++) putc(',', o);
    num(o, b), putc(',', o), num(o, e), fprintf(o, ",%u,%u", stack, cls);
  } else {
    (*n)++;
  }
}

/* Segments per thread: consecutive samples merged when they are adjacent in time and share
 * the class (and the stack, unless by_class_only). */
static size_t write_lanes(FILE *o, const tp_profile_t *p, int by_class_only) {
  size_t nseg = 0;
  if (o) fputs("\"lanes\":[", o);
  uint32_t *first = tp_ex_alloc((p->nthreads + 1) * sizeof *first); /* sample index + 1 */
  uint32_t *next = tp_ex_alloc((p->npsamples + 1) * sizeof *next);
  uint32_t *last = tp_ex_alloc((p->nthreads + 1) * sizeof *last);
  for (size_t i = 0; i < p->npsamples; i++) { /* chain each thread's samples in order */
    uint32_t t = p->psamples[i].thread;
    if (t >= p->nthreads) continue;
    if (last[t])
      next[last[t] - 1] = (uint32_t)i + 1;
    else
      first[t] = (uint32_t)i + 1;
    last[t] = (uint32_t)i + 1;
  }
  int lane = 0;
  for (size_t t = 0; t < p->nthreads; t++) {
    if (!first[t]) continue;
    double off = p->threads[t].proc < p->nprocs ? p->procs[p->threads[t].proc].start : 0;
    if (o) fprintf(o, "%s\n[%zu,[", lane++ ? "," : "", t);
    size_t in_lane = 0;
    int open = 0;
    double s0 = 0, e0 = 0;
    uint32_t st0 = 0, c0 = 0;
    for (uint32_t i = first[t]; i; i = next[i - 1]) {
      const tp_psample_t *s = &p->psamples[i - 1];
      double e = off + s->ts, b = e - s->weight;
      if (b < 0) b = 0;
      if (open && s->cls == c0 && (by_class_only || s->stack == st0) && b <= e0 + 1e-4) {
        e0 = e;
        continue;
      }
      if (open) segment(o, &in_lane, s0, e0, st0, c0);
      open = 1;
      s0 = b, e0 = e, st0 = s->stack, c0 = s->cls;
    }
    if (open) segment(o, &in_lane, s0, e0, st0, c0);
    nseg += in_lane;
    if (o) fputs("]]", o);
  }
  if (o) fputs("],\n", o);
  free(first);
  free(next);
  free(last);
  return nseg;
}

static void write_events(FILE *o, const tp_profile_t *p) {
  fputs("\"events\":[", o);
  size_t n = 0;
  for (size_t i = 0; i < p->nevents && n < MAX_EVENTS; i++) {
    const tp_event_t *e = &p->events[i];
    if (e->dur < 0) continue; /* instants */
    double off = e->proc < p->nprocs ? p->procs[e->proc].start : 0;
    fprintf(o, "%s\n[%u", n++ ? "," : "", e->thread);
    comma_num(o, off + e->ts);
    comma_num(o, e->dur);
    putc(',', o);
    tp_json_str(o, e->name);
    putc(',', o);
    tp_json_str(o, e->cat);
    putc(']', o);
  }
  fputs("]\n", o);
}

/* Copies the JSON text with every '<' escaped (inside JSON, '<' only occurs in strings). */
static void put_escaped(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '<')
      fputs("\\u003c", out);
    else
      putc(s[i], out);
  }
}

int tp_export_html(const tp_profile_t *p, FILE *out) {
  char *json = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&json, &len);
  if (!o) {
    fputs("tomp-prof: out of memory\n", stderr);
    return -1;
  }
  putc('{', o);
  write_procs(o, p);
  write_model(o, p);
  write_lanes(o, p, write_lanes(NULL, p, 0) > MAX_SEGMENTS);
  write_events(o, p);
  putc('}', o);
  if (fclose(o) != 0) {
    free(json);
    fputs("tomp-prof: out of memory\n", stderr);
    return -1;
  }
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        "<meta name=\"generator\" content=\"tomp-prof\">\n"
        "<title>tomp-prof report</title>\n<style>\n",
        out);
  fputs(tp_html_css, out);
  fputs("</style></head>\n<body>\n"
        "<header><h1>tomp-prof report</h1><div id=\"summary\"></div>\n"
        "<nav><a href=\"#tree-sec\">call tree</a><a href=\"#flame-sec\">flame graph</a>"
        "<a href=\"#timeline-sec\">timeline</a><a href=\"#regions-sec\">parallel regions</a>"
        "<a href=\"#ranks-sec\">MPI ranks</a><a href=\"#threads-sec\">threads</a></nav></header>\n"
        "<div id=\"error\"></div>\n"
        "<section id=\"tree-sec\"><h2>Call tree</h2>\n"
        "<div class=\"controls\">metric <select id=\"metric\"></select> of <select "
        "id=\"only\"></select> (seconds; merged by function; click a row to expand it)</div>\n"
        "<div id=\"tree-wrap\"><table id=\"tree\"></table></div>\n"
        "<h2>Functions</h2><div class=\"controls\">self = at the leaf, total = anywhere on the "
        "stack; the 50 largest by self</div>\n<div id=\"func-wrap\"><table "
        "id=\"functions\"></table></div></section>\n"
        "<section id=\"flame-sec\"><h2>Flame graph</h2>\n"
        "<div class=\"controls\">root on top, heaviest first, width by the metric above; "
        "<span id=\"flame-note\"></span></div><div id=\"flame\"></div></section>\n"
        "<section id=\"timeline-sec\"><h2>Timeline</h2>\n"
        "<div class=\"controls\">one lane per thread, each sample over the wall time it "
        "stands for; hover for its stack; <span id=\"zoom-note\"></span></div><div "
        "id=\"timeline\"></div></section>\n"
        "<section id=\"regions-sec\"><h2>Parallel regions</h2><div class=\"controls\" "
        "id=\"regions-note\">seconds; imbalance = max/mean of the threads' work</div>\n"
        "<table id=\"regions\"></table></section>\n"
        "<section id=\"ranks-sec\"><h2>MPI ranks</h2><div class=\"controls\">MPI wait: samples "
        "inside MPI calls</div>\n<table id=\"ranks\"></table></section>\n"
        "<section id=\"threads-sec\"><h2>Threads</h2><table id=\"threads\"></table></section>\n"
        "<div id=\"tip\"></div>\n"
        "<script type=\"application/json\" id=\"tp-data\">",
        out);
  put_escaped(out, json, len);
  free(json);
  fputs("</script>\n<script>\n", out);
  fputs(tp_html_js, out);
  fputs("</script>\n</body></html>\n", out);
  if (ferror(out)) {
    fputs("tomp-prof: writing the HTML report failed\n", stderr);
    return -1;
  }
  return 0;
}
