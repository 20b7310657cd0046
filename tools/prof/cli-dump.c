/* tomp-prof dump FILE [--summary]: every record of a data file, one line each, after checking
 * the file's structure (magic, record sizes, sizes implied by frame counts, an END record).
 * Exit status 0 for a well-formed complete file, 1 otherwise.  --summary prints only the
 * record counts, how many sample frames point outside the process's code (a sign of a bad
 * unwind), samples per thread and per state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tomp-prof.h"
#include "tp-format.h"

static const char *state_name(uint32_t s) {
  switch (s) {
  case 0x000: return "work_serial";
  case 0x001: return "work_parallel";
  case 0x002: return "work_reduction";
  case 0x010: return "wait_barrier";
  case 0x011: return "wait_barrier_implicit_parallel";
  case 0x012: return "wait_barrier_implicit_workshare";
  case 0x013: return "wait_barrier_explicit";
  case 0x014: return "wait_barrier_implementation";
  case 0x015: return "wait_barrier_teams";
  case 0x020: return "wait_taskwait";
  case 0x021: return "wait_taskgroup";
  case 0x040: return "wait_mutex";
  case 0x041: return "wait_lock";
  case 0x042: return "wait_critical";
  case 0x043: return "wait_atomic";
  case 0x044: return "wait_ordered";
  case 0x080: return "wait_target";
  case 0x081: return "wait_target_map";
  case 0x082: return "wait_target_update";
  case 0x100: return "idle";
  case 0x101: return "overhead";
  case 0x102: return "undefined";
  default: return "?";
  }
}

static const char *rec_name(uint32_t t) {
  static const char *const names[] = {"?", "HEADER", "THREAD", "SAMPLE", "CONTEXT", "BLAME",
                                      "REGION", "EVENT", "MAPS", "END", "COUNTERS"};
  return t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static const char *event_name(unsigned k) {
  static const char *const names[] = {"?", "parallel", "implicit_task", "task", "sync_wait",
                                      "mutex_wait", "mutex_held", "work", "idle", "task_create"};
  return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static void print_frames(const tp_frame_t *f, uint32_t n) {
  printf(" frames=");
  for (uint32_t i = 0; i < n; i++)
    printf("%s0x%llx@0x%llx", i ? "," : "", (unsigned long long)f[i].pc, (unsigned long long)f[i].cfa);
  putchar('\n');
}

/* Checks one record's own size against its contents; NULL if fine. */
static const char *check(const tp_rec_t *r) {
  switch (r->type) {
  case TP_REC_HEADER:
    if (r->size < sizeof(tp_header_t)) return "header too short";
    if (memcmp(((const tp_header_t *)r)->magic, TP_MAGIC, 8)) return "bad magic";
    return NULL;
  case TP_REC_THREAD: return r->size < sizeof(tp_thread_rec_t) ? "thread record too short" : NULL;
  case TP_REC_SAMPLE: {
    const tp_sample_t *s = (const void *)r;
    if (r->size < sizeof *s || s->ncounters > TP_MAX_COUNTERS ||
        r->size != sizeof *s + (uint64_t)s->nframes * sizeof(tp_frame_t) + s->ncounters * sizeof(uint64_t))
      return "sample size does not match its frame and counter counts";
    return NULL;
  }
  case TP_REC_CONTEXT: {
    const tp_context_t *c = (const void *)r;
    if (r->size < sizeof *c || r->size != sizeof *c + (uint64_t)c->nframes * sizeof(tp_frame_t))
      return "context size does not match its frame count";
    return c->id ? NULL : "context id 0";
  }
  case TP_REC_BLAME: {
    const tp_blame_t *b = (const void *)r;
    if (r->size < sizeof *b || r->size != sizeof *b + (uint64_t)b->nframes * sizeof(tp_frame_t))
      return "blame size does not match its frame count";
    return NULL;
  }
  case TP_REC_REGION: return r->size < sizeof(tp_region_rec_t) ? "region record too short" : NULL;
  case TP_REC_EVENT: return r->size < sizeof(tp_event_t) ? "event record too short" : NULL;
  case TP_REC_MAPS:
    return r->size < sizeof(tp_maps_t) || ((const tp_maps_t *)r)->len > r->size - sizeof(tp_maps_t)
               ? "maps length exceeds the record"
               : NULL;
  case TP_REC_END: return r->size < sizeof(tp_rec_t) + 32 ? "end record too short" : NULL;
  case TP_REC_COUNTERS:
    return r->size < sizeof(tp_counters_rec_t) || ((const tp_counters_rec_t *)r)->n > TP_MAX_COUNTERS
               ? "counters record too short or too many counters"
               : NULL;
  default: return NULL; /* unknown types are skipped by size */
  }
}

static void print_record(const tp_rec_t *r, uint64_t t0) {
  printf("%s", rec_name(r->type));
  switch (r->type) {
  case TP_REC_HEADER: {
    const tp_header_t *h = (const void *)r;
    printf(" version=%u hz=%u pid=%lld rank=%d flags=0x%x start_ns=%llu runtime=\"%.64s\" cmd=\"",
           h->version, h->sample_hz, (long long)h->pid, h->rank, h->flags,
           (unsigned long long)h->start_ns, h->runtime);
    const char *c = (const char *)(h + 1), *end = (const char *)r + r->size;
    for (int first = 1; c < end && *c; c += strlen(c) + 1, first = 0) printf("%s%s", first ? "" : " ", c);
    printf("\"\n");
    break;
  }
  case TP_REC_THREAD: {
    const tp_thread_rec_t *t = (const void *)r;
    printf(" thread=%u kind=%u tid=%lld t=%.3fms\n", t->thread, t->kind, (long long)t->tid,
           (double)(t->begin_ns - t0) / 1e6);
    break;
  }
  case TP_REC_SAMPLE: {
    const tp_sample_t *s = (const void *)r;
    printf(" thread=%u ts=%llu t=%.3fms state=%s wait_id=0x%llx context=%llu region=%llu region_context=%llu "
           "team=%u waiting=%u exit=0x%llx enter=0x%llx fflags=0x%x flags=0x%x interval_ns=%llu cpu_ns=%lld "
           "nframes=%u",
           s->thread, (unsigned long long)s->ts_ns, (double)(s->ts_ns - t0) / 1e6, state_name(s->state),
           (unsigned long long)s->wait_id, (unsigned long long)s->context,
           (unsigned long long)s->region, (unsigned long long)s->region_context, s->team_size,
           s->team_waiting, (unsigned long long)s->exit_frame, (unsigned long long)s->enter_frame,
           s->frame_flags, s->flags, (unsigned long long)s->interval_ns,
           s->cpu_ns == TP_CPU_UNKNOWN ? -1ll : (long long)s->cpu_ns, s->nframes);
    if (s->ncounters) {
      printf(" counters=");
      for (uint32_t i = 0; i < s->ncounters; i++) {
        uint64_t v = TP_SAMPLE_COUNTERS(s)[i];
        printf(i ? ",%lld" : "%lld", v == TP_CTR_UNKNOWN ? -1ll : (long long)v);
      }
    }
    print_frames(s->frames, s->nframes);
    break;
  }
  case TP_REC_CONTEXT: {
    const tp_context_t *c = (const void *)r;
    printf(" id=%llu parent=%llu kind=%s thread=%u codeptr=0x%llx exit=0x%llx enter=0x%llx "
           "fflags=0x%x nframes=%u",
           (unsigned long long)c->id, (unsigned long long)c->parent,
           c->kind == TP_CTX_PARALLEL ? "parallel" : c->kind == TP_CTX_TASK ? "task" : "?",
           c->thread, (unsigned long long)c->codeptr_ra, (unsigned long long)c->exit_frame,
           (unsigned long long)c->enter_frame, c->frame_flags, c->nframes);
    print_frames(c->frames, c->nframes);
    break;
  }
  case TP_REC_BLAME: {
    const tp_blame_t *b = (const void *)r;
    printf(" thread=%u kind=%u t=%.3fms wait_id=0x%llx samples=%llu context=%llu exit=0x%llx "
           "enter=0x%llx wait_ns=%llu acq_codeptr=0x%llx acq_enter=0x%llx acq_flags=0x%x nframes=%u",
           b->thread, b->kind, (double)(b->ts_ns - t0) / 1e6, (unsigned long long)b->wait_id,
           (unsigned long long)b->samples, (unsigned long long)b->context,
           (unsigned long long)b->exit_frame, (unsigned long long)b->enter_frame,
           (unsigned long long)b->wait_ns, (unsigned long long)b->acq_codeptr,
           (unsigned long long)b->acq_enter, b->acq_flags, b->nframes);
    print_frames(b->frames, b->nframes);
    break;
  }
  case TP_REC_REGION: {
    const tp_region_rec_t *g = (const void *)r;
    printf(" context=%llu instances=%llu wall=%.3fms max_team=%u\n", (unsigned long long)g->context,
           (unsigned long long)g->instances, (double)g->wall_ns / 1e6, g->max_team);
    break;
  }
  case TP_REC_EVENT: {
    const tp_event_t *e = (const void *)r;
    printf(" thread=%u ts=%llu t=%.3fms kind=%s phase=%s id=0x%llx context=%llu codeptr=0x%llx arg=%llu\n",
           e->thread, (unsigned long long)e->ts_ns, (double)(e->ts_ns - t0) / 1e6, event_name(e->kind),
           e->phase == TP_PH_BEGIN ? "begin" : e->phase == TP_PH_END ? "end" : "instant",
           (unsigned long long)e->id, (unsigned long long)e->context,
           (unsigned long long)e->codeptr_ra, (unsigned long long)e->arg);
    break;
  }
  case TP_REC_MAPS: {
    const tp_maps_t *m = (const void *)r;
    printf(" len=%llu\n%.*s", (unsigned long long)m->len, (int)m->len, m->text);
    break;
  }
  case TP_REC_END: {
    tp_end_t e;
    memset(&e, 0, sizeof e);
    memcpy(&e, r, r->size < sizeof e ? r->size : sizeof e);
    printf(" t=%.3fms samples=%llu lost=%llu lost_ns=%llu threads=%llu contexts=%llu sample_ns=%llu",
           (double)(e.end_ns - t0) / 1e6, (unsigned long long)e.samples, (unsigned long long)e.lost,
           (unsigned long long)e.lost_ns,
           (unsigned long long)e.threads, (unsigned long long)e.contexts,
           (unsigned long long)e.sample_ns);
    if (e.samples) printf(" ns_per_sample=%llu", (unsigned long long)(e.sample_ns / e.samples));
    putchar('\n');
    break;
  }
  case TP_REC_COUNTERS: {
    const tp_counters_rec_t *c = (const void *)r;
    printf(" n=%u names=", c->n);
    for (uint32_t i = 0; i < c->n; i++) printf("%s%.32s", i ? "," : "", c->names[i]);
    printf(" sample_on=%u sample_name=%.32s sample_period=%llu note=\"%.256s\"\n", c->sample_on,
           c->sample_name, (unsigned long long)c->sample_period, c->note);
    break;
  }
  default: printf(" type=%u size=%u\n", r->type, r->size);
  }
}

/* Executable mappings from the MAPS record, to check that unwound pcs point at code. */
typedef struct xrange {
  uint64_t lo, hi;
} xrange_t;

static size_t exec_ranges(const char *buf, long len, xrange_t *out, size_t max) {
  size_t n = 0;
  for (long off = 0; off + (long)sizeof(tp_rec_t) <= len;) {
    const tp_rec_t *r = (const void *)(buf + off);
    if (r->size < sizeof *r || r->size % 8 || r->size > (uint64_t)(len - off)) break;
    if (r->type == TP_REC_MAPS && r->size >= sizeof(tp_maps_t)) {
      const tp_maps_t *m = (const void *)r;
      const char *p = m->text, *end = m->text + (m->len < r->size - sizeof *m ? m->len : r->size - sizeof *m);
      while (p < end && n < max) {
        unsigned long long lo, hi;
        char perms[8];
        if (sscanf(p, "%llx-%llx %7s", &lo, &hi, perms) == 3 && perms[2] == 'x') {
          out[n].lo = lo;
          out[n].hi = hi;
          n++;
        }
        while (p < end && *p != '\n') p++;
        p++;
      }
    }
    off += r->size;
  }
  return n;
}

static int in_code(const xrange_t *x, size_t n, uint64_t pc, int exact) {
  if (!exact) pc--; /* a return address: the call is just before it */
  for (size_t i = 0; i < n; i++)
    if (pc >= x[i].lo && pc < x[i].hi) return 1;
  return 0;
}

#define MAX_THREADS 1024
#define NSTATES 0x103

int tp_cmd_dump(int argc, char **argv) {
  const char *path = NULL;
  int summary = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--summary") || !strcmp(argv[i], "-s"))
      summary = 1;
    else if (!path && argv[i][0] != '-')
      path = argv[i];
    else {
      fprintf(stderr, "usage: tomp-prof dump FILE [--summary]\n");
      return 2;
    }
  }
  if (!path) {
    fprintf(stderr, "usage: tomp-prof dump FILE [--summary]\n");
    return 2;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = len > 0 ? malloc((size_t)len) : NULL;
  if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "%s: cannot read (empty?)\n", path);
    fclose(f);
    free(buf);
    return 1;
  }
  fclose(f);
  uint64_t count[16] = {0}, lost = 0;
  static uint64_t per_thread[MAX_THREADS], per_state[NSTATES];
  uint64_t t0 = 0, nframes = 0, outside = 0;
  static xrange_t code[4096];
  size_t ncode = exec_ranges(buf, len, code, sizeof code / sizeof code[0]);
  int ok = 1, ended = 0;
  long off = 0;
  while (off < len) {
    const tp_rec_t *r = (const void *)(buf + off);
    const char *err = NULL;
    if (len - off < (long)sizeof *r)
      err = "truncated record header";
    else if (r->size < sizeof *r || r->size % 8 || r->size > (uint64_t)(len - off))
      err = "bad record size";
    else if (off == 0 && r->type != TP_REC_HEADER)
      err = "first record is not a HEADER";
    else if (ended)
      err = "record after END";
    else
      err = check(r);
    if (err) {
      fprintf(stderr, "%s: malformed at offset %ld (%s record): %s\n", path, off,
              len - off >= (long)sizeof *r ? rec_name(r->type) : "?", err);
      ok = 0;
      break;
    }
    if (r->type == TP_REC_HEADER) t0 = ((const tp_header_t *)r)->start_ns;
    if (r->type < 16) count[r->type]++;
    if (r->type == TP_REC_SAMPLE) {
      const tp_sample_t *s = (const void *)r;
      if (s->thread < MAX_THREADS) per_thread[s->thread]++;
      if (s->state < NSTATES) per_state[s->state]++;
      for (uint32_t i = 0; i < s->nframes && ncode; i++, nframes++)
        outside += !in_code(code, ncode, s->frames[i].pc, i == 0 && (s->flags & TP_SAMPLE_LEAF_EXACT));
    }
    if (r->type == TP_REC_END) {
      ended = 1;
      tp_end_t e;
      memset(&e, 0, sizeof e);
      memcpy(&e, r, r->size < sizeof e ? r->size : sizeof e);
      lost = e.lost;
      if (e.samples != count[TP_REC_SAMPLE]) {
        fprintf(stderr, "%s: END says %llu samples, the file has %llu\n", path,
                (unsigned long long)e.samples, (unsigned long long)count[TP_REC_SAMPLE]);
        ok = 0;
      }
    }
    if (!summary) print_record(r, t0);
    off += r->size;
  }
  if (ok && !ended) {
    fprintf(stderr, "%s: no END record (the recording did not finish)\n", path);
    ok = 0;
  }
  if (summary) {
    printf("records");
    for (unsigned t = 1; t <= TP_REC_END; t++) printf(" %s=%llu", rec_name(t), (unsigned long long)count[t]);
    printf(" lost=%llu\n", (unsigned long long)lost);
    printf("frames %llu outside_code=%llu\n", (unsigned long long)nframes, (unsigned long long)outside);
    for (unsigned t = 0; t < MAX_THREADS; t++)
      if (per_thread[t]) printf("thread %u samples=%llu\n", t, (unsigned long long)per_thread[t]);
    for (unsigned s = 0; s < NSTATES; s++)
      if (per_state[s]) printf("state %s samples=%llu\n", state_name(s), (unsigned long long)per_state[s]);
  }
  free(buf);
  return ok ? 0 : 1;
}
