/* OTF2 trace (Score-P's format, read by Vampir and otf2-print) of a --trace recording: one
 * location group per process, one location per OpenMP thread, and the model's slices
 * (parallel regions and tasks named by construct, line and creating function, implicit
 * tasks, waits, locks, worksharing, idle) as Enter/Leave pairs of OpenMP regions.  OTF2
 * needs properly nested Enter/Leave per location: a slice that starts inside another and
 * ends after it (a lock held across a task switch) is cut at the enclosing slice's end.
 * Instants are left out.  Built only with Debian's libotf2-trace-dev (prof.mk); without it
 * the format says what to install. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-util.h"
#include "profile.h"

#ifdef TP_HAVE_OTF2
#include <otf2/otf2.h>

typedef struct mark {
  uint64_t t;
  uint32_t region;
  int enter;
} mark_t;

typedef struct slice {
  uint64_t b, e;
  uint32_t region;
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

  /* regions: one per distinct slice name (strings 0..: names; then fixed strings) */
  tp_intern_t names = {0};
  uint32_t *region_of = calloc(p->nevents + 1, sizeof *region_of);
  uint64_t *count = calloc(p->nthreads + 1, sizeof *count);
  slice_t *sl = calloc(p->nevents + 1, sizeof *sl);
  mark_t *mk = calloc(2 * p->nevents + 1, sizeof *mk);
  uint64_t *stack = calloc(p->nevents + 1, sizeof *stack);
  uint32_t *stack_r = calloc(p->nevents + 1, sizeof *stack_r);
  const tp_event_t **first = calloc(p->nevents + 1, sizeof *first);
  if (!region_of || !count || !sl || !mk || !stack || !stack_r || !first) {
    fputs("tomp-prof report: out of memory\n", stderr);
    exit(1);
  }
  for (size_t i = 0; i < p->nevents; i++) {
    int isnew;
    region_of[i] = (uint32_t)tp_intern(&names, p->events[i].name, NULL, &isnew);
    if (isnew) first[region_of[i]] = &p->events[i];
  }
  uint64_t trace_end = 0;
  /* events, thread by thread (the model's events are sorted by proc, thread, ts) */
  for (size_t i = 0; i < p->nevents;) {
    size_t j = i, n = 0;
    uint32_t th = p->events[i].thread;
    while (j < p->nevents && p->events[j].thread == th && p->events[j].proc == p->events[i].proc) {
      if (p->events[j].dur >= 0) {
        sl[n].b = ns(p->events[j].ts);
        sl[n].e = ns(p->events[j].ts + p->events[j].dur);
        sl[n].region = region_of[j];
        n++;
      }
      j++;
    }
    qsort(sl, n, sizeof *sl, by_start);
    size_t m = 0, depth = 0;
    for (size_t k = 0; k < n; k++) {
      while (depth && stack[depth - 1] <= sl[k].b) {
        depth--;
        mk[m++] = (mark_t){stack[depth], stack_r[depth], 0};
      }
      uint64_t e = sl[k].e;
      if (depth && e > stack[depth - 1]) e = stack[depth - 1]; /* keep the nesting */
      mk[m++] = (mark_t){sl[k].b, sl[k].region, 1};
      stack[depth] = e;
      stack_r[depth++] = sl[k].region;
    }
    while (depth) {
      depth--;
      mk[m++] = (mark_t){stack[depth], stack_r[depth], 0};
    }
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, th);
    for (size_t k = 0; k < m; k++) {
      if (mk[k].enter)
        OTF2_EvtWriter_Enter(w, NULL, mk[k].t, mk[k].region);
      else
        OTF2_EvtWriter_Leave(w, NULL, mk[k].t, mk[k].region);
      if (mk[k].t > trace_end) trace_end = mk[k].t;
    }
    if (th < p->nthreads) count[th] = m + 1; /* +1: opened (see below) */
    OTF2_Archive_CloseEvtWriter(ar, w);
    i = j;
  }
  /* readers expect an event file for every location, even one without events */
  for (size_t t = 0; t < p->nthreads; t++) {
    if (count[t]--) continue;
    count[t] = 0;
    OTF2_Archive_CloseEvtWriter(ar, OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)t));
  }
  OTF2_Archive_CloseEvtFiles(ar);

  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000ull, 0, trace_end + 1,
                                            OTF2_UNDEFINED_TIMESTAMP);
  uint32_t nreg = (uint32_t)names.n, s = 0;
  for (uint32_t r = 0; r < nreg; r++)
    OTF2_GlobalDefWriter_WriteString(g, s++, first[r]->name);
  uint32_t s_empty = s++, s_machine = s++, s_node = s++;
  OTF2_GlobalDefWriter_WriteString(g, s_empty, "");
  OTF2_GlobalDefWriter_WriteString(g, s_machine, "machine");
  OTF2_GlobalDefWriter_WriteString(g, s_node, "node");
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
  free(sl);
  free(mk);
  free(stack);
  free(stack_r);
  free(first);
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
