/* --trace: the recorder's begin/end/instant event records become slices of the model
 * (profile.h tp_event_t), paired per thread: an end closes the latest open begin of the same
 * kind (and the same id for tasks and mutexes, which can interleave).  Begins still open when
 * the thread's records stop are closed at the last time seen in the file.  Names say what a
 * user would: "omp parallel @ file.c:22 in compute" (the construct, its line and the function
 * that created the region), "implicit task 1", "omp task @ file.c:40 in producer", "barrier
 * wait", "critical wait", "lock held", "loop", "idle". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"

/* The function that created a context: the innermost frame of its path that is not an
 * enclosing construct's body (`omp parallel @ ...`, whose code is that function's). */
static const char *creator(rep_file_t *f, rep_model_t *m, uint64_t ctx) {
  uint32_t d;
  const uint32_t *l = rep_ctx_stack(f, m, ctx, &d);
  const tp_profile_t *p = rep_profile(m);
  while (d > 0 && !strncmp(p->locs[l[d - 1]].func, "omp ", 4)) d--;
  return d ? p->locs[l[d - 1]].func : "the initial task";
}

/* "omp parallel @ file.c:22 in compute": the construct, its line and the function that
 * created it ("omp parallel in compute" without line information). */
static void construct_name(char *buf, size_t n, rep_file_t *f, rep_model_t *m, uint64_t ctx,
                           const char *kind) {
  const char *c = rep_ctx_construct(f, m, ctx);
  const char *who = creator(f, m, ctx);
  if (c && strchr(c, ':'))
    snprintf(buf, n, "%s in %s", c, who);
  else
    snprintf(buf, n, "%s in %s", kind, who);
}

static const char *sync_name(uint64_t kind) {
  switch (kind) {
  case 5: return "taskwait";
  case 6: return "taskgroup wait";
  case 7: return "reduction wait";
  default: return "barrier wait";
  }
}

static const char *mutex_name(uint64_t kind) {
  switch (kind) {
  case 3:
  case 4: return "nest lock";
  case 5: return "critical";
  case 6: return "atomic";
  case 7: return "ordered";
  default: return "lock";
  }
}

static const char *work_name(uint64_t kind) {
  static const char *const names[] = {"work", "loop", "sections", "single", "single (other)",
                                      "workshare", "distribute", "taskloop", "scope",
                                      "loop (static)", "loop (dynamic)", "loop (guided)", "loop"};
  return kind < sizeof names / sizeof names[0] ? names[kind] : "work";
}

static void name_of(rep_file_t *f, rep_model_t *m, const tp_rec_event_t *e, tp_event_t *out) {
  char buf[600];
  const char *cat = "sync";
  switch (e->kind) {
  case TP_EV_PARALLEL:
    construct_name(buf, sizeof buf, f, m, e->context, "omp parallel");
    cat = "parallel";
    break;
  case TP_EV_IMPLICIT_TASK:
    snprintf(buf, sizeof buf, "implicit task %llu", (unsigned long long)e->arg);
    cat = "task";
    break;
  case TP_EV_TASK:
    construct_name(buf, sizeof buf, f, m, e->context, "omp task");
    cat = "task";
    break;
  case TP_EV_SYNC_WAIT: snprintf(buf, sizeof buf, "%s", sync_name(e->arg)); break;
  case TP_EV_MUTEX_WAIT:
  case TP_EV_MUTEX_HELD:
    snprintf(buf, sizeof buf, "%s %s", mutex_name(e->arg), e->kind == TP_EV_MUTEX_WAIT ? "wait" : "held");
    cat = "mutex";
    break;
  case TP_EV_WORK:
    snprintf(buf, sizeof buf, "%s", work_name(e->arg));
    cat = "work";
    break;
  case TP_EV_IDLE:
    snprintf(buf, sizeof buf, "idle");
    cat = "idle";
    break;
  default: snprintf(buf, sizeof buf, "event %u", e->kind); break;
  }
  out->name = rep_str(m, buf);
  out->cat = cat;
}

static int keyed(unsigned kind) {
  return kind == TP_EV_TASK || kind == TP_EV_MUTEX_WAIT || kind == TP_EV_MUTEX_HELD;
}

static int by_thread_ts(const void *x, const void *y) {
  const tp_event_t *a = x, *b = y;
  if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
  if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
  return a->dur > b->dur ? -1 : a->dur < b->dur;
}

void rep_events_file(rep_file_t *f, rep_model_t *m) {
  if (!f->nevents) return;
  tp_profile_t *p = rep_profile(m);
  size_t first = p->nevents;
  tp_event_t *ev = realloc(p->events, (p->nevents + f->nevents) * sizeof *ev);
  if (!ev) {
    fputs("tomp-prof report: out of memory\n", stderr);
    exit(1);
  }
  p->events = ev;
  /* open begins, as a stack per event list (threads interleave, so search by thread) */
  const tp_rec_event_t **open = rep_alloc(f->nevents * sizeof *open);
  size_t nopen = 0;
  double t0 = (double)f->hdr->start_ns;
  for (size_t i = 0; i < f->nevents; i++) {
    const tp_rec_event_t *e = f->events[i];
    if (e->phase == TP_PH_BEGIN) {
      open[nopen++] = e;
      continue;
    }
    const tp_rec_event_t *b = e;
    if (e->phase == TP_PH_END) {
      size_t j = nopen;
      while (j-- > 0)
        if (open[j]->thread == e->thread && open[j]->kind == e->kind &&
            (!keyed(e->kind) || open[j]->id == e->id))
          break;
      if (j == (size_t)-1) continue; /* its begin was not recorded (paused, or lost) */
      b = open[j];
      memmove(open + j, open + j + 1, (nopen - j - 1) * sizeof *open);
      nopen--;
    }
    tp_event_t *o = &p->events[p->nevents++];
    memset(o, 0, sizeof *o);
    o->proc = f->proc;
    o->thread = b->thread < f->nthread_map ? f->thread_map[b->thread] : f->thread_map[0];
    o->ts = ((double)b->ts_ns - t0) / 1e9;
    o->dur = e->phase == TP_PH_END ? (double)(e->ts_ns - b->ts_ns) / 1e9 : -1;
    o->id = b->id;
    name_of(f, m, b, o);
  }
  uint64_t end = f->end ? f->end->end_ns : f->last_ns;
  for (size_t j = 0; j < nopen; j++) {
    const tp_rec_event_t *b = open[j];
    tp_event_t *o = &p->events[p->nevents++];
    memset(o, 0, sizeof *o);
    o->proc = f->proc;
    o->thread = b->thread < f->nthread_map ? f->thread_map[b->thread] : f->thread_map[0];
    o->ts = ((double)b->ts_ns - t0) / 1e9;
    o->dur = end > b->ts_ns ? (double)(end - b->ts_ns) / 1e9 : 0;
    o->id = b->id;
    name_of(f, m, b, o);
  }
  free(open);
  qsort(p->events + first, p->nevents - first, sizeof *p->events, by_thread_ts);
}
