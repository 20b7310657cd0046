/* Chrome trace-event JSON ({"traceEvents":[...]}: chrome://tracing, Perfetto UI, speedscope)
 * of the --trace OMPT events: metadata events name each process (program, MPI rank) and each
 * thread ("OpenMP thread N", sorted by N); slices are complete events ("ph":"X") and instants
 * "ph":"i", with timestamps in microseconds from the start of their process's recording.
 * Within a thread, slices are written by start time and, at equal starts, longest first, so
 * that viewers nest enclosing slices (region > implicit task > barrier) correctly.
 *
 * The sampled stacks (every recording, --trace or not) follow the trace event format's
 * "stackFrames" (a tree of frames: id -> name, category = the module or "omp", parent) and
 * "samples" (one per sample: pid, tid, ts in microseconds, sf = the leaf frame's id, weight
 * = the microseconds it stands for), which chrome://tracing shows as the thread's samples. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r */
#endif
#include <stdlib.h>
#include <string.h>

#include "export-util.h"
#include "profile.h"

static int cmp_event(const void *x, const void *y, void *arg) {
  const tp_event_t *ev = arg;
  const tp_event_t *a = &ev[*(const uint32_t *)x], *b = &ev[*(const uint32_t *)y];
  if (a->proc != b->proc) return a->proc < b->proc ? -1 : 1;
  if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
  if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
  if (a->dur != b->dur) return a->dur > b->dur ? -1 : 1;
  return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

static int64_t proc_pid(const tp_profile_t *p, uint32_t proc) {
  return proc < p->nprocs ? p->procs[proc].pid : 0;
}

static int64_t thread_tid(const tp_profile_t *p, uint32_t t) {
  if (t >= p->nthreads) return 0;
  return p->threads[t].tid > 0 ? p->threads[t].tid : (int64_t)p->threads[t].index + 1;
}

/* The program's name: the first word of the command line without its directory. */
static void program_name(const char *cmdline, char *buf, size_t n) {
  const char *s = cmdline ? cmdline : "";
  size_t len = strcspn(s, " ");
  const char *slash = memrchr(s, '/', len);
  if (slash) len -= (size_t)(slash + 1 - s), s = slash + 1;
  snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
}

static void metadata(FILE *out, const char *what, int64_t pid, int64_t tid, const char *key,
                     const char *str, long long num) {
  fprintf(out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%lld,\"tid\":%lld,\"args\":{\"%s\":", what,
          (long long)pid, (long long)tid, key);
  if (str) tp_json_str(out, str);
  else fprintf(out, "%lld", num);
  fputs("}},\n", out);
}

/* The frame tree: (parent frame id, location) -> frame id (1, 2, ...). */
typedef struct fnode {
  uint64_t parent;
  uint32_t loc;
  uint32_t id; /* 0: empty slot */
} fnode_t;

typedef struct ftree {
  fnode_t *t;
  size_t cap, n;
  uint32_t *parent_of, *loc_of; /* by id */
  size_t idcap;
} ftree_t;

static size_t fhash(uint64_t parent, uint32_t loc, size_t cap) {
  return (size_t)((parent * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)loc * 0x85ebca6bull)) & (cap - 1);
}

static uint32_t frame_id(ftree_t *f, uint32_t parent, uint32_t loc) {
  if (2 * (f->n + 1) > f->cap) { /* rehash into twice the room */
    size_t cap = f->cap ? 2 * f->cap : 1024;
    fnode_t *t = tp_ex_alloc(cap * sizeof *t);
    for (size_t i = 0; i < f->cap; i++) {
      if (!f->t[i].id) continue;
      size_t h = fhash(f->t[i].parent, f->t[i].loc, cap);
      while (t[h].id) h = (h + 1) & (cap - 1);
      t[h] = f->t[i];
    }
    free(f->t);
    f->t = t;
    f->cap = cap;
  }
  size_t h = fhash(parent, loc, f->cap);
  while (f->t[h].id && (f->t[h].parent != parent || f->t[h].loc != loc)) h = (h + 1) & (f->cap - 1);
  if (!f->t[h].id) {
    f->t[h] = (fnode_t){parent, loc, (uint32_t)++f->n};
    size_t c2 = f->idcap;
    f->parent_of = tp_ex_grow(f->parent_of, &c2, f->n + 1, sizeof *f->parent_of);
    f->loc_of = tp_ex_grow(f->loc_of, &f->idcap, f->n + 1, sizeof *f->loc_of);
    f->parent_of[f->n] = parent;
    f->loc_of[f->n] = loc;
  }
  return f->t[h].id;
}

static const char *base_name(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path;
}

/* "stackFrames" and "samples": the sampled stacks of every thread in time. */
static void write_samples(const tp_profile_t *p, FILE *out) {
  ftree_t f = {0};
  uint32_t *leaf = tp_ex_alloc((p->nstacks + 1) * sizeof *leaf); /* stack -> frame id + 1 */
  for (size_t i = 0; i < p->npsamples; i++) {
    uint32_t s = p->psamples[i].stack;
    if (s >= p->nstacks || leaf[s]) continue;
    uint32_t id = 0;
    for (uint32_t d = 0; d < p->stacks[s].depth; d++) id = frame_id(&f, id, p->stacks[s].locs[d]);
    leaf[s] = id + 1;
  }
  fputs(",\n\"stackFrames\":{", out);
  for (uint32_t id = 1; id <= f.n; id++) {
    const tp_loc_t *l = &p->locs[f.loc_of[id]];
    fprintf(out, "%s\n\"%u\":{\"name\":", id > 1 ? "," : "", id);
    tp_json_str(out, l->func);
    fputs(",\"category\":", out);
    tp_json_str(out, l->module ? base_name(l->module) : "omp");
    if (f.parent_of[id]) fprintf(out, ",\"parent\":\"%u\"", f.parent_of[id]);
    fputc('}', out);
  }
  fputs("},\n\"samples\":[", out);
  size_t n = 0;
  for (size_t i = 0; i < p->npsamples; i++) {
    const tp_psample_t *ps = &p->psamples[i];
    if (ps->stack >= p->nstacks || !leaf[ps->stack] || leaf[ps->stack] == 1) continue; /* empty stack */
    fprintf(out, "%s\n{\"name\":\"sample\",\"cpu\":0,\"pid\":%lld,\"tid\":%lld,\"ts\":", n++ ? "," : "",
            (long long)proc_pid(p, ps->proc), (long long)thread_tid(p, ps->thread));
    tp_json_num(out, ps->ts * 1e6, 15);
    fprintf(out, ",\"sf\":\"%u\",\"weight\":", leaf[ps->stack] - 1);
    tp_json_num(out, ps->weight * 1e6, 9);
    fputc('}', out);
  }
  fputs("]", out);
  free(f.t);
  free(f.parent_of);
  free(f.loc_of);
  free(leaf);
}

int tp_export_chrome(const tp_profile_t *p, FILE *out) {
  fputs("{\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"tool\":\"tomp-prof\"", out);
  if (p->nprocs) {
    fputs(",\"command\":", out);
    tp_json_str(out, p->procs[0].cmdline);
    fputs(",\"runtime\":", out);
    tp_json_str(out, p->procs[0].runtime);
  }
  fputs("},\n\"traceEvents\":[\n", out);
  for (size_t i = 0; i < p->nprocs; i++) {
    const tp_proc_t *pr = &p->procs[i];
    char prog[128], name[192];
    program_name(pr->cmdline, prog, sizeof prog);
    /* viewers show the pid beside the name (Perfetto "app 4242", speedscope "app (pid 4242)") */
    if (pr->rank >= 0) snprintf(name, sizeof name, "%s rank %d", prog, pr->rank);
    else snprintf(name, sizeof name, "%s", prog);
    metadata(out, "process_name", pr->pid, 0, "name", name, 0);
    metadata(out, "process_sort_index", pr->pid, 0, "sort_index", NULL, (long long)i);
  }
  for (size_t t = 0; t < p->nthreads; t++) {
    const tp_thread_t *th = &p->threads[t];
    char name[64];
    snprintf(name, sizeof name, "OpenMP thread %u", th->index);
    metadata(out, "thread_name", proc_pid(p, th->proc), thread_tid(p, (uint32_t)t), "name", name, 0);
    metadata(out, "thread_sort_index", proc_pid(p, th->proc), thread_tid(p, (uint32_t)t),
             "sort_index", NULL, (long long)th->index);
  }

  uint32_t *order = tp_ex_alloc((p->nevents + 1) * sizeof *order);
  for (size_t i = 0; i < p->nevents; i++) order[i] = (uint32_t)i;
  qsort_r(order, p->nevents, sizeof *order, cmp_event, p->events);
  for (size_t k = 0; k < p->nevents; k++) {
    const tp_event_t *e = &p->events[order[k]];
    fputs("{\"name\":", out);
    tp_json_str(out, e->name);
    fputs(",\"cat\":", out);
    tp_json_str(out, e->cat ? e->cat : "omp");
    if (e->dur >= 0) {
      fputs(",\"ph\":\"X\",\"ts\":", out);
      tp_json_num(out, e->ts * 1e6, 15);
      fputs(",\"dur\":", out);
      tp_json_num(out, e->dur * 1e6, 15);
    } else {
      fputs(",\"ph\":\"i\",\"s\":\"t\",\"ts\":", out);
      tp_json_num(out, e->ts * 1e6, 15);
    }
    fprintf(out, ",\"pid\":%lld,\"tid\":%lld", (long long)proc_pid(p, e->proc),
            (long long)thread_tid(p, e->thread));
    if (e->id) fprintf(out, ",\"args\":{\"id\":%llu}", (unsigned long long)e->id);
    fputs("},\n", out);
  }
  free(order);
  /* a final instant keeps the list free of a trailing comma and marks the end of recording */
  double end = 0;
  for (size_t i = 0; i < p->nprocs; i++)
    if (p->procs[i].duration > end) end = p->procs[i].duration;
  fprintf(out, "{\"name\":\"end of recording\",\"cat\":\"tomp-prof\",\"ph\":\"i\",\"s\":\"g\",\"ts\":");
  tp_json_num(out, end * 1e6, 15);
  fprintf(out, ",\"pid\":%lld,\"tid\":%lld}\n]", (long long)proc_pid(p, 0),
          (long long)(p->nthreads ? thread_tid(p, 0) : 0));
  write_samples(p, out);
  fputs("}\n", out);
  if (!p->nevents)
    fputs("tomp-prof: this profile has no trace events (record with --trace for a timeline)\n", stderr);
  if (ferror(out)) {
    fputs("tomp-prof: writing the trace file failed\n", stderr);
    return -1;
  }
  return 0;
}
