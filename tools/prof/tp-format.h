/* tomp-prof data files: what the recording tool (libtomp-prof.so) writes and the report
 * program reads.  One file per process: DIR/tomp-prof.<pid>.dat, or
 * DIR/tomp-prof.r<rank>.<pid>.dat when the environment names an MPI rank
 * (OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, MV2_COMM_WORLD_RANK, SLURM_PROCID: first found).
 *
 * The file is a sequence of records in host byte order (x86-64 little endian), each starting
 * with tp_rec_t and padded to a multiple of 8 bytes; `size` counts the whole record including
 * header and padding, so a reader skips record types it does not know.  The first record is
 * TP_REC_HEADER.  Records of different threads interleave in any order (each thread writes
 * whole chunks); within one thread, records are in time order.
 *
 * Identifiers
 *  - thread: the tool's index of an OpenMP thread in this process, 0 = the initial thread,
 *    assigned at thread_begin (TP_REC_THREAD).
 *  - path id ("context"): an interned creation context.  A context is where a parallel region
 *    or an explicit task was created: the creating task's own context (parent) plus the user
 *    frames of the creator's stack between the creation call and the creating task's body
 *    entry (TP_REC_CONTEXT).  Context 0 is the root: the initial task, whose stack needs no
 *    prefix.  Two creations with the same parent and the same frames share one id, so the
 *    number of contexts is bounded by the program's distinct call paths, not its task count.
 *  - region instance id: unique per parallel region instance in the process (non-zero).
 *
 * The user-model stack of a sample (what the report shows) is
 *     stack(context of the sample's task) + the sample's own frames cut to its task's body,
 * where stack(c) = stack(parent of c) + frames of c, recursively up to context 0.
 * Cutting uses the task's OMPT frame (exit_frame: the runtime frame that called the task
 * body; enter_frame: the runtime frame the task body called into, 0 while the body runs)
 * and each frame's CFA; where those are missing the report falls back to module ranges
 * (frames inside the OpenMP runtime and the tool are not user frames). */
#ifndef TP_FORMAT_H
#define TP_FORMAT_H

#include <stdint.h>

#define TP_MAGIC "TOMPPROF" /* 8 bytes, no NUL, at the start of TP_REC_HEADER */
#define TP_VERSION 2 /* 2: sample interval and CPU time, acquire site in blame, lost_ns */

typedef struct tp_rec {
  uint32_t type; /* TP_REC_* */
  uint32_t size; /* bytes including this header and padding; multiple of 8 */
} tp_rec_t;

enum {
  TP_REC_HEADER = 1,
  TP_REC_THREAD = 2,
  TP_REC_SAMPLE = 3,
  TP_REC_CONTEXT = 4,
  TP_REC_BLAME = 5,
  TP_REC_REGION = 6,
  TP_REC_EVENT = 7,
  TP_REC_MAPS = 8,
  TP_REC_END = 9,
  TP_REC_COUNTERS = 10,
};

/* One stack frame as unwound: pc is the interrupted instruction for the first frame of a
 * sample (TP_SAMPLE_LEAF_EXACT) and a return address otherwise (symbolize pc - 1).  cfa is
 * the frame's canonical frame address (0 if unknown). */
typedef struct tp_frame {
  uint64_t pc;
  uint64_t cfa;
} tp_frame_t;

typedef struct tp_header {
  tp_rec_t h;
  char magic[8];         /* TP_MAGIC */
  uint32_t version;      /* TP_VERSION */
  uint32_t sample_hz;    /* requested sampling rate per thread */
  int64_t pid;
  int32_t rank;          /* MPI rank, -1 if none */
  uint32_t flags;        /* TP_HDR_* */
  uint64_t start_ns;     /* CLOCK_MONOTONIC when the tool initialised */
  uint64_t start_realtime_ns;
  char runtime[64];      /* runtime_version passed to ompt_start_tool, NUL-terminated */
  /* followed by the command line: argv strings, each NUL-terminated, then padding */
} tp_header_t;
enum { TP_HDR_TRACE = 1 };

typedef struct tp_thread_rec {
  tp_rec_t h;
  uint32_t thread;       /* tool thread index */
  uint32_t kind;         /* ompt_thread_t */
  int64_t tid;           /* OS thread id */
  uint64_t begin_ns;
} tp_thread_rec_t;

/* A sample: one timer expiry on one thread.  It stands for interval_ns of the thread's wall
 * time: the time since the thread's previous expiry (or since its timer was armed).  That is
 * one period normally, more when expiries were merged (timer overruns: the thread was not
 * running when its timer fired, e.g. on a loaded machine) or the signal came late; an
 * expiry whose sample could not be written is counted in the END record's lost_ns instead.
 * So a thread's samples add up to its sampled wall time.  interval_ns 0: unknown (weight
 * 1 / sample_hz). */
typedef struct tp_sample {
  tp_rec_t h;
  uint32_t thread;
  uint32_t state;        /* ompt_state_t from ompt_get_state */
  uint64_t ts_ns;        /* CLOCK_MONOTONIC */
  uint64_t wait_id;      /* from ompt_get_state */
  uint64_t context;      /* path id of the current task's creation (0 = initial task) */
  uint64_t region;       /* region instance id of the innermost parallel region, 0 if none */
  uint64_t region_context; /* path id of that region's creation */
  uint32_t team_size;    /* threads in that region */
  uint32_t team_waiting; /* of which, at this moment, waiting in one of its barriers */
  uint64_t exit_frame;   /* current task's ompt_frame_t (0 if unknown) */
  uint64_t enter_frame;
  uint32_t frame_flags;  /* exit flags in the low 16 bits, enter flags in the high 16 */
  uint32_t flags;        /* TP_SAMPLE_* */
  uint32_t nframes;
  uint32_t ncounters;    /* hardware/software counter values after the frames (see below) */
  uint64_t interval_ns;  /* wall time this sample stands for (see above); when sampling on a
                            counter's overflow (TP_REC_COUNTERS sample_on), the thread's CPU
                            time since its previous sample */
  uint64_t cpu_ns;       /* the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over that
                            interval; TP_CPU_UNKNOWN if it could not be read */
  tp_frame_t frames[];   /* leaf first; then ncounters uint64_t: each counter's events on
                            this thread over the interval (TP_REC_COUNTERS names them, in
                            order), TP_CTR_UNKNOWN if it could not be read */
} tp_sample_t;
#define TP_CPU_UNKNOWN UINT64_MAX
#define TP_CTR_UNKNOWN UINT64_MAX
#define TP_MAX_COUNTERS 4
/* The counter values of a sample (after its frames). */
#define TP_SAMPLE_COUNTERS(s) ((const uint64_t *)((s)->frames + (s)->nframes))
enum {
  TP_SAMPLE_LEAF_EXACT = 1, /* frames[0].pc is the interrupted pc, not a return address */
  TP_SAMPLE_TRUNCATED = 2,  /* the unwind stopped at the frame limit */
  TP_SAMPLE_PAUSED = 4,     /* unused: paused samples are not written */
};

/* An interned creation context (parallel region or explicit task). */
typedef struct tp_context {
  tp_rec_t h;
  uint64_t id;           /* non-zero */
  uint64_t parent;       /* context of the creating task (0 = initial task) */
  uint32_t kind;         /* TP_CTX_* */
  uint32_t thread;       /* thread that first created it */
  uint64_t codeptr_ra;   /* the runtime call's return address in user code, 0 if none */
  uint64_t exit_frame;   /* the creating task's ompt_frame_t at creation */
  uint64_t enter_frame;
  uint32_t frame_flags;
  uint32_t nframes;
  tp_frame_t frames[];   /* creator's stack at creation, leaf first (uncut: includes the
                            tool's and runtime's frames; the report cuts them) */
} tp_context_t;
enum { TP_CTX_PARALLEL = 1, TP_CTX_TASK = 2 };

/* Directed blame: `samples` samples (worth wait_ns of their threads' time) were taken while
 * threads waited for wait_id; the holder released it with this stack (taken in the release
 * callback).  acq_codeptr and acq_enter say where the holder acquired it (the runtime call's
 * return address and the holder's OMPT enter frame then, flags in acq_flags): when the
 * release stack is shallower than the acquire's and lacks the acquiring function (the holder
 * released through a tail call: `set; work; unset;` at -O2), the report puts the acquiring
 * function back on the path. */
typedef struct tp_blame {
  tp_rec_t h;
  uint32_t thread;       /* the releasing thread */
  uint32_t kind;         /* ompt_mutex_t of the release */
  uint64_t ts_ns;
  uint64_t wait_id;
  uint64_t samples;
  uint64_t context;      /* the releasing task's context */
  uint64_t exit_frame;
  uint64_t enter_frame;
  uint32_t frame_flags;
  uint32_t nframes;
  uint64_t wait_ns;      /* the waiting samples' intervals summed */
  uint64_t acq_codeptr;  /* 0 if unknown */
  uint64_t acq_enter;
  uint32_t acq_flags;    /* enter flags of acq_enter */
  uint32_t pad;
  tp_frame_t frames[];   /* leaf first, uncut */
} tp_blame_t;

/* Per-region-context totals, written at the end: instances and their wall time. */
typedef struct tp_region_rec {
  tp_rec_t h;
  uint64_t context;      /* path id of the region's creation */
  uint64_t instances;
  uint64_t wall_ns;      /* sum over instances of parallel_end - parallel_begin */
  uint32_t max_team;
  uint32_t pad;
} tp_region_rec_t;

/* --trace: one OMPT event, a begin, an end or an instant on one thread. */
typedef struct tp_event {
  tp_rec_t h;
  uint32_t thread;
  uint16_t kind;         /* TP_EV_* */
  uint16_t phase;        /* TP_PH_* */
  uint64_t ts_ns;
  uint64_t id;           /* region instance, task id, wait id (per kind) */
  uint64_t context;      /* path id where meaningful, else 0 */
  uint64_t codeptr_ra;
  uint64_t arg;          /* kind-specific: team size, barrier kind (ompt_sync_region_t),
                            mutex kind (ompt_mutex_t), ... */
} tp_event_t;
enum {
  TP_EV_PARALLEL = 1,    /* on the encountering thread */
  TP_EV_IMPLICIT_TASK,
  TP_EV_TASK,            /* an explicit task running on this thread (begin at switch-in;
                            id = its task_data address, reused after it completes; arg =
                            ompt_task_status_t at the end: complete, yield, switch...) */
  TP_EV_SYNC_WAIT,       /* barrier / taskwait / taskgroup wait; arg = ompt_sync_region_t */
  TP_EV_MUTEX_WAIT,      /* acquire .. acquired; arg = ompt_mutex_t; id = wait_id */
  TP_EV_MUTEX_HELD,      /* acquired .. released */
  TP_EV_WORK,            /* worksharing construct; arg = ompt_work_t */
  TP_EV_IDLE,            /* a worker outside any region (between implicit tasks) */
  TP_EV_TASK_CREATE,     /* instant on the creating thread: id = the new task (as TP_EV_TASK's
                            id), context = its context, arg = the creating explicit task's id
                            (0: an implicit or initial task) */
};
enum { TP_PH_BEGIN = 1, TP_PH_END = 2, TP_PH_INSTANT = 3 };

/* The text of /proc/self/maps at the end of recording (the report's address→module map). */
typedef struct tp_maps {
  tp_rec_t h;
  uint64_t len;          /* bytes of text that follow */
  char text[];
} tp_maps_t;

/* Hardware and software counters (perf_event_open, per thread, user space only), written
 * after the header when counters or sampling on a counter were asked for: which counters
 * each sample carries, whether samples come from a counter's overflow instead of the timer,
 * and why anything asked for is missing (the kernel refused: perf_event_paranoid, a
 * container's seccomp filter, a virtual machine without a PMU...). */
typedef struct tp_counters_rec {
  tp_rec_t h;
  uint32_t n;            /* counters per sample, 0..TP_MAX_COUNTERS */
  uint32_t sample_on;    /* 1: a sample every sample_period events of sample_name on each
                            thread (its overflow), not the timer */
  uint64_t sample_period;
  char names[TP_MAX_COUNTERS][32]; /* perf event names (cycles, instructions, task-clock...) */
  char sample_name[32];
  char note[256];        /* what was asked for and is missing, and why; "" if nothing */
} tp_counters_rec_t;

/* Last record of a complete file. */
typedef struct tp_end {
  tp_rec_t h;
  uint64_t end_ns;
  uint64_t samples;      /* written */
  uint64_t lost;         /* samples dropped (buffer full, unwinding failed, ...) */
  uint64_t threads;
  uint64_t sample_ns;    /* total time spent in the sampling handler (cost; 0 if unknown) */
  uint64_t contexts;     /* contexts interned */
  uint64_t lost_ns;      /* thread time of the lost samples' intervals: not sampled */
} tp_end_t;

#endif
