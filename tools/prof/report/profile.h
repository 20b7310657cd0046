/* The report's in-memory profile: what the loader (load.c) builds from one or more data files
 * (reading, symbolizing, cutting runtime frames, splicing creation contexts, blame) and what
 * every view (text.c, export-*.c) reads.  Views never look at the data files.
 *
 * Locations are interned: one tp_loc_t per distinct (function, file, line, module), and a
 * stack is an array of location indices, ROOT FIRST (main ... leaf).  Synthetic frames that
 * the profiler adds (the `omp idle` frame, wait leaves such as `omp barrier wait`, `omp lock
 * wait`, `omp critical wait`, `omp taskwait`, `omp taskgroup wait`, `omp ordered wait`,
 * `omp atomic wait`, `omp overhead`, `[unknown]`) are locations of kind TP_LOC_OMP.
 *
 * All times are in seconds.  For every stack (and so for every thread and for the whole
 * profile): time = work + wait, where wait is time sampled in an OpenMP wait or idle state
 * and work is everything else.  blame is extra time charged to the stack by blame shifting
 * (directed: lock/critical waits charged to the holder's release path; undirected: barrier
 * idleness charged to the threads still working); it is NOT part of time.  cpu is the CPU
 * time the threads used while those samples were taken (per-thread CPU clock): next to wall
 * time it tells spinning (cpu ~ time) from blocked or preempted (cpu << time).
 *
 * A sample weighs the wall time it stands for: the interval since its thread's previous
 * timer expiry (one period normally, more after timer overruns on a loaded machine), so a
 * thread's time adds up to its sampled wall time. */
#ifndef TP_PROFILE_H
#define TP_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { TP_M_TIME, TP_M_WORK, TP_M_WAIT, TP_M_BLAME, TP_M_CPU, TP_NMETRIC };
/* "time", "work", "wait", "blame", "cpu" */
extern const char *const tp_metric_name[TP_NMETRIC];

enum { TP_LOC_USER = 0, TP_LOC_OMP = 1, TP_LOC_UNKNOWN = 2 };

/* Hardware/software counters (record --counters): events, not seconds; at most TP_NCTR per
 * profile, named in tp_profile_t.ctr_names (processes merged by name). */
#define TP_NCTR 4

typedef struct tp_loc {
  const char *func;   /* demangled function name, or the synthetic frame's name; never NULL */
  const char *file;   /* source file or NULL */
  uint32_t line;      /* 0 if unknown */
  uint32_t kind;      /* TP_LOC_* */
  const char *module; /* path of the ELF object, NULL for synthetic frames */
  uint64_t addr;      /* a representative address (module-relative), 0 for synthetic */
} tp_loc_t;

/* One distinct (process, thread, user-model stack) with its accumulated metrics. */
typedef struct tp_stack {
  uint32_t proc;       /* index into procs */
  uint32_t thread;     /* index into threads (global across processes) */
  uint32_t depth;
  const uint32_t *locs; /* depth entries, root first */
  double v[TP_NMETRIC];
  uint64_t samples;
  double ctr[TP_NCTR]; /* counter events over its samples' intervals */
} tp_stack_t;

typedef struct tp_thread {
  uint32_t proc;
  uint32_t index;      /* the tool's thread index within its process (0 = initial) */
  int64_t tid;
  uint32_t kind;       /* ompt_thread_t */
  double v[TP_NMETRIC];
  uint64_t samples;
  double ctr[TP_NCTR]; /* counter events */
} tp_thread_t;

/* What a sample was doing: working, in an OpenMP wait state (barrier, taskwait, lock, ...,
 * overhead), idle, in a runtime's wait loop whatever state the runtime reported, or inside
 * an MPI call (frames in the MPI library: MPI waiting, not work).  All but TP_SC_WORK count
 * as wait. */
enum { TP_SC_WORK, TP_SC_WAIT, TP_SC_IDLE, TP_SC_RTWAIT, TP_SC_MPI, TP_NSC };

typedef struct tp_proc {
  int64_t pid;
  int32_t rank;        /* -1 if none */
  uint32_t sample_hz;
  const char *cmdline; /* argv joined by spaces */
  const char *runtime; /* the OpenMP runtime's version string */
  const char *path;    /* data file */
  double duration;     /* seconds recorded */
  uint64_t samples, lost;
  double lost_time;    /* thread time of the lost samples (not sampled) */
  uint64_t late;       /* samples that stand for more than 1.5 periods (overruns, late signals) */
  double late_extra;   /* the time they stand for beyond one period each */
  int has_cpu;         /* the samples carry CPU time */
  const char *sample_on; /* sampled every sample_period events of this counter (NULL: timer);
                            its samples weigh CPU time */
  uint64_t sample_period;
  const char *counter_note; /* counters asked for but not recorded, and why (NULL: none) */
  double start;        /* seconds from the earliest process's start (wall clock): aligns ranks */
  double by_class[TP_NSC]; /* thread time by sample class */
} tp_proc_t;

/* One parallel region call path (all its instances, all processes merged). */
typedef struct tp_region {
  uint32_t depth;
  const uint32_t *locs; /* user-model path where the region was created, root first */
  uint64_t instances;
  double wall;          /* summed wall time of its instances */
  uint32_t nthreads;    /* largest team seen */
  const double *work;   /* nthreads entries: work seconds by thread number in the team */
  double wait;          /* wait seconds of the team's threads inside the region */
  double imbalance;     /* max(work) / mean(work), 1.0 = perfectly balanced; 0 = unknown
                           (fewer than two threads sampled, or no work) */
} tp_region_t;

/* --trace: a slice (dur >= 0) or an instant (dur < 0) on one thread. */
typedef struct tp_event {
  uint32_t proc;
  uint32_t thread;      /* index into threads */
  double ts;            /* seconds from the start of its process's recording */
  double dur;
  const char *name;     /* e.g. "parallel main.omp_fn.0", "barrier wait", "lock wait" */
  const char *cat;      /* "parallel", "task", "sync", "mutex", "work", "idle" */
  uint64_t id;          /* tasks: a number unique in the process (1, 2, ...), the same on the
                           task's create instant and on each slice it ran in; locks: the wait
                           id; regions: the instance */
  uint32_t kind;        /* TP_EK_* */
  uint64_t arg;         /* parallel: team size asked for; task: how its slice ended
                           (ompt_task_status_t: 1 complete, 2 yield, 3 cancel, 7 switch...);
                           task create: the creating task's number (0: an implicit task);
                           mutex: ompt_mutex_t; sync: ompt_sync_region_t; work: ompt_work_t */
} tp_event_t;
enum { TP_EK_PARALLEL = 1, TP_EK_IMPLICIT_TASK, TP_EK_TASK, TP_EK_SYNC, TP_EK_MUTEX_WAIT,
       TP_EK_MUTEX_HELD, TP_EK_WORK, TP_EK_IDLE, TP_EK_TASK_CREATE };

/* One sample in time: its thread, when, and the stack it was added to (timelines). */
typedef struct tp_psample {
  uint32_t proc, thread, stack; /* stack: index into stacks */
  double ts;                    /* seconds from the start of its process's recording */
  double weight;                /* seconds it stands for */
  uint32_t cls;                 /* TP_SC_*: what it was doing */
} tp_psample_t;

typedef struct tp_profile {
  tp_proc_t *procs;
  size_t nprocs;
  tp_loc_t *locs;
  size_t nlocs;
  tp_stack_t *stacks;
  size_t nstacks;
  tp_thread_t *threads;
  size_t nthreads;
  tp_region_t *regions;
  size_t nregions;
  tp_event_t *events;   /* sorted by (proc, thread, ts) */
  size_t nevents;
  tp_psample_t *psamples; /* every sample, by (proc, thread, ts) */
  size_t npsamples;
  uint32_t nctr;        /* counters recorded */
  const char *ctr_names[TP_NCTR];
  void *priv;           /* load.c: the memory the profile's strings and arrays live in */
} tp_profile_t;

/* What the user asked of the views (report.c sets it from the command line; views may read
 * it): the metric to rank, prune and weigh by, the pruning threshold of the text tree (percent
 * of the metric's total), and whether stacks are rooted at their thread (folded). */
typedef struct tp_view_opts {
  int metric;           /* TP_M_*, default TP_M_TIME; TP_NMETRIC + k: the profile's counter k
                           (text and folded views) */
  double min_percent;   /* default 0.5 */
  int per_thread;       /* default 0 */
  int raw_names;        /* 1: keep the compilers' names of outlined bodies (default 0: named
                           by construct and line, `omp parallel @ file.c:12`) */
  int fold_recursion;   /* 1: a function shows once per path (applied when the model is built) */
  int width;            /* text: line width, default 100 */
  int full_names;       /* text: never shorten names */
} tp_view_opts_t;
extern tp_view_opts_t tp_view_opts;

/* load.c: read the data files (a directory means every tomp-prof.*.dat in it); NULL with a
 * message on stderr if nothing could be read. */
tp_profile_t *tp_profile_load(char **paths, int npaths);
void tp_profile_free(tp_profile_t *p);

/* Views: each writes to `out` and returns 0, or -1 with a message on stderr. */
int tp_view_text(const tp_profile_t *p, FILE *out);              /* text.c */
int tp_export_folded(const tp_profile_t *p, FILE *out);          /* export-folded.c: time */
int tp_export_speedscope(const tp_profile_t *p, FILE *out);      /* export-speedscope.c */
int tp_export_pprof(const tp_profile_t *p, FILE *out);           /* export-pprof.c (gzip) */
int tp_export_chrome(const tp_profile_t *p, FILE *out);          /* export-chrome.c */
int tp_export_html(const tp_profile_t *p, FILE *out);            /* export-html.c */
/* export-otf2.c: an OTF2 archive (DIR/traces.otf2 + DIR/traces/) of the trace events; needs
 * libotf2 at build time (else a message and -1) */
int tp_export_otf2_dir(const tp_profile_t *p, const char *dir);

#endif
