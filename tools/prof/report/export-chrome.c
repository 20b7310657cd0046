/* Chrome trace-event JSON ({"traceEvents":[...]}: chrome://tracing, Perfetto UI, speedscope)
 * of the --trace OMPT events: metadata events name each process (program, MPI rank) and each
 * thread ("OpenMP thread N", sorted by N); slices are complete events ("ph":"X") and instants
 * "ph":"i", with timestamps in microseconds from the start of their process's recording.
 * Within a thread, slices are written by start time and, at equal starts, longest first, so
 * that viewers nest enclosing slices (region > implicit task > barrier) correctly. */
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
  fprintf(out, ",\"pid\":%lld,\"tid\":%lld}\n]}\n", (long long)proc_pid(p, 0),
          (long long)(p->nthreads ? thread_tid(p, 0) : 0));
  if (!p->nevents)
    fputs("tomp-prof: this profile has no trace events (record with --trace for a timeline)\n", stderr);
  if (ferror(out)) {
    fputs("tomp-prof: writing the trace file failed\n", stderr);
    return -1;
  }
  return 0;
}
