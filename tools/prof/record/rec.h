/* libtomp-prof.so internals: what each module of the recording tool promises the others.
 * The tool sees the runtime only through standard OMPT entry points (it runs on tomp and on
 * LLVM's libomp alike).  Code marked "signal-safe" may run inside the SIGPROF handler: it
 * takes no lock, allocates nothing and makes no system call other than clock_gettime
 * (CLOCK_MONOTONIC through the vDSO; the thread's CPU clock, a real system call, only where the
 * kernel gives no context-switch records: cputime.c) and sem_post. */
#ifndef TP_REC_H
#define TP_REC_H

#include <omp-tools.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "tp-format.h"

#define TP_HIDDEN __attribute__((visibility("hidden")))
#define TP_MAX_FRAMES 128
#define TP_CHUNK_SIZE (256u * 1024u)
#define TP_NCHUNKS 3 /* per thread: one being filled, two spares */
#define TP_SAMPLE_MAX \
  (sizeof(tp_sample_t) + TP_MAX_FRAMES * sizeof(tp_frame_t) + TP_MAX_COUNTERS * sizeof(uint64_t))
#define TP_HIST 200
#define TP_HIST_NS 50
#define TP_PCMEMO 64

/* ---- configuration and global switches (tool.c) ---- */
typedef struct tp_config {
  char dir[4096];
  unsigned hz;
  int trace;
  int stats; /* TOMP_PROF_STATS=1: print the measured costs at the end */
  int cpu;   /* TOMP_PROF_CPU: CPU time per sample (TP_CPU_SWITCHES, default), 0: none */
} tp_config_t;

enum { TP_CPU_SWITCHES = 1, TP_CPU_CLOCK = 2 }; /* tp_config_t.cpu: how (cputime.c) */
/* tp_thread_t.sw_state: none; asked of the writer; being opened by it; the handler reads the
 * records; stopped (the thread ended or went over to the clock) */
enum { SW_NONE, SW_WANTED, SW_OPENING, SW_READY, SW_STOPPED };

typedef struct tp_global {
  tp_config_t cfg;
  _Atomic int paused;   /* omp_control_tool pause: no samples, no events */
  _Atomic int stopped;  /* finalized, ended, or a forked child: nothing more is recorded */
  uint64_t start_ns;
  int64_t pid;
  _Atomic uint64_t create_ns, creates; /* TOMP_PROF_STATS: time in task_create/parallel_begin */
  _Atomic uint32_t create_hist[TP_HIST]; /* TOMP_PROF_STATS: task_create times (TP_HIST_NS) */
  _Atomic uint64_t memo_hits;           /* TOMP_PROF_STATS: creations found in the memo */
  /* OMPT entry points (NULL when the runtime lacks one) */
  ompt_get_state_t get_state;
  ompt_get_task_info_t get_task_info;
  ompt_get_parallel_info_t get_parallel_info;
  ompt_get_thread_data_t get_thread_data;
} tp_global_t;
extern tp_global_t tp_g TP_HIDDEN;

/* ---- per-thread buffers (buffer.c) ---- */
enum { TP_CHUNK_FREE = 0, TP_CHUNK_ACTIVE = 1, TP_CHUNK_FULL = 2 };
typedef struct tp_chunk {
  _Atomic int state;
  uint32_t used;
  uint64_t seq;          /* fill order within the thread: full chunks are written in it */
  char *data;
} tp_chunk_t;

/* Directed blame (blame.c): one inbox per mutex the thread holds; other threads' handlers
 * add their waiting samples to it. */
#define TP_HELD 4
typedef struct tp_held {
  uint64_t id;              /* wait id of the held mutex, 0 = free (owner thread only) */
  _Atomic uint64_t count;   /* samples of threads waiting for it */
  _Atomic uint64_t ns;      /* their intervals summed */
  uint64_t acq_codeptr;     /* where the owner acquired it (owner thread only) */
  uint64_t acq_enter;
  uint32_t acq_flags;
} tp_held_t;

typedef struct tp_thread {
  uint32_t index;        /* tool thread index (0 = initial thread) */
  uint32_t kind;         /* ompt_thread_t */
  int64_t tid;
  tp_chunk_t chunks[TP_NCHUNKS];
  tp_chunk_t *cur;       /* chunk being filled (NULL: none free) */
  uint64_t next_seq;
  /* A record written from a callback can be interrupted by a sample on the same thread: the
   * handler then parks its sample in `pending` and the callback appends it when done. */
  _Atomic int in_write;
  _Atomic int pending;
  _Atomic int in_handler;
  _Atomic int closed;    /* thread ended: its chunks were written and freed */
  uint64_t samples, lost; /* written by the handler only */
  uint64_t lost_ns;         /* intervals of the lost samples */
  uint64_t last_ns;         /* the previous timer expiry (or arming): start of the next interval */
  uint64_t last_cpu_ns;     /* the thread's CPU clock then (when it is read per sample) */
  /* cputime.c: the ring buffer of this thread's context-switch records (NULL: none) */
  void *sw_page;
  size_t sw_len;
  const char *sw_data;
  uint64_t sw_mask, sw_tail;
  uint64_t sw_out_ns;       /* switched out then, not yet back in (sw_out) */
  int sw_out;
  _Atomic int sw_state;     /* SW_*: who may touch the buffer */
  int sw_fresh;             /* READY, but the handler has not started from the records yet */
  int sw_used;              /* the records served this thread (TOMP_PROF_STATS) */
  int sw_dropped;           /* ... until it switched too often: the clock serves it now */
  uint32_t sw_win_samples, sw_win_switches; /* switches in the current window of samples */
  uint64_t lost_parked;     /* of lost: a parked sample was already waiting */
  uint64_t parked_samples;  /* parked samples appended later (callback side only) */
  uint64_t handler_ns;   /* time spent in the handler, for the cost report */
  uint32_t cost_hist[TP_HIST]; /* handler times in TP_HIST_NS buckets (last: longer) */
  /* TOMP_PROF_STATS: the handler's time on the thread CPU clock (not inflated by preemption:
   * from the handler's own clock read to a second read at its end) */
  uint32_t cpu_hist[TP_HIST];
  uint64_t cpu_samples;
  /* TOMP_PROF_STATS: handler times (wall clock) of the samples during which the thread was
   * not switched out (its context-switch records say so): the handler's own cost */
  uint32_t run_hist[TP_HIST];
  uint64_t run_samples;
  int sw_took; /* the last tp_cpu_take read the records up to their head */
  uint64_t stack_lo, stack_hi; /* the thread's stack (0: unknown): bounds for fast unwinding */
  /* counters.c: perf_event_open descriptors of this thread (-1: none) */
  int ctr_fd[TP_MAX_COUNTERS];
  int ctr_group;            /* ctr_fd[0] leads a group holding all of them: one read */
  _Atomic int ctr_ok;       /* the descriptors may be read (cleared before they close) */
  uint64_t ctr_last[TP_MAX_COUNTERS]; /* the previous reading (scaled) */
  int overflow_fd;          /* sampling on a counter's overflow (-1: the timer samples) */
  uint64_t unwinds;      /* walks so far: every 64th is a reference walk (unwind.c) */
  uint64_t pcmemo[TP_PCMEMO]; /* unwind.c: frame sizes of the pcs of its recent stacks */
  timer_t timer;
  _Atomic int timer_ok;
  /* barrier-wait accounting: the region whose waiting counter this thread raised */
  struct tp_region *wait_region;
  uint32_t wait_gen;
  int wait_suspended;       /* in that barrier, but running an explicit task: not counted */
  struct tp_region *free_regions; /* region structs released by this thread */
  void *memo;              /* contexts.c: recently interned creation paths */
  uint32_t implicit_depth; /* --trace: implicit tasks running on this thread */
  int idle;                /* --trace: a worker between implicit tasks */
  _Atomic uint64_t wanted;  /* blame.c: the wait id announced at mutex_acquire, 0 = none */
  tp_held_t held[TP_HELD];  /* blame.c: inboxes of the mutexes it holds */
  struct tp_thread *next_all;
  _Alignas(16) char pending_buf[TP_SAMPLE_MAX];
} tp_thread_t;

/* initial-exec: the handler must not reach __tls_get_addr (it can allocate). */
extern __thread tp_thread_t *tp_self TP_HIDDEN __attribute__((tls_model("initial-exec")));

TP_HIDDEN int tp_buf_open(const char *runtime); /* open the file, write the header */
TP_HIDDEN tp_thread_t *tp_thread_new(uint32_t kind); /* calling thread; chunks allocated */
TP_HIDDEN void tp_thread_close(tp_thread_t *t);  /* write out and free its chunks */
/* Append a whole record (callback context, not signal-safe). */
TP_HIDDEN void tp_buf_put(tp_thread_t *t, const void *rec, uint32_t size);
/* Signal-safe: space for up to `max` bytes in the thread's current chunk (switching to a
 * spare if needed), NULL if none; commit with the size actually used. */
TP_HIDDEN void *tp_buf_reserve_sig(tp_thread_t *t, uint32_t max);
TP_HIDDEN void tp_buf_commit_sig(tp_thread_t *t, uint32_t size);
TP_HIDDEN void tp_buf_flush_self(tp_thread_t *t); /* write own full and partial chunks now */
TP_HIDDEN void tp_buf_flush_full(void);         /* write every thread's full chunks */
TP_HIDDEN void tp_buf_write_direct(const void *rec, uint32_t size); /* straight to the file */
TP_HIDDEN void tp_buf_finish(void);             /* close all threads, MAPS, REGION, END */
TP_HIDDEN void tp_buf_forked_child(void);       /* drop everything without writing */
TP_HIDDEN void tp_buf_start_writer(void);       /* the first call starts it */
TP_HIDDEN void tp_buf_wake_writer(void);        /* signal-safe */
TP_HIDDEN uint64_t tp_now_ns(void);             /* signal-safe CLOCK_MONOTONIC */

/* ---- the thread's CPU time per sample (cputime.c) ---- */
/* Signal-safe: the calling thread's CPU clock (a system call), TP_CPU_UNKNOWN if unreadable
 * or not asked for. */
TP_HIDDEN uint64_t tp_cpu_ns(void);
/* The calling thread's CPU time from now on (before its first sample): its clock, and its
 * context-switch records asked of the writer thread. */
TP_HIDDEN void tp_cpu_start(tp_thread_t *t);
/* The writer thread: opens t's records if t asked for them. */
TP_HIDDEN void tp_cpu_open_for(tp_thread_t *t);
TP_HIDDEN void tp_cpu_stop(tp_thread_t *t);
/* Signal-safe, on t's own thread: its CPU time over [from, now] (CLOCK_MONOTONIC; from = the
 * end of the previous call's interval), TP_CPU_UNKNOWN if it cannot be known. */
TP_HIDDEN uint64_t tp_cpu_take(tp_thread_t *t, uint64_t from, uint64_t now);
/* Since the last tp_cpu_take: 1 the thread was switched out, 0 it was not, -1 unknown (its
 * CPU time does not come from context-switch records). */
TP_HIDDEN int tp_cpu_switched(const tp_thread_t *t);

/* ---- hardware and software counters (counters.c) ---- */
/* Reads TOMP_PROF_COUNTERS ("cycles,instructions,...") and TOMP_PROF_SAMPLE_ON ("EVENT:N");
 * bad values get a message and are ignored. */
TP_HIDDEN void tp_counters_config(void);
/* At initialize, on the initial thread: opens each counter once, drops (with one message on
 * stderr) what the kernel refuses, and writes TP_REC_COUNTERS when anything was asked for. */
TP_HIDDEN void tp_counters_probe(void);
TP_HIDDEN unsigned tp_counters_n(void);         /* counters per sample */
TP_HIDDEN int tp_counters_sampling(void);       /* samples come from a counter's overflow */
TP_HIDDEN void tp_counters_open(tp_thread_t *t); /* the calling thread's counters */
TP_HIDDEN void tp_counters_close(tp_thread_t *t);
/* Signal-safe (read(2) on the thread's own descriptors): the events since the previous
 * reading into out[tp_counters_n()], TP_CTR_UNKNOWN where unreadable. */
TP_HIDDEN void tp_counters_read(tp_thread_t *t, uint64_t *out);
/* The calling thread's overflow sampling: SIGPROF every period events; 0, or -1 (the caller
 * arms the timer instead). */
TP_HIDDEN int tp_counters_arm_overflow(tp_thread_t *t);
TP_HIDDEN void tp_counters_disarm_overflow(tp_thread_t *t);
/* Why perf_event_open failed with errno err for event `name`, in words a user can act on. */
TP_HIDDEN const char *tp_counters_explain(int err, const char *name, char *buf, size_t n);

/* ---- sampling (sampler.c) ---- */
/* The current task as the handler and the callbacks see it. */
typedef struct tp_taskinfo {
  uint64_t context;      /* 0 = initial task */
  uint64_t exit_frame, enter_frame;
  uint32_t frame_flags;  /* exit flags low 16 bits, enter flags high 16 */
  ompt_data_t *parallel; /* the task's binding region (NULL if unknown) */
} tp_taskinfo_t;
TP_HIDDEN void tp_task_now(tp_taskinfo_t *ti); /* signal-safe */
TP_HIDDEN uint32_t tp_frame_flags(const ompt_frame_t *f);
TP_HIDDEN void tp_sampler_install(void);        /* SIGPROF handler, once */
TP_HIDDEN void tp_sampler_arm(tp_thread_t *t);  /* per-thread timer for the calling thread */
TP_HIDDEN void tp_sampler_disarm(tp_thread_t *t);
TP_HIDDEN void tp_sampler_quiesce(tp_thread_t *t); /* wait until no handler/write runs on t */

/* ---- unwinding (unwind.c) ---- */
/* Frames of the calling thread, leaf first, starting at the caller of tp_unwind; stops after
 * a frame whose CFA exceeds `stop_cfa` (0: no limit) or at `max`.  Returns the count; sets
 * *truncated when the limit cut the walk. */
TP_HIDDEN uint32_t tp_unwind(tp_frame_t *out, uint32_t max, uint64_t stop_cfa, int *truncated);
/* Signal-safe: frames of the interrupted code (pc and sp from the ucontext), leaf first.
 * *exact is set when frames[0] is the interrupted pc. */
TP_HIDDEN uint32_t tp_unwind_sig(tp_thread_t *t, tp_frame_t *out, uint32_t max, uint64_t pc,
                                 uint64_t sp, int *exact, int *truncated);
TP_HIDDEN void tp_unwind_warmup(void);

/* ---- regions and contexts (contexts.c) ---- */
typedef struct tp_region {
  uint64_t instance;     /* region instance id */
  uint64_t context;
  struct tp_ctx *ctx;
  uint32_t team_size;
  _Atomic uint64_t waiting; /* generation << 32 | threads in one of its barriers */
  _Atomic int live;         /* between parallel_begin and parallel_end */
  uint64_t begin_ns;
  struct tp_region *next_free;
} tp_region_t;

TP_HIDDEN uint64_t tp_ctx_intern(tp_thread_t *t, uint32_t kind, uint64_t parent,
                                 const ompt_frame_t *frame, const void *codeptr_ra,
                                 struct tp_ctx **node);
TP_HIDDEN tp_region_t *tp_region_get(tp_thread_t *t); /* a zeroed region struct */
TP_HIDDEN void tp_region_put(tp_thread_t *t, tp_region_t *r);
TP_HIDDEN void tp_region_done(tp_region_t *r, uint64_t end_ns); /* add to its context's totals */
TP_HIDDEN void tp_ctx_write_regions(void);    /* TP_REC_REGION for each parallel context */
TP_HIDDEN void tp_region_wait_begin(tp_thread_t *t, tp_region_t *r);
TP_HIDDEN void tp_region_wait_end(tp_thread_t *t);
/* A thread that runs an explicit task inside a barrier is working, not waiting: task_schedule
 * suspends its count while an explicit task runs and resumes it when its implicit task does. */
TP_HIDDEN void tp_region_wait_suspend(tp_thread_t *t);
TP_HIDDEN void tp_region_wait_resume(tp_thread_t *t);
TP_HIDDEN uint32_t tp_region_waiting(const tp_region_t *r); /* signal-safe */
TP_HIDDEN uint64_t tp_ctx_count(void);

/* ---- directed blame (blame.c) ---- */
/* From the mutex callbacks of thread t (wait ids as the callbacks give them). */
TP_HIDDEN void tp_blame_acquire(tp_thread_t *t, uint64_t wait_id);
/* Whether t holds the mutex wait_id (a nest lock its task re-acquires). */
TP_HIDDEN bool tp_blame_holds(const tp_thread_t *t, uint64_t wait_id);
TP_HIDDEN void tp_blame_acquired(tp_thread_t *t, uint64_t wait_id, const void *codeptr_ra);
TP_HIDDEN void tp_blame_release(tp_thread_t *t, int kind, uint64_t wait_id);
/* Signal-safe: a sample of t in a mutex wait state (state_wait_id: ompt_get_state's). */
TP_HIDDEN void tp_blame_sample(tp_thread_t *t, uint64_t state_wait_id, uint64_t interval_ns);

/* Explicit tasks keep (context id | TP_TASK_EXPLICIT) in their task_data; implicit and
 * initial tasks keep their region's context id (0 for initial tasks). */
#define TP_TASK_EXPLICIT (1ull << 63)

/* ---- trace events (trace.c) ---- */
TP_HIDDEN void tp_trace_event(tp_thread_t *t, unsigned kind, unsigned phase, uint64_t id,
                              uint64_t context, const void *codeptr_ra, uint64_t arg);

#endif
