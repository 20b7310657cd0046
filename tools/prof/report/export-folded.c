/* FlameGraph folded stacks: one line per distinct user-model stack, `root;...;leaf N`, where
 * N is the chosen metric (--metric, default time) in integer MICROSECONDS (not samples: the
 * processes of one profile may have sampled at different rates).  Threads are merged; with
 * --per-thread each stack starts with a `thread N` frame (`rank R thread N` for MPI ranks,
 * `pid P thread N` for other processes).  Frame names are function names; ';' inside a name becomes ':'. */
#include <stdlib.h>
#include <string.h>

#include "profile.h"

typedef struct line {
  char *text;
  double v;
} line_t;

static int by_text(const void *x, const void *y) {
  return strcmp(((const line_t *)x)->text, ((const line_t *)y)->text);
}

static void put(char **buf, size_t *len, size_t *cap, const char *s, int raw) {
  size_t n = strlen(s);
  if (*len + n + 2 > *cap) {
    *cap = (*len + n + 2) * 2;
    *buf = realloc(*buf, *cap);
    if (!*buf) exit(1);
  }
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    (*buf)[(*len)++] = raw ? c : c == ';' ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
  }
  (*buf)[*len] = 0;
}

int tp_export_folded(const tp_profile_t *p, FILE *out) {
  int m = tp_view_opts.metric >= 0 && tp_view_opts.metric < TP_NMETRIC + (int)p->nctr ? tp_view_opts.metric
                                                                                   : TP_M_TIME;
  line_t *lines = calloc(p->nstacks + 1, sizeof *lines);
  if (!lines) return -1;
  size_t n = 0;
  for (size_t s = 0; s < p->nstacks; s++) {
    const tp_stack_t *st = &p->stacks[s];
    /* a counter's events are written as they are: scaled here so that the microseconds
     * conversion below leaves them unchanged */
    double val = m < TP_NMETRIC ? st->v[m] : st->ctr[m - TP_NMETRIC] / 1e6;
    if (val <= 0) continue;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (tp_view_opts.per_thread && st->thread < p->nthreads) {
      char t[64];
      const tp_thread_t *th = &p->threads[st->thread];
      if (p->procs[th->proc].rank >= 0)
        snprintf(t, sizeof t, "rank %d thread %u", p->procs[th->proc].rank, th->index);
      else if (p->nprocs > 1)
        snprintf(t, sizeof t, "pid %lld thread %u", (long long)p->procs[th->proc].pid, th->index);
      else
        snprintf(t, sizeof t, "thread %u", th->index);
      put(&buf, &len, &cap, t, 0);
    }
    for (uint32_t d = 0; d < st->depth; d++) {
      if (len) put(&buf, &len, &cap, ";", 1);
      put(&buf, &len, &cap, p->locs[st->locs[d]].func, 0);
    }
    if (!buf) put(&buf, &len, &cap, "[empty]", 0);
    lines[n].text = buf;
    lines[n].v = val;
    n++;
  }
  qsort(lines, n, sizeof *lines, by_text);
  for (size_t i = 0; i < n;) {
    double v = 0;
    size_t j = i;
    for (; j < n && !strcmp(lines[j].text, lines[i].text); j++) v += lines[j].v;
    long long us = (long long)(v * 1e6 + 0.5);
    if (us > 0) fprintf(out, "%s %lld\n", lines[i].text, us);
    i = j;
  }
  for (size_t i = 0; i < n; i++) free(lines[i].text);
  free(lines);
  return ferror(out) ? -1 : 0;
}
