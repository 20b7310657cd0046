/* Reading data files into the profile.  Arguments are files or directories (a directory
 * means every tomp-prof.*.dat in it, in name order).  Each file is one process: its threads
 * are appended to the profile's thread list (numbered globally, process by process, by the
 * tool's thread index).  Unknown record types are skipped by their size; a last record cut
 * short (a killed program) is dropped with a message; a file without an END record is used
 * with a message.  Then each file's records are symbolized, turned into user-model stacks and
 * accounted (stacks.c, blame.c), and --trace events paired into slices (events.c). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rep.h"

#define PUSH(arr, n, cap, v)                                \
  do {                                                      \
    (arr) = rep_grow((arr), &(cap), (n) + 1, sizeof *(arr)); \
    (arr)[(n)++] = (v);                                     \
  } while (0)

static int dat_name(const char *n) {
  size_t len = strlen(n);
  return !strncmp(n, "tomp-prof.", 10) && len > 14 && !strcmp(n + len - 4, ".dat");
}

/* Version order, so that tomp-prof.r2.* comes before tomp-prof.r10.* */
static int by_name(const void *a, const void *b) {
  return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Expands directories; returns the number of files, or -1 after a message. */
static int expand(char **paths, int npaths, char ***out) {
  char **files = NULL;
  size_t n = 0, cap = 0;
  int bad = 0;
  for (int i = 0; i < npaths; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0) {
      fprintf(stderr, "tomp-prof report: cannot read '%s': %s%s\n", paths[i], strerror(errno),
              errno == ENOENT ? " (record first: tomp-prof record -o DIR -- ./program)" : "");
      bad = 1;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      PUSH(files, n, cap, strdup(paths[i]));
      continue;
    }
    DIR *d = opendir(paths[i]);
    if (!d) {
      fprintf(stderr, "tomp-prof report: cannot open directory '%s': %s\n", paths[i], strerror(errno));
      bad = 1;
      continue;
    }
    size_t first = n;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!dat_name(e->d_name)) continue;
      char *path = rep_alloc(strlen(paths[i]) + strlen(e->d_name) + 2);
      sprintf(path, "%s/%s", paths[i], e->d_name);
      PUSH(files, n, cap, path);
    }
    closedir(d);
    if (n == first) {
      fprintf(stderr, "tomp-prof report: no tomp-prof.*.dat files in '%s'\n", paths[i]);
      bad = 1;
    }
    qsort(files + first, n - first, sizeof *files, by_name);
  }
  *out = files;
  return n ? (int)n : bad ? -1 : 0;
}

static size_t min_size(uint32_t type) {
  switch (type) {
  case TP_REC_HEADER: return sizeof(tp_header_t);
  case TP_REC_THREAD: return sizeof(tp_thread_rec_t);
  case TP_REC_SAMPLE: return sizeof(tp_sample_t);
  case TP_REC_CONTEXT: return sizeof(tp_context_t);
  case TP_REC_BLAME: return sizeof(tp_blame_t);
  case TP_REC_REGION: return sizeof(tp_region_rec_t);
  case TP_REC_EVENT: return sizeof(tp_rec_event_t);
  case TP_REC_MAPS: return sizeof(tp_maps_t);
  case TP_REC_END: return sizeof(tp_end_t);
  case TP_REC_COUNTERS: return sizeof(tp_counters_rec_t);
  default: return sizeof(tp_rec_t);
  }
}

/* Bytes a record claims beyond its fixed part (frames, text), to check against its size. */
static size_t var_size(const tp_rec_t *r) {
  switch (r->type) {
  case TP_REC_SAMPLE: {
    const tp_sample_t *s = (const tp_sample_t *)r;
    return s->nframes * sizeof(tp_frame_t) + (size_t)s->ncounters * sizeof(uint64_t);
  }
  case TP_REC_CONTEXT: return ((const tp_context_t *)r)->nframes * sizeof(tp_frame_t);
  case TP_REC_BLAME: return ((const tp_blame_t *)r)->nframes * sizeof(tp_frame_t);
  case TP_REC_MAPS: return ((const tp_maps_t *)r)->len;
  default: return 0;
  }
}

static int ctx_by_id(const void *a, const void *b) {
  uint64_t x = ((const rep_ctx_t *)a)->rec->id, y = ((const rep_ctx_t *)b)->rec->id;
  return x < y ? -1 : x > y;
}

static void note_ts(rep_file_t *f, uint64_t ts) {
  if (ts > f->last_ns) f->last_ns = ts;
}

/* Reads and indexes one file; 0 on success, -1 after a message. */
static int read_file(const char *path, rep_file_t *f) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    fprintf(stderr, "tomp-prof report: cannot open '%s': %s\n", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(fp), &st) != 0 || st.st_size < (off_t)sizeof(tp_header_t)) {
    fprintf(stderr, "tomp-prof report: '%s' is %s, not a tomp-prof data file\n", path,
            st.st_size ? "too short" : "empty");
    fclose(fp);
    return -1;
  }
  f->len = (size_t)st.st_size;
  f->buf = malloc(f->len + 8);
  if (!f->buf || fread(f->buf, 1, f->len, fp) != f->len) {
    fprintf(stderr, "tomp-prof report: cannot read '%s'\n", path);
    fclose(fp);
    return -1;
  }
  fclose(fp);
  f->path = path;
  const tp_header_t *h = (const tp_header_t *)f->buf;
  if (h->h.type != TP_REC_HEADER || memcmp(h->magic, TP_MAGIC, 8)) {
    fprintf(stderr, "tomp-prof report: '%s' is not a tomp-prof data file (no TOMPPROF header)\n", path);
    return -1;
  }
  if (h->version != TP_VERSION) {
    fprintf(stderr, "tomp-prof report: '%s' has format version %u; this tomp-prof reads version %d\n",
            path, h->version, TP_VERSION);
    return -1;
  }
  f->hdr = h;
  size_t cs = 0, ss = 0, bs = 0, rs = 0, es = 0;
  size_t off = 0;
  while (off < f->len) {
    const tp_rec_t *r = (const tp_rec_t *)(f->buf + off);
    if (f->len - off < sizeof *r || r->size < sizeof *r || r->size % 8 || r->size > f->len - off ||
        (r->size < min_size(r->type)) || var_size(r) > r->size - min_size(r->type)) {
      if (f->len - off < sizeof *r || r->size > f->len - off)
        fprintf(stderr, "tomp-prof report: '%s': the last record is cut short (%zu bytes at offset %zu), "
                "ignored: the program probably ended before the recording did\n", path, f->len - off, off);
      else
        fprintf(stderr, "tomp-prof report: '%s': a malformed record (type %u, size %u) at offset %zu; "
                "reading stops there\n", path, r->type, r->size, off);
      f->truncated = 1;
      break;
    }
    off += r->size;
    switch (r->type) {
    case TP_REC_SAMPLE: {
      const tp_sample_t *s = (const tp_sample_t *)r;
      PUSH(f->samples, f->nsamples, ss, s);
      note_ts(f, s->ts_ns);
      break;
    }
    case TP_REC_CONTEXT: {
      rep_ctx_t c = {(const tp_context_t *)r, NULL, 0, 0, 0};
      PUSH(f->ctx, f->nctx, cs, c);
      break;
    }
    case TP_REC_BLAME: PUSH(f->blames, f->nblames, bs, (const tp_blame_t *)r); break;
    case TP_REC_REGION: PUSH(f->regions, f->nregions, rs, (const tp_region_rec_t *)r); break;
    case TP_REC_EVENT: {
      const tp_rec_event_t *e = (const tp_rec_event_t *)r;
      PUSH(f->events, f->nevents, es, e);
      note_ts(f, e->ts_ns);
      break;
    }
    case TP_REC_MAPS: f->maps = (const tp_maps_t *)r; break;
    case TP_REC_END: f->end = (const tp_end_t *)r; break;
    case TP_REC_COUNTERS: f->counters = (const tp_counters_rec_t *)r; break;
    default: break; /* THREAD is read in register_threads; unknown types are skipped */
    }
  }
  if (!f->end && !f->truncated)
    fprintf(stderr, "tomp-prof report: '%s' has no end record: the program did not finish "
            "recording (killed or crashed?); using what was written\n", path);
  if (!f->maps)
    fprintf(stderr, "tomp-prof report: '%s' has no memory map: functions cannot be named "
            "(addresses are shown)\n", path);
  if (f->nctx) qsort(f->ctx, f->nctx, sizeof *f->ctx, ctx_by_id);
  return 0;
}

static void register_proc(tp_profile_t *p, size_t *cap, rep_file_t *f, rep_model_t *m) {
  const tp_header_t *h = f->hdr;
  p->procs = rep_grow(p->procs, cap, p->nprocs + 1, sizeof *p->procs);
  f->proc = (uint32_t)p->nprocs;
  tp_proc_t *pr = &p->procs[p->nprocs++];
  pr->pid = h->pid;
  pr->rank = h->rank;
  pr->sample_hz = h->sample_hz ? h->sample_hz : 200;
  char rt[sizeof h->runtime + 1];
  memcpy(rt, h->runtime, sizeof h->runtime);
  rt[sizeof h->runtime] = 0;
  pr->runtime = rep_str(m, rt);
  /* argv strings follow the fixed header, each NUL-terminated */
  const char *a = (const char *)(h + 1), *end = (const char *)h + h->h.size;
  size_t n = (size_t)(end - a);
  char *cmd = rep_alloc(n + 1);
  memcpy(cmd, a, n);
  while (n && !cmd[n - 1]) n--;
  for (size_t i = 0; i < n; i++)
    if (!cmd[i]) cmd[i] = ' ';
  cmd[n] = 0;
  pr->cmdline = rep_str(m, cmd);
  free(cmd);
  pr->path = rep_str(m, f->path);
  uint64_t end_ns = f->end ? f->end->end_ns : f->last_ns;
  pr->duration = end_ns > h->start_ns ? (double)(end_ns - h->start_ns) / 1e9 : 0;
  pr->samples = f->end ? f->end->samples : f->nsamples;
  pr->lost = f->end ? f->end->lost : 0;
  pr->lost_time = f->end ? (double)f->end->lost_ns / 1e9 : 0;
  const tp_counters_rec_t *c = f->counters;
  if (c) {
    char buf[sizeof c->note + 1];
    if (c->sample_on) {
      snprintf(buf, sizeof buf, "%.*s", (int)sizeof c->sample_name, c->sample_name);
      pr->sample_on = rep_str(m, buf);
      pr->sample_period = c->sample_period;
    }
    snprintf(buf, sizeof buf, "%.*s", (int)sizeof c->note, c->note);
    if (*buf) pr->counter_note = rep_str(m, buf);
  }
  pr->start = (double)h->start_realtime_ns / 1e9; /* made relative in tp_profile_load */
}

/* Threads: every index named by a THREAD record or used by another record, in index order. */
static void register_threads(tp_profile_t *p, size_t *cap, rep_file_t *f) {
  uint32_t max = 0;
  const tp_thread_rec_t **recs = NULL;
  size_t nrecs = 0, rcap = 0;
  for (size_t off = 0; off + sizeof(tp_rec_t) <= f->len;) {
    const tp_rec_t *r = (const tp_rec_t *)(f->buf + off);
    if (r->size < sizeof *r || r->size > f->len - off || r->size % 8) break;
    if (r->type == TP_REC_THREAD && r->size >= sizeof(tp_thread_rec_t)) {
      const tp_thread_rec_t *t = (const tp_thread_rec_t *)r;
      PUSH(recs, nrecs, rcap, t);
      if (t->thread > max) max = t->thread;
    }
    off += r->size;
  }
  for (size_t i = 0; i < f->nsamples; i++)
    if (f->samples[i]->thread > max) max = f->samples[i]->thread;
  for (size_t i = 0; i < f->nblames; i++)
    if (f->blames[i]->thread > max) max = f->blames[i]->thread;
  for (size_t i = 0; i < f->nevents; i++)
    if (f->events[i]->thread > max) max = f->events[i]->thread;
  if (max > 1000000) max = 1000000; /* a corrupt index must not exhaust memory */
  uint8_t *used = rep_alloc(max + 1);
  used[0] = 1;
  for (size_t i = 0; i < nrecs; i++) used[recs[i]->thread] = 1;
  for (size_t i = 0; i < f->nsamples; i++)
    if (f->samples[i]->thread <= max) used[f->samples[i]->thread] = 1;
  for (size_t i = 0; i < f->nblames; i++)
    if (f->blames[i]->thread <= max) used[f->blames[i]->thread] = 1;
  f->nthread_map = max + 1;
  f->thread_map = rep_alloc((max + 1) * sizeof *f->thread_map);
  for (uint32_t t = 0; t <= max; t++) {
    if (!used[t]) continue;
    p->threads = rep_grow(p->threads, cap, p->nthreads + 1, sizeof *p->threads);
    tp_thread_t *th = &p->threads[p->nthreads];
    th->proc = f->proc;
    th->index = t;
    th->kind = t == 0 ? 1 /* ompt_thread_initial */ : 2 /* ompt_thread_worker */;
    for (size_t i = 0; i < nrecs; i++)
      if (recs[i]->thread == t) {
        th->tid = recs[i]->tid;
        th->kind = recs[i]->kind;
      }
    f->thread_map[t] = (uint32_t)p->nthreads++;
  }
  /* an index beyond the cap maps to the process's first thread */
  for (uint32_t t = 0; t <= max; t++)
    if (!used[t]) f->thread_map[t] = f->thread_map[0];
  free(used);
  free(recs);
}

static void drop_file(rep_file_t *f) {
  free(f->buf);
  free(f->thread_map);
  free(f->ctx);
  free(f->samples);
  free(f->blames);
  free(f->regions);
  free(f->events);
  rep_sym_free(f->sym);
  memset(f, 0, sizeof *f);
}

tp_profile_t *tp_profile_load(char **paths, int npaths) {
  char **names = NULL;
  int n = expand(paths, npaths, &names);
  if (n <= 0) {
    if (n == 0) fputs("tomp-prof report: no data files given\n", stderr);
    free(names);
    return NULL;
  }
  tp_profile_t *p = rep_alloc(sizeof *p);
  rep_model_t *m = rep_model_new(p);
  rep_file_t *files = rep_alloc((size_t)n * sizeof *files);
  size_t nf = 0, proccap = 0, threadcap = 0;
  for (int i = 0; i < n; i++) {
    if (read_file(names[i], &files[nf]) != 0) {
      drop_file(&files[nf]);
      continue;
    }
    register_proc(p, &proccap, &files[nf], m);
    register_threads(p, &threadcap, &files[nf]);
    nf++;
  }
  double first = 0;
  for (size_t i = 0; i < p->nprocs; i++)
    if (i == 0 || p->procs[i].start < first) first = p->procs[i].start;
  for (size_t i = 0; i < p->nprocs; i++) p->procs[i].start -= first;
  rep_acc_t *acc = rep_acc_new(p);
  for (size_t i = 0; i < nf; i++) {
    rep_file_t *f = &files[i];
    f->sym = rep_sym_new(m, f->maps ? f->maps->text : NULL, f->maps ? f->maps->len : 0);
    rep_account_file(acc, f, m);
    rep_events_file(f, m);
    drop_file(f);
  }
  rep_acc_finish(acc, m);
  rep_model_done(m);
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  free(files);
  if (!nf) {
    tp_profile_free(p);
    return NULL;
  }
  return p;
}

void tp_profile_free(tp_profile_t *p) {
  if (!p) return;
  for (void *b = p->priv; b;) {
    void *next = *(void **)b;
    free(b);
    b = next;
  }
  free(p->procs);
  free(p->locs);
  free(p->stacks);
  free(p->threads);
  free(p->regions);
  free(p->events);
  free(p->psamples);
  free(p);
}
