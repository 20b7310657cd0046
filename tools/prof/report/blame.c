/* Metrics: time, work, wait and blame per stack, per thread and per parallel region.
 *
 * Each sample weighs the wall time it stands for (interval_ns: the time since its thread's
 * previous timer expiry, which covers overruns; 1/sample_hz when unknown).  wait = samples in
 * an OpenMP wait state (barrier, taskwait, taskgroup, lock, critical, atomic, ordered,
 * target), idle, or overhead (the runtime's own bookkeeping: not the user's work), and
 * working samples whose leaf side is a runtime wait loop (REP_RTWAIT); work = everything
 * else (work_serial, work_parallel, work_reduction, undefined).  So work + wait = time.
 * cpu = the CPU time of the sample's thread over its interval.
 *
 * Blame (technical report §3.2.1) is extra time charged to the code that made others wait;
 * it is not part of time:
 *  - directed: a TP_REC_BLAME record says `samples` samples (wait_ns of time) were taken
 *    while threads waited for a lock / critical / atomic / ordered wait id that this releaser
 *    then released: that time goes to the releaser's user-model stack;
 *  - undirected: a working sample (or one inside an MPI call: the team waits for it) whose
 *    team had w of n threads waiting in a barrier
 *    (team_waiting, team_size, n > w) charges its weight * w / (n - w) to its own stack: the
 *    waiting threads' time, shared among the threads still working.  A thread that runs an
 *    explicit task inside a barrier is working: the recorder does not count it in w.  Both the
 *    waiting and the charges are sampled, and on a loaded machine a sample that stands for a
 *    long interval (an overrun) may have changed state within it, so per region instance the
 *    charges are scaled to add up to the barrier wait sampled in that instance: the blame
 *    charged equals the waiting it explains.
 *
 * Regions: samples are grouped by region_context (the parallel region's creation path);
 * instances and wall time come from TP_REC_REGION.  The format has no thread number within
 * the team, so per-thread work is by the tool's thread index (exact for one level of
 * parallelism with a stable pool; nested teams drawn from different workers are merged by
 * worker). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"

int rep_state_class(uint32_t st) {
  if (st == 0x100) return REP_IDLE;
  if ((st >= 0x010 && st < 0x100) || st == 0x101) return REP_WAIT;
  return REP_WORK;
}

int rep_sample_class(const tp_sample_t *s) {
  /* LLVM's libomp reports its pooled workers as waiting in a barrier (the fork barrier)
   * while they belong to no region: that is idling, not a barrier of the program */
  if (s->state >= 0x010 && s->state < 0x020 && !s->region && !s->context) return REP_IDLE;
  return rep_state_class(s->state);
}

const char *rep_wait_name(uint32_t st) {
  if (st >= 0x010 && st < 0x020) return "omp barrier wait";
  switch (st) {
  case 0x020: return "omp taskwait";
  case 0x021: return "omp taskgroup wait";
  case 0x040: return "omp mutex wait";
  case 0x041: return "omp lock wait";
  case 0x042: return "omp critical wait";
  case 0x043: return "omp atomic wait";
  case 0x044: return "omp ordered wait";
  case 0x100: return "omp idle";
  case 0x101: return "omp overhead";
  default: break;
  }
  if (st >= 0x080 && st < 0x090) return "omp target wait";
  if (st >= 0x010 && st < 0x100) return "omp wait";
  return NULL;
}

typedef struct region_acc {
  uint32_t proc;
  uint64_t ctx;
  const uint32_t *locs;
  uint32_t depth;
  uint64_t instances;
  double wall, wait;
  uint32_t max_team;
  double *work;   /* per profile thread */
  uint8_t *seen;  /* per profile thread: had a sample in the region */
} region_acc_t;

struct rep_acc {
  tp_profile_t *p;
  region_acc_t *r;
  size_t n, cap;
  size_t pscap; /* of p->psamples */
};

/* The profile's index of each of the file's counters (by name; -1: no room). */
static void counter_map(tp_profile_t *p, const rep_file_t *f, rep_model_t *m, int *map) {
  for (uint32_t k = 0; k < TP_MAX_COUNTERS; k++) map[k] = -1;
  if (!f->counters) return;
  for (uint32_t k = 0; k < f->counters->n && k < TP_MAX_COUNTERS; k++) {
    char name[sizeof f->counters->names[k] + 1];
    snprintf(name, sizeof name, "%.*s", (int)sizeof f->counters->names[k], f->counters->names[k]);
    uint32_t j = 0;
    while (j < p->nctr && strcmp(p->ctr_names[j], name)) j++;
    if (j == p->nctr && p->nctr < TP_NCTR) p->ctr_names[p->nctr++] = rep_str(m, name);
    if (j < p->nctr) map[k] = (int)j;
  }
}

static int by_thread_time(const void *x, const void *y) {
  const tp_psample_t *a = x, *b = y;
  if (a->proc != b->proc) return a->proc < b->proc ? -1 : 1;
  if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
  return a->ts < b->ts ? -1 : a->ts > b->ts;
}

rep_acc_t *rep_acc_new(tp_profile_t *p) {
  rep_acc_t *a = rep_alloc(sizeof *a);
  a->p = p;
  return a;
}

static region_acc_t *region(rep_acc_t *a, rep_file_t *f, rep_model_t *m, uint64_t ctx) {
  for (size_t i = a->n; i-- > 0;) /* recent first: few regions in practice */
    if (a->r[i].proc == f->proc && a->r[i].ctx == ctx) return &a->r[i];
  a->r = rep_grow(a->r, &a->cap, a->n + 1, sizeof *a->r);
  region_acc_t *r = &a->r[a->n++];
  r->proc = f->proc;
  r->ctx = ctx;
  r->locs = rep_ctx_stack(f, m, ctx, &r->depth);
  r->work = rep_alloc((a->p->nthreads + 1) * sizeof *r->work);
  r->seen = rep_alloc(a->p->nthreads + 1);
  return r;
}

/* Per region instance: the barrier wait sampled in it and the raw undirected charges. */
typedef struct inst {
  uint64_t id; /* region instance, 0 = empty slot */
  double wait, raw;
} inst_t;

static inst_t *inst_slot(inst_t *tab, size_t cap, uint64_t id) {
  size_t h = (size_t)(id * 0x9e3779b97f4a7c15ull) & (cap - 1);
  while (tab[h].id && tab[h].id != id) h = (h + 1) & (cap - 1);
  tab[h].id = id;
  return &tab[h];
}

static double sample_weight(const tp_sample_t *s, double period) {
  return s->interval_ns ? (double)s->interval_ns / 1e9 : period;
}

/* A thread inside an MPI call is not waiting at the barrier: its teammates wait for it, so
 * the MPI call is charged like work (`...;MPI_Allreduce;MPI wait` carries the blame). */
static double raw_blame(const tp_sample_t *s, int cls, double w) {
  if ((cls != REP_WORK && cls != REP_MPI) || !s->team_waiting || s->team_size <= s->team_waiting)
    return 0;
  return w * s->team_waiting / (s->team_size - s->team_waiting);
}

static int barrier_state(uint32_t st) { return st >= 0x010 && st < 0x020; }

/* --fold-recursion: a function that is already on the path (recursion, direct or through
 * other functions) takes the place of its first occurrence: the frames in between go, so
 * `main;msort;msort;msort;qsort` reads `main;msort;qsort`. */
static uint32_t fold_recursion(const tp_profile_t *p, uint32_t *locs, uint32_t d) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < d; i++) {
    const tp_loc_t *l = &p->locs[locs[i]];
    uint32_t j = 0;
    if (l->kind == TP_LOC_USER)
      while (j < k && strcmp(p->locs[locs[j]].func, l->func)) j++;
    if (l->kind == TP_LOC_USER && j < k)
      k = j + 1; /* keep the first occurrence (its line: where the recursion started) */
    else
      locs[k++] = locs[i];
  }
  return k;
}

static uint32_t thread_of(const rep_file_t *f, uint32_t t) {
  return t < f->nthread_map ? f->thread_map[t] : f->thread_map[0];
}

void rep_account_file(rep_acc_t *a, rep_file_t *f, rep_model_t *m) {
  tp_profile_t *p = a->p;
  double period = 1.0 / (f->hdr->sample_hz ? f->hdr->sample_hz : 200);
  uint32_t *buf = rep_alloc(REP_MAX_DEPTH * sizeof *buf);
  region_acc_t *last = NULL;
  tp_proc_t *pr = &p->procs[f->proc];
  /* first pass: classes, and per region instance the barrier wait and the raw charges */
  int *cls_of = rep_alloc((f->nsamples + 1) * sizeof *cls_of);
  size_t cap = 64;
  while (cap < 2 * f->nsamples) cap *= 2;
  inst_t *inst = rep_alloc(cap * sizeof *inst);
  int cmap[TP_MAX_COUNTERS];
  counter_map(p, f, m, cmap);
  uint32_t nctr = f->counters ? f->counters->n : 0;
  size_t first_ps = p->npsamples;
  for (size_t i = 0; i < f->nsamples; i++) {
    const tp_sample_t *s = f->samples[i];
    int cls = cls_of[i] = rep_sample_class_full(f, m, s);
    if (!s->region) continue;
    double w = sample_weight(s, period);
    inst_t *in = inst_slot(inst, cap, s->region);
    if (cls == REP_WAIT && barrier_state(s->state)) in->wait += w;
    in->raw += raw_blame(s, cls, w);
  }
  for (size_t i = 0; i < f->nsamples; i++) {
    const tp_sample_t *s = f->samples[i];
    uint32_t t = thread_of(f, s->thread);
    int cls = cls_of[i];
    uint32_t d = rep_sample_stack(f, m, s, cls, buf);
    if (tp_view_opts.fold_recursion) d = fold_recursion(p, buf, d);
    tp_stack_t *st = rep_stack(m, f->proc, t, buf, d);
    int metric = cls == REP_WORK ? TP_M_WORK : TP_M_WAIT;
    double w = sample_weight(s, period);
    double cpu = s->cpu_ns != TP_CPU_UNKNOWN ? (double)s->cpu_ns / 1e9 : 0;
    if (s->cpu_ns != TP_CPU_UNKNOWN) pr->has_cpu = 1;
    if (w > 1.5 * period && !pr->sample_on) { /* on a counter's overflow w is CPU time */
      pr->late++;
      pr->late_extra += w - period;
    }
    tp_thread_t *th = &p->threads[t];
    for (uint32_t k = 0; k < s->ncounters && k < nctr && k < TP_MAX_COUNTERS; k++) {
      uint64_t c = TP_SAMPLE_COUNTERS(s)[k];
      if (cmap[k] < 0 || c == TP_CTR_UNKNOWN) continue;
      st->ctr[cmap[k]] += (double)c;
      th->ctr[cmap[k]] += (double)c;
    }
    p->psamples = rep_grow(p->psamples, &a->pscap, p->npsamples + 1, sizeof *p->psamples);
    p->psamples[p->npsamples++] = (tp_psample_t){f->proc, t, (uint32_t)(st - p->stacks),
                                                 ((double)s->ts_ns - (double)f->hdr->start_ns) / 1e9, w,
                                                 (uint32_t)cls};
    double blame = raw_blame(s, cls, w);
    if (blame > 0) {
      const inst_t *in = inst_slot(inst, cap, s->region);
      blame *= in->raw > 0 ? in->wait / in->raw : 0;
    }
    pr->by_class[cls] += w;
    st->samples++;
    st->v[TP_M_TIME] += w;
    st->v[metric] += w;
    st->v[TP_M_BLAME] += blame;
    st->v[TP_M_CPU] += cpu;
    th->samples++;
    th->v[TP_M_TIME] += w;
    th->v[metric] += w;
    th->v[TP_M_BLAME] += blame;
    th->v[TP_M_CPU] += cpu;
    if (s->region && s->region_context) {
      region_acc_t *r = last && last->ctx == s->region_context && last->proc == f->proc
                            ? last
                            : region(a, f, m, s->region_context);
      last = r;
      r->seen[t] = 1;
      if (cls == REP_WORK)
        r->work[t] += w;
      else
        r->wait += w;
      if (s->team_size > r->max_team) r->max_team = s->team_size;
    }
  }
  for (size_t i = 0; i < f->nblames; i++) {
    const tp_blame_t *b = f->blames[i];
    uint32_t t = thread_of(f, b->thread);
    uint32_t d = rep_blame_stack(f, m, b, buf);
    if (tp_view_opts.fold_recursion) d = fold_recursion(p, buf, d);
    tp_stack_t *st = rep_stack(m, f->proc, t, buf, d);
    double bl = b->wait_ns ? (double)b->wait_ns / 1e9 : period * (double)b->samples;
    st->v[TP_M_BLAME] += bl;
    p->threads[t].v[TP_M_BLAME] += bl;
  }
  for (size_t i = 0; i < f->nregions; i++) {
    const tp_region_rec_t *rr = f->regions[i];
    region_acc_t *r = region(a, f, m, rr->context);
    r->instances += rr->instances;
    r->wall += (double)rr->wall_ns / 1e9;
    if (rr->max_team > r->max_team) r->max_team = rr->max_team;
  }
  qsort(p->psamples + first_ps, p->npsamples - first_ps, sizeof *p->psamples, by_thread_time);
  free(buf);
  free(cls_of);
  free(inst);
}

static int same_path(const region_acc_t *x, const tp_region_t *y) {
  return x->depth == y->depth && !memcmp(x->locs, y->locs, x->depth * sizeof *x->locs);
}

static int by_total(const void *x, const void *y) {
  const tp_region_t *a = x, *b = y;
  double ta = a->wait, tb = b->wait;
  for (uint32_t i = 0; i < a->nthreads; i++) ta += a->work[i];
  for (uint32_t i = 0; i < b->nthreads; i++) tb += b->work[i];
  return ta > tb ? -1 : ta < tb;
}

void rep_acc_finish(rep_acc_t *a, rep_model_t *m) {
  tp_profile_t *p = a->p;
  size_t cap = 0;
  size_t nt = p->nthreads;
  double *work = rep_alloc((nt + 1) * sizeof *work);
  uint8_t *done = rep_alloc(a->n + 1);
  for (size_t i = 0; i < a->n; i++) {
    if (done[i]) continue;
    /* merge every accumulation with the same creation path (other processes, or contexts
     * that differ only in runtime frames) */
    region_acc_t *r = &a->r[i];
    p->regions = rep_grow(p->regions, &cap, p->nregions + 1, sizeof *p->regions);
    tp_region_t *g = &p->regions[p->nregions++];
    g->depth = r->depth;
    g->locs = r->locs;
    memset(work, 0, (nt + 1) * sizeof *work);
    uint8_t *seen = rep_alloc(nt + 1);
    uint32_t max_team = 0;
    for (size_t j = i; j < a->n; j++) {
      region_acc_t *q = &a->r[j];
      if (done[j] || !same_path(q, g)) continue;
      done[j] = 1;
      g->instances += q->instances;
      g->wall += q->wall;
      g->wait += q->wait;
      if (q->max_team > max_team) max_team = q->max_team;
      for (size_t t = 0; t < nt; t++) {
        work[t] += q->work[t];
        seen[t] |= q->seen[t];
      }
    }
    uint32_t n = 0;
    for (size_t t = 0; t < nt; t++) n += seen[t];
    double *wk = rep_arena(m, (n + 1) * sizeof *wk);
    n = 0;
    double sum = 0, max = 0;
    for (size_t t = 0; t < nt; t++) {
      if (!seen[t]) continue;
      wk[n++] = work[t];
      sum += work[t];
      if (work[t] > max) max = work[t];
    }
    free(seen);
    (void)max_team; /* threads never sampled inside the region are not counted */
    g->nthreads = n;
    double mean = n ? sum / n : 0;
    g->work = wk;
    g->imbalance = mean > 0 && g->nthreads > 1 ? max / mean : 0;
  }
  free(work);
  free(done);
  for (size_t i = 0; i < a->n; i++) {
    free(a->r[i].work);
    free(a->r[i].seen);
  }
  free(a->r);
  free(a);
  qsort(p->regions, p->nregions, sizeof *p->regions, by_total);
}
