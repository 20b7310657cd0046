/* --trace: the recorder's begin/end/instant event records become slices of the model
 * (profile.h tp_event_t), paired per thread: an end closes the latest open begin of the same
 * kind (and the same id for tasks and mutexes, which can interleave).  Begins still open when
 * the thread's records stop are closed at the last time seen in the file.  Names say what a
 * user would: "omp parallel @ file.c:22 in compute" (the construct, its line and the function
 * that created the region), "implicit task 1", "omp task @ file.c:40 in producer", "barrier
 * wait", "critical wait", "lock held", "loop", "idle", and instants "create omp task @ ...".
 * Tasks are numbered per process (their ids in the model), see number_tasks. */
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
  case TP_EV_TASK_CREATE: {
    char c[560];
    construct_name(c, sizeof c, f, m, e->context, "omp task");
    snprintf(buf, sizeof buf, "create %s", c);
    cat = "task";
    break;
  }
  default: snprintf(buf, sizeof buf, "event %u", e->kind); break;
  }
  out->name = rep_str(m, buf);
  out->cat = cat;
}

_Static_assert((int)TP_EV_PARALLEL == (int)TP_EK_PARALLEL && (int)TP_EV_TASK == (int)TP_EK_TASK &&
                   (int)TP_EV_SYNC_WAIT == (int)TP_EK_SYNC && (int)TP_EV_IDLE == (int)TP_EK_IDLE &&
                   (int)TP_EV_MUTEX_HELD == (int)TP_EK_MUTEX_HELD &&
                   (int)TP_EV_TASK_CREATE == (int)TP_EK_TASK_CREATE,
               "the model's event kinds are the recording's");

static int keyed(unsigned kind) {
  return kind == TP_EV_TASK || kind == TP_EV_MUTEX_WAIT || kind == TP_EV_MUTEX_HELD;
}

static int by_thread_ts(const void *x, const void *y) {
  const tp_event_t *a = x, *b = y;
  if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
  if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
  return a->dur > b->dur ? -1 : a->dur < b->dur;
}

/* Task numbers: the recorder names a task by its task_data address, which the runtime reuses
 * once the task completed.  In time order, each create starts a new number for its address;
 * a task's slices take the number its address has then (a task whose create was not recorded
 * gets one at its first slice). */
typedef struct tnum {
  uint64_t addr, num;
} tnum_t;

static tnum_t *tnum_slot(tnum_t *tab, size_t cap, uint64_t addr) {
  size_t h = (size_t)(addr * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
  while (tab[h].addr && tab[h].addr != addr) h = (h + 1) & (cap - 1);
  tab[h].addr = addr;
  return &tab[h];
}

static const rep_file_t *g_file; /* qsort's comparator */
static int by_time(const void *x, const void *y) {
  size_t i = *(const size_t *)x, j = *(const size_t *)y;
  uint64_t a = g_file->events[i]->ts_ns, b = g_file->events[j]->ts_ns;
  if (a != b) return a < b ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* num[i]: the task number of event i (task and task-create events; creator's number of a
 * create in carg[i]), 0 for other kinds. */
static void number_tasks(const rep_file_t *f, uint64_t *num, uint64_t *carg) {
  size_t *order = rep_alloc((f->nevents + 1) * sizeof *order), cap = 64;
  while (cap < 2 * f->nevents) cap *= 2;
  tnum_t *tab = rep_alloc(cap * sizeof *tab);
  for (size_t i = 0; i < f->nevents; i++) order[i] = i;
  g_file = f;
  qsort(order, f->nevents, sizeof *order, by_time);
  uint64_t next = 0;
  for (size_t k = 0; k < f->nevents; k++) {
    size_t i = order[k];
    const tp_rec_event_t *e = f->events[i];
    if (e->kind != TP_EV_TASK && e->kind != TP_EV_TASK_CREATE) continue;
    if (!e->id) continue;
    tnum_t *slot = tnum_slot(tab, cap, e->id);
    if (e->kind == TP_EV_TASK_CREATE) {
      slot->num = ++next;
      carg[i] = e->arg ? tnum_slot(tab, cap, e->arg)->num : 0;
    } else if (!slot->num) {
      slot->num = ++next;
    }
    num[i] = slot->num;
  }
  free(order);
  free(tab);
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
  size_t *open_i = rep_alloc(f->nevents * sizeof *open_i);
  uint64_t *num = rep_alloc((f->nevents + 1) * sizeof *num);
  uint64_t *carg = rep_alloc((f->nevents + 1) * sizeof *carg);
  number_tasks(f, num, carg);
  size_t nopen = 0;
  double t0 = (double)f->hdr->start_ns;
  for (size_t i = 0; i < f->nevents; i++) {
    const tp_rec_event_t *e = f->events[i];
    if (e->phase == TP_PH_BEGIN) {
      open_i[nopen] = i;
      open[nopen++] = e;
      continue;
    }
    const tp_rec_event_t *b = e;
    size_t bi = i;
    if (e->phase == TP_PH_END) {
      size_t j = nopen;
      while (j-- > 0)
        if (open[j]->thread == e->thread && open[j]->kind == e->kind &&
            (!keyed(e->kind) || (e->kind == TP_EV_TASK ? num[open_i[j]] == num[i] : open[j]->id == e->id)))
          break;
      if (j == (size_t)-1) continue; /* its begin was not recorded (paused, or lost) */
      b = open[j];
      bi = open_i[j];
      memmove(open + j, open + j + 1, (nopen - j - 1) * sizeof *open);
      memmove(open_i + j, open_i + j + 1, (nopen - j - 1) * sizeof *open_i);
      nopen--;
    }
    tp_event_t *o = &p->events[p->nevents++];
    memset(o, 0, sizeof *o);
    o->proc = f->proc;
    o->thread = b->thread < f->nthread_map ? f->thread_map[b->thread] : f->thread_map[0];
    o->ts = ((double)b->ts_ns - t0) / 1e9;
    o->dur = e->phase == TP_PH_END ? (double)(e->ts_ns - b->ts_ns) / 1e9 : -1;
    o->id = num[bi] ? num[bi] : b->id;
    o->kind = b->kind;
    /* a task slice says how it ended; a create names its creator's number */
    o->arg = b->kind == TP_EV_TASK ? e->arg : b->kind == TP_EV_TASK_CREATE ? carg[bi] : b->arg;
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
    o->id = num[open_i[j]] ? num[open_i[j]] : b->id;
    o->kind = b->kind;
    o->arg = b->kind == TP_EV_TASK ? 0 : b->arg; /* a task still running: not ended */
    name_of(f, m, b, o);
  }
  free(open);
  free(open_i);
  free(num);
  free(carg);
  qsort(p->events + first, p->nevents - first, sizeof *p->events, by_thread_ts);
}
