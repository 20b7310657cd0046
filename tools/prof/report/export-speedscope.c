/* speedscope JSON (https://www.speedscope.app/file-format-schema.json): one "sampled" profile
 * per thread plus an "all threads" profile merging every stack (speedscope shows one profile
 * at a time), and an "all threads: blame" profile when blame shifting charged anything.
 * Weights are seconds of thread time.  Frames are functions: locations of one function
 * (same name and file, different lines) share a frame so that flame graphs merge them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r */
#endif
#include <stdlib.h>
#include <string.h>

#include "export-util.h"
#include "profile.h"

typedef struct ss_ctx {
  const tp_profile_t *p;
  const uint32_t *frame_of;  /* location index -> frame index */
  const tp_loc_t **frame;    /* frame index -> its first location (name, file) */
} ss_ctx_t;

static int cmp_frame(const ss_ctx_t *c, uint32_t fa, uint32_t fb) {
  if (fa == fb) return 0;
  const tp_loc_t *a = c->frame[fa], *b = c->frame[fb];
  int r = strcmp(a->func, b->func);
  if (r) return r;
  r = strcmp(a->file ? a->file : "", b->file ? b->file : "");
  return r ? r : (fa < fb ? -1 : 1);
}

/* Stacks in name order, root first, so that speedscope's time-order view is also a flame
 * graph (equal prefixes sit side by side). */
static int cmp_stack(const void *x, const void *y, void *arg) {
  const ss_ctx_t *c = arg;
  const tp_stack_t *a = &c->p->stacks[*(const uint32_t *)x];
  const tp_stack_t *b = &c->p->stacks[*(const uint32_t *)y];
  uint32_t n = a->depth < b->depth ? a->depth : b->depth;
  for (uint32_t i = 0; i < n; i++) {
    int r = cmp_frame(c, c->frame_of[a->locs[i]], c->frame_of[b->locs[i]]);
    if (r) return r;
  }
  return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* One sampled profile over the stacks sel[0..n) weighted by metric m (zero weights left out). */
static void write_profile(FILE *out, const ss_ctx_t *c, const char *name, uint32_t *sel,
                          size_t n, int m) {
  const tp_profile_t *p = c->p;
  qsort_r(sel, n, sizeof *sel, cmp_stack, (void *)c);
  double total = 0;
  for (size_t i = 0; i < n; i++) total += p->stacks[sel[i]].v[m] > 0 ? p->stacks[sel[i]].v[m] : 0;
  fputs("{\"type\":\"sampled\",\"name\":", out);
  tp_json_str(out, name);
  fputs(",\"unit\":\"seconds\",\"startValue\":0,\"endValue\":", out);
  tp_json_num(out, total, 15);
  fputs(",\n \"samples\":[", out);
  int first = 1;
  for (size_t i = 0; i < n; i++) {
    const tp_stack_t *s = &p->stacks[sel[i]];
    if (!(s->v[m] > 0)) continue;
    fputs(first ? "\n  [" : ",\n  [", out);
    first = 0;
    for (uint32_t d = 0; d < s->depth; d++) fprintf(out, d ? ",%u" : "%u", c->frame_of[s->locs[d]]);
    putc(']', out);
  }
  fputs("],\n \"weights\":[", out);
  first = 1;
  for (size_t i = 0; i < n; i++) {
    const tp_stack_t *s = &p->stacks[sel[i]];
    if (!(s->v[m] > 0)) continue;
    if (!first) putc(',', out);
    first = 0;
    tp_json_num(out, s->v[m], 9);
  }
  fputs("]}", out);
}

int tp_export_speedscope(const tp_profile_t *p, FILE *out) {
  uint32_t *frame_of = tp_ex_alloc((p->nlocs + 1) * sizeof *frame_of);
  const tp_loc_t **frame = tp_ex_alloc((p->nlocs + 1) * sizeof *frame);
  uint32_t *line = tp_ex_alloc((p->nlocs + 1) * sizeof *line);
  tp_intern_t tab = {0};
  for (size_t i = 0; i < p->nlocs; i++) {
    const tp_loc_t *l = &p->locs[i];
    int isnew;
    uint32_t f = tp_intern(&tab, l->func, l->file, &isnew);
    frame_of[i] = f;
    if (isnew) frame[f] = l, line[f] = l->line;
    else if (l->line && (!line[f] || l->line < line[f])) line[f] = l->line; /* nearest the entry */
  }
  size_t nframes = tab.n;
  tp_intern_free(&tab);
  ss_ctx_t c = {p, frame_of, frame};

  const char *prog = p->nprocs && p->procs[0].cmdline ? p->procs[0].cmdline : "";
  fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n\"name\":", out);
  char title[256];
  snprintf(title, sizeof title, "tomp-prof: %.200s", prog);
  tp_json_str(out, title);
  fputs(",\"exporter\":\"tomp-prof\",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[", out);
  for (size_t f = 0; f < nframes; f++) {
    fputs(f ? ",\n {\"name\":" : "\n {\"name\":", out);
    tp_json_str(out, frame[f]->func);
    if (frame[f]->file) {
      fputs(",\"file\":", out);
      tp_json_str(out, frame[f]->file);
    }
    if (line[f]) fprintf(out, ",\"line\":%u", line[f]);
    putc('}', out);
  }
  fputs("]},\n\"profiles\":[\n", out);

  uint32_t *sel = tp_ex_alloc((p->nstacks + 1) * sizeof *sel);
  for (size_t i = 0; i < p->nstacks; i++) sel[i] = (uint32_t)i;
  write_profile(out, &c, "all threads", sel, p->nstacks, TP_M_TIME);
  for (size_t t = 0; t < p->nthreads; t++) {
    size_t n = 0;
    for (size_t i = 0; i < p->nstacks; i++)
      if (p->stacks[i].thread == t) sel[n++] = (uint32_t)i;
    const tp_thread_t *th = &p->threads[t];
    const tp_proc_t *pr = th->proc < p->nprocs ? &p->procs[th->proc] : NULL;
    char name[96];
    if (pr && pr->rank >= 0)
      snprintf(name, sizeof name, "rank %d pid %lld thread %u", pr->rank, (long long)pr->pid, th->index);
    else
      snprintf(name, sizeof name, "pid %lld thread %u", pr ? (long long)pr->pid : 0LL, th->index);
    fputs(",\n", out);
    write_profile(out, &c, name, sel, n, TP_M_TIME);
  }
  double blame = 0;
  for (size_t i = 0; i < p->nstacks; i++) blame += p->stacks[i].v[TP_M_BLAME];
  if (blame > 0) {
    for (size_t i = 0; i < p->nstacks; i++) sel[i] = (uint32_t)i;
    fputs(",\n", out);
    write_profile(out, &c, "all threads: blame", sel, p->nstacks, TP_M_BLAME);
  }
  fputs("\n]}\n", out);
  free(sel);
  free(frame_of);
  free(frame);
  free(line);
  if (ferror(out)) {
    fputs("tomp-prof: writing the speedscope file failed\n", stderr);
    return -1;
  }
  return 0;
}
