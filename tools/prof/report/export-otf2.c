/* OTF2 trace (Score-P's format, read by Vampir and otf2-print) of a --trace recording: one
 * location group per process, one location per OpenMP thread, and the model's slices
 * (parallel regions and tasks named by construct, line and creating function, implicit
 * tasks, waits, locks, worksharing, idle) as Enter/Leave pairs of OpenMP regions, with the
 * OpenMP events Score-P writes (OTF2's threading records, paradigm OpenMP):
 *   ThreadFork / ThreadJoin       around a parallel region, on the thread that encountered it
 *                                 (the number of threads asked for);
 *   ThreadTeamBegin / End         each thread's implicit task in a region, in its process's
 *                                 thread team (a communicator of its OpenMP threads);
 *   ThreadAcquireLock / Release   a lock, critical, atomic or ordered construct held (lock ids
 *                                 numbered per process, acquisition order per lock);
 *   ThreadTaskCreate              where an explicit task was created;
 *   ThreadTaskSwitch              each time a thread starts or resumes a task, and back to the
 *                                 task it left (its implicit task: generation 0) afterwards;
 *   ThreadTaskComplete            when a task completes (or is cancelled).
 * Tasks are named as OTF2 wants: (creating thread's rank in the team, its creation count).
 * OTF2 needs properly nested Enter/Leave per location: a slice that starts inside another and
 * ends after it (a lock held across a task switch) is cut at the enclosing slice's end.
 * Built only with Debian's libotf2-trace-dev (prof.mk); without it the format says what to
 * install. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-util.h"
#include "profile.h"

#ifdef TP_HAVE_OTF2
#include <otf2/otf2.h>

    enum {
      M_LEAVE,
      M_ENTER,
      M_CREATE
    };

typedef struct mark {
  uint64_t t;
  uint32_t region;
  uint32_t ev;    /* index into p->events */
  int type;       /* M_* */
  int64_t resume; /* M_LEAVE of a task: the enclosing task slice's event, -1: implicit task */
} mark_t;

typedef struct slice {
  uint64_t b, e;
  uint32_t region;
  uint32_t ev;
} slice_t;

static int by_start(const void *x, const void *y) {
  const slice_t *a = x, *b = y;
  if (a->b != b->b) return a->b < b->b ? -1 : 1;
  return a->e > b->e ? -1 : a->e < b->e; /* the longer one encloses */
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l, void *c, bool f) {
  (void)u, (void)t, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType t, OTF2_LocationRef l) {
  (void)u, (void)t, (void)l;
  return 0;
}

static OTF2_RegionRole role_of(const char *cat, const char *name) {
  if (!strcmp(cat, "parallel")) return OTF2_REGION_ROLE_PARALLEL;
  if (!strcmp(cat, "task")) return OTF2_REGION_ROLE_TASK;
  if (!strcmp(cat, "work"))
    return strstr(name, "implicit task") ? OTF2_REGION_ROLE_TASK : OTF2_REGION_ROLE_LOOP;
  if (!strcmp(cat, "sync"))
    return strstr(name, "taskwait") ? OTF2_REGION_ROLE_TASK_WAIT : OTF2_REGION_ROLE_BARRIER;
  if (!strcmp(cat, "mutex")) return OTF2_REGION_ROLE_CRITICAL;
  return OTF2_REGION_ROLE_ARTIFICIAL;
}

static uint64_t ns(double s) {
  return s > 0 ? (uint64_t)(s * 1e9 + 0.5) : 0;
}

/* (process, number) -> value: task identities and lock ids */
typedef struct kv {
  uint64_t k1, k2;
  uint64_t v;
  int used;
} kv_t;
typedef struct map {
  kv_t *e;
  size_t cap;
} map_t;

static kv_t *map_slot(map_t *m, uint64_t k1, uint64_t k2) {
  size_t h = (size_t)((k1 * 0x9e3779b97f4a7c15ull) ^ (k2 * 0xc2b2ae3d27d4eb4full)) & (m->cap - 1);
  while (m->e[h].used && (m->e[h].k1 != k1 || m->e[h].k2 != k2))
    h = (h + 1) & (m->cap - 1);
  return &m->e[h];
}

typedef struct ctx {
  const tp_profile_t *p;
  uint32_t *rank;  /* per thread: its rank in its process's team */
  map_t tasks;     /* (proc, task number) -> rank << 32 | generation */
  map_t locks;     /* (proc, wait id) -> lock id + 1 */
  uint32_t *order; /* per event: acquisition order of a held lock */
  uint32_t nlocks;
} ctx_t;

static uint64_t task_of(ctx_t *c, const tp_event_t *e) {
  kv_t *k = map_slot(&c->tasks, e->proc, e->id);
  if (!k->used) { /* its create was not recorded: a name of its own */
    k->used = 1, k->k1 = e->proc, k->k2 = e->id;
    k->v = (uint64_t)c->rank[e->thread] << 32 | (0x80000000u | (uint32_t)e->id);
  }
  return k->v;
}

static uint32_t lock_of(ctx_t *c, const tp_event_t *e) {
  kv_t *k = map_slot(&c->locks, e->proc, e->id);
  if (!k->used) k->used = 1, k->k1 = e->proc, k->k2 = e->id, k->v = ++c->nlocks;
  return (uint32_t)(k->v - 1);
}

static const tp_profile_t *g_p; /* qsort's comparator */
static int by_lock_time(const void *x, const void *y) {
  const tp_event_t *a = &g_p->events[*(const uint32_t *)x], *b = &g_p->events[*(const uint32_t *)y];
  if (a->proc != b->proc) return a->proc < b->proc ? -1 : 1;
  if (a->id != b->id) return a->id < b->id ? -1 : 1;
  return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* Ranks, task identities (creator's rank, its creation count) and acquisition orders. */
static void prepare(ctx_t *c) {
  const tp_profile_t *p = c->p;
  c->rank = tp_ex_alloc((p->nthreads + 1) * sizeof *c->rank);
  uint32_t *next = tp_ex_alloc((p->nprocs + 1) * sizeof *next);
  for (size_t t = 0; t < p->nthreads; t++)
    c->rank[t] = next[p->threads[t].proc]++;
  free(next);
  c->tasks.cap = c->locks.cap = 64;
  while (c->tasks.cap < 2 * p->nevents)
    c->tasks.cap *= 2;
  c->locks.cap = c->tasks.cap;
  c->tasks.e = tp_ex_alloc(c->tasks.cap * sizeof *c->tasks.e);
  c->locks.e = tp_ex_alloc(c->locks.cap * sizeof *c->locks.e);
  uint32_t *gen = tp_ex_alloc((p->nthreads + 1) * sizeof *gen);
  uint32_t *held = tp_ex_alloc((p->nevents + 1) * sizeof *held);
  size_t nheld = 0;
  for (size_t i = 0; i < p->nevents; i++) { /* by thread and time: creation counts in order */
    const tp_event_t *e = &p->events[i];
    if (e->kind == TP_EK_TASK_CREATE && e->id) {
      kv_t *k = map_slot(&c->tasks, e->proc, e->id);
      k->used = 1, k->k1 = e->proc, k->k2 = e->id;
      k->v = (uint64_t)c->rank[e->thread] << 32 | ++gen[e->thread];
    }
    if (e->kind == TP_EK_MUTEX_HELD && e->dur >= 0) held[nheld++] = (uint32_t)i;
  }
  g_p = p;
  qsort(held, nheld, sizeof *held, by_lock_time);
  c->order = tp_ex_alloc((p->nevents + 1) * sizeof *c->order);
  for (size_t k = 0; k < nheld; k++) {
    const tp_event_t *e = &p->events[held[k]], *prev = k ? &p->events[held[k - 1]] : NULL;
    int same = prev && prev->proc == e->proc && prev->id == e->id;
    c->order[held[k]] = same ? c->order[held[k - 1]] + 1 : 1;
  }
  free(gen);
  free(held);
}

/* One mark's records; returns how many were written. */
static uint64_t write_mark(ctx_t *c, OTF2_EvtWriter *w, const mark_t *mk) {
  const tp_event_t *e = &c->p->events[mk->ev];
  OTF2_CommRef team = (OTF2_CommRef)e->proc;
  uint64_t n = 0, id;
  if (mk->type == M_CREATE) {
    id = task_of(c, e);
    OTF2_EvtWriter_ThreadTaskCreate(w, NULL, mk->t, team, (uint32_t)(id >> 32), (uint32_t)id);
    return 1;
  }
  if (mk->type == M_ENTER) {
    if (e->kind == TP_EK_PARALLEL)
      OTF2_EvtWriter_ThreadFork(w, NULL, mk->t, OTF2_PARADIGM_OPENMP, (uint32_t)e->arg), n++;
    OTF2_EvtWriter_Enter(w, NULL, mk->t, mk->region), n++;
    switch (e->kind) {
    case TP_EK_IMPLICIT_TASK:
      OTF2_EvtWriter_ThreadTeamBegin(w, NULL, mk->t, team), n++;
      break;
    case TP_EK_MUTEX_HELD:
      OTF2_EvtWriter_ThreadAcquireLock(w, NULL, mk->t, OTF2_PARADIGM_OPENMP, lock_of(c, e),
                                       c->order[mk->ev]),
          n++;
      break;
    case TP_EK_TASK:
      id = task_of(c, e);
      OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, mk->t, team, (uint32_t)(id >> 32), (uint32_t)id),
          n++;
      break;
    default:
      break;
    }
    return n;
  }
  switch (e->kind) {
  case TP_EK_IMPLICIT_TASK:
    OTF2_EvtWriter_ThreadTeamEnd(w, NULL, mk->t, team), n++;
    break;
  case TP_EK_MUTEX_HELD:
    OTF2_EvtWriter_ThreadReleaseLock(w, NULL, mk->t, OTF2_PARADIGM_OPENMP, lock_of(c, e),
                                     c->order[mk->ev]),
        n++;
    break;
  case TP_EK_TASK:
    if (e->arg == 1 /* ompt_task_complete */ || e->arg == 3 /* ompt_task_cancel */) {
      id = task_of(c, e);
      OTF2_EvtWriter_ThreadTaskComplete(w, NULL, mk->t, team, (uint32_t)(id >> 32), (uint32_t)id),
          n++;
    }
    break;
  default:
    break;
  }
  OTF2_EvtWriter_Leave(w, NULL, mk->t, mk->region), n++;
  if (e->kind == TP_EK_PARALLEL)
    OTF2_EvtWriter_ThreadJoin(w, NULL, mk->t, OTF2_PARADIGM_OPENMP), n++;
  if (e->kind == TP_EK_TASK) { /* back to the task it interrupted, or its implicit task */
    id = mk->resume >= 0 ? task_of(c, &c->p->events[mk->resume])
                         : (uint64_t)c->rank[e->thread] << 32;
    OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, mk->t, team, (uint32_t)(id >> 32), (uint32_t)id), n++;
  }
  return n;
}

int tp_export_otf2_dir(const tp_profile_t *p, const char *dir) {
  OTF2_Archive *ar =
      OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!ar) {
    fprintf(stderr, "tomp-prof report: cannot create the OTF2 archive in '%s'\n", dir);
    return -1;
  }
  OTF2_FlushCallbacks fcb = {pre_flush, post_flush};
  OTF2_Archive_SetFlushCallbacks(ar, &fcb, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  OTF2_Archive_SetCreator(ar, "tomp-prof");
  OTF2_Archive_OpenEvtFiles(ar);

  ctx_t c = {p, NULL, {NULL, 0}, {NULL, 0}, NULL, 0};
  prepare(&c);
  /* regions: one per distinct slice name (strings 0..: names; then fixed strings) */
  tp_intern_t names = {0};
  uint32_t *region_of = tp_ex_alloc((p->nevents + 1) * sizeof *region_of);
  uint64_t *count = tp_ex_alloc((p->nthreads + 1) * sizeof *count);
  uint8_t *opened = tp_ex_alloc(p->nthreads + 1);
  slice_t *sl = tp_ex_alloc((p->nevents + 1) * sizeof *sl);
  mark_t *mk = tp_ex_alloc((2 * p->nevents + 1) * sizeof *mk);
  uint32_t *inst = tp_ex_alloc((p->nevents + 1) * sizeof *inst);
  slice_t *stack = tp_ex_alloc((p->nevents + 1) * sizeof *stack);
  const tp_event_t **first = tp_ex_alloc((p->nevents + 1) * sizeof *first);
  for (size_t i = 0; i < p->nevents; i++) {
    if (p->events[i].dur < 0) continue; /* instants are not regions */
    int isnew;
    region_of[i] = (uint32_t)tp_intern(&names, p->events[i].name, NULL, &isnew);
    if (isnew) first[region_of[i]] = &p->events[i];
  }
  uint64_t trace_end = 0;
  /* events, thread by thread (the model's events are sorted by proc, thread, ts) */
  for (size_t i = 0; i < p->nevents;) {
    size_t j = i, n = 0, ni = 0;
    uint32_t th = p->events[i].thread;
    while (j < p->nevents && p->events[j].thread == th && p->events[j].proc == p->events[i].proc) {
      const tp_event_t *e = &p->events[j];
      if (e->dur >= 0)
        sl[n++] = (slice_t){ns(e->ts), ns(e->ts + e->dur), region_of[j], (uint32_t)j};
      else if (e->kind == TP_EK_TASK_CREATE)
        inst[ni++] = (uint32_t)j; /* in time order */
      j++;
    }
    qsort(sl, n, sizeof *sl, by_start);
    size_t m = 0, depth = 0;
    for (size_t k = 0; k <= n; k++) {
      /* leave what ended before this slice starts (everything after the last) */
      while (depth && (k == n || stack[depth - 1].e <= sl[k].b)) {
        slice_t *top = &stack[--depth];
        int64_t resume = -1;
        for (size_t d = depth; d-- > 0;)
          if (p->events[stack[d].ev].kind == TP_EK_TASK) {
            resume = stack[d].ev;
            break;
          }
        mk[m++] = (mark_t){top->e, top->region, top->ev, M_LEAVE, resume};
      }
      if (k == n) break;
      uint64_t e = sl[k].e;
      if (depth && e > stack[depth - 1].e) e = stack[depth - 1].e; /* keep the nesting */
      mk[m++] = (mark_t){sl[k].b, sl[k].region, sl[k].ev, M_ENTER, -1};
      stack[depth] = sl[k];
      stack[depth++].e = e;
    }
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, th);
    size_t q = 0;
    for (size_t k = 0; k <= m; k++) {
      /* task creations (instants) merged in by time */
      while (q < ni && (k == m || ns(p->events[inst[q]].ts) <= mk[k].t)) {
        uint64_t t = ns(p->events[inst[q]].ts);
        if (k > 0 && t < mk[k - 1].t) t = mk[k - 1].t; /* timestamps never go back */
        mark_t cm = {t, 0, inst[q++], M_CREATE, -1};
        count[th] += write_mark(&c, w, &cm);
        if (t > trace_end) trace_end = t;
      }
      if (k == m) break;
      count[th] += write_mark(&c, w, &mk[k]);
      if (mk[k].t > trace_end) trace_end = mk[k].t;
    }
    if (th < p->nthreads) opened[th] = 1;
    OTF2_Archive_CloseEvtWriter(ar, w);
    i = j;
  }
  /* readers expect an event file for every location, even one without events */
  for (size_t t = 0; t < p->nthreads; t++)
    if (!opened[t])
      OTF2_Archive_CloseEvtWriter(ar, OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)t));
  OTF2_Archive_CloseEvtFiles(ar);

  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000ull, 0, trace_end + 1,
                                            OTF2_UNDEFINED_TIMESTAMP);
  uint32_t nreg = (uint32_t)names.n, s = 0;
  for (uint32_t r = 0; r < nreg; r++)
    OTF2_GlobalDefWriter_WriteString(g, s++, first[r]->name);
  uint32_t s_empty = s++, s_machine = s++, s_node = s++, s_all = s++;
  OTF2_GlobalDefWriter_WriteString(g, s_empty, "");
  OTF2_GlobalDefWriter_WriteString(g, s_machine, "machine");
  OTF2_GlobalDefWriter_WriteString(g, s_node, "node");
  OTF2_GlobalDefWriter_WriteString(g, s_all, "OpenMP threads");
  for (uint32_t r = 0; r < nreg; r++)
    OTF2_GlobalDefWriter_WriteRegion(g, r, r, r, s_empty, role_of(first[r]->cat, first[r]->name),
                                     OTF2_PARADIGM_OPENMP, OTF2_REGION_FLAG_NONE, s_empty, 0, 0);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_machine, s_node,
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (size_t i = 0; i < p->nprocs; i++) {
    char buf[128];
    if (p->procs[i].rank >= 0)
      snprintf(buf, sizeof buf, "rank %d (pid %lld)", p->procs[i].rank, (long long)p->procs[i].pid);
    else
      snprintf(buf, sizeof buf, "process %lld", (long long)p->procs[i].pid);
    OTF2_GlobalDefWriter_WriteString(g, s, buf);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)i, s++,
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
  }
  for (size_t t = 0; t < p->nthreads; t++) {
    char buf[64];
    snprintf(buf, sizeof buf, "OpenMP thread %u", p->threads[t].index);
    OTF2_GlobalDefWriter_WriteString(g, s, buf);
    OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)t, s++, OTF2_LOCATION_TYPE_CPU_THREAD,
                                       count[t], (OTF2_LocationGroupRef)p->threads[t].proc);
  }
  /* thread teams: group 0 lists every OpenMP location; group 1 + i the ranks (positions in
   * group 0) of process i's threads, its team communicator i */
  uint64_t *members = tp_ex_alloc((p->nthreads + 1) * sizeof *members);
  for (size_t t = 0; t < p->nthreads; t++)
    members[t] = t;
  OTF2_GlobalDefWriter_WriteGroup(g, 0, s_all, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                  OTF2_GROUP_FLAG_NONE, (uint32_t)p->nthreads, members);
  for (size_t i = 0; i < p->nprocs; i++) {
    uint32_t nm = 0;
    for (size_t t = 0; t < p->nthreads; t++)
      if (p->threads[t].proc == i) members[nm++] = t;
    char buf[128];
    snprintf(buf, sizeof buf, "OpenMP thread team of process %lld", (long long)p->procs[i].pid);
    OTF2_GlobalDefWriter_WriteString(g, s, buf);
    OTF2_GlobalDefWriter_WriteGroup(g, (OTF2_GroupRef)(1 + i), s, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, nm, members);
    OTF2_GlobalDefWriter_WriteComm(g, (OTF2_CommRef)i, s++, (OTF2_GroupRef)(1 + i),
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  }
  free(members);
  OTF2_Archive_CloseGlobalDefWriter(ar, g);
  /* every location gets its (empty) local definitions, as readers expect */
  OTF2_Archive_OpenDefFiles(ar);
  for (size_t t = 0; t < p->nthreads; t++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)t);
    OTF2_Archive_CloseDefWriter(ar, dw);
  }
  OTF2_Archive_CloseDefFiles(ar);
  OTF2_ErrorCode rc = OTF2_Archive_Close(ar);
  tp_intern_free(&names);
  free(region_of);
  free(count);
  free(opened);
  free(sl);
  free(mk);
  free(inst);
  free(stack);
  free(first);
  free(c.rank);
  free(c.tasks.e);
  free(c.locks.e);
  free(c.order);
  if (rc != OTF2_SUCCESS) {
    fprintf(stderr, "tomp-prof report: writing the OTF2 archive failed: %s\n",
            OTF2_Error_GetName(rc));
    return -1;
  }
  if (!p->nevents)
    fputs("tomp-prof report: no trace events (record with --trace): the OTF2 archive is empty\n",
          stderr);
  return 0;
}

#else

    int tp_export_otf2_dir(const tp_profile_t *p, const char *dir) {
  (void)p;
  (void)dir;
  fputs("tomp-prof report: this tomp-prof was built without OTF2; install Debian's "
        "libotf2-trace-dev (and otf2-tools for otf2-print), then rebuild (make)\n",
        stderr);
  return -1;
}

#endif
