/* Internal control variables (OpenMP 5.2 chapter 2.4): the data-environment ICVs every task
 * carries (tomp_icv_t) and the device- and global-scope settings read once from the
 * environment (tomp_g, env.c).  Included through internal.h. */
#ifndef TOMP_ICV_H
#define TOMP_ICV_H

#include <stddef.h>
#include <stdint.h>


typedef enum {
  TOMP_SCHED_STATIC = 1,
  TOMP_SCHED_DYNAMIC = 2,
  TOMP_SCHED_GUIDED = 3,
  TOMP_SCHED_AUTO = 4,
  /* libomp's own kinds, which OMP_SCHEDULE may name for clang code (tomp_g.run_sched_kmp
   * only: gcc code never reads them) */
  TOMP_SCHED_TRAPEZOIDAL = 5,
  TOMP_SCHED_STATIC_STEAL = 6,
  TOMP_SCHED_MONOTONIC = 0x80000000u
} tomp_sched_t;

typedef enum {
  TOMP_BIND_FALSE = 0,
  TOMP_BIND_TRUE = 1,
  TOMP_BIND_PRIMARY = 2,
  TOMP_BIND_CLOSE = 3,
  TOMP_BIND_SPREAD = 4
} tomp_bind_t;

/* Data-environment ICVs: copied into every task; a child inherits its parent's. */
typedef struct tomp_icv {
  unsigned nthreads;        /* nthreads-var for regions this task encounters */
  unsigned thread_limit;    /* thread-limit-var */
  unsigned max_active_levels;
  int run_sched;            /* run-sched-var kind (tomp_sched_t, may carry MONOTONIC) */
  int run_sched_chunk;
  int default_device;
  unsigned char dyn;        /* dyn-var */
  unsigned char bind;       /* bind-var for the next level (tomp_bind_t) */
  unsigned char nthreads_lvl; /* index into the OMP_NUM_THREADS list already consumed */
  unsigned char bind_lvl;     /* index into the OMP_PROC_BIND list already consumed */
  /* run-sched-var still holds its initial value (no omp_set_schedule in this data
   * environment or its ancestors).  The initial value is the implementation's choice, and
   * tomp makes the incumbent's for each ABI: run_sched/run_sched_chunk are what gcc code
   * reads (libgomp's), tomp_g.run_sched_kmp/_chunk what clang code reads (libomp's);
   * tomp_run_sched_kmp() picks.  docs/kmp-abi.md, "Schedules". */
  unsigned char run_sched_initial;
  uintptr_t def_allocator;  /* def-allocator-var; 0: OMP_ALLOCATOR or omp_default_mem_alloc */
  unsigned league_num;      /* team number in the enclosing teams region (omp_get_team_num) */
  unsigned league_size;     /* teams in that region; 0 outside any teams region */
} tomp_icv_t;

/* Device- and global-scope settings, read once from the environment (env.c). */
typedef struct tomp_global {
  tomp_icv_t icv;           /* initial task's ICVs */
  unsigned nthreads_list[16];
  unsigned nthreads_list_len;
  unsigned char bind_list[16];
  unsigned bind_list_len;
  size_t stacksize;         /* 0: default */
  int wait_policy;          /* -1 unset, 0 passive, 1 active */
  int cancellation;
  int max_task_priority;
  int display_affinity;
  int num_teams;            /* nteams-var, 0 unset */
  int teams_thread_limit;   /* teams-thread-limit-var, 0 unset */
  int target_offload;       /* target-offload-var: TOMP_OFFLOAD_* */
  char *affinity_format;
  int debug;                /* debug-var: OMP_DEBUG=enabled (OMPD, src/ompd) */
  int run_sched_kmp;        /* initial run-sched-var as libomp reads the environment */
  int run_sched_kmp_chunk;
  /* libomp's own settings (KMP_*, env_kmp.c; docs/kmp-abi.md, "libomp's environment
   * variables") */
  int kmp_blocktime;        /* ms kmp_get_blocktime answers (INT_MAX: infinite) */
  int kmp_library;          /* 1 serial, 2 turnaround, 3 throughput */
  int kmp_disp_num_buffers; /* KMP_DISP_NUM_BUFFERS (1..4096; no effect on tomp's loops) */
  int kmp_teams_thread_limit; /* KMP_TEAMS_THREAD_LIMIT, 0 unset: threads of a teams region */
  int kmp_deterministic_reduction; /* KMP_DETERMINISTIC_REDUCTION: clang reductions in order */
  int task_throttling; /* a creator whose deque is full runs the task (KMP_ENABLE_TASK_THROTTLING) */
  int kmp_teams_proc_bind; /* KMP_TEAMS_PROC_BIND: a host league's teams on places (TOMP_BIND_*) */
} tomp_global_t;

enum { TOMP_OFFLOAD_DEFAULT, TOMP_OFFLOAD_MANDATORY, TOMP_OFFLOAD_DISABLED };
/* OpenMP 5.2's omp_invalid_device, with libgomp's value (its omp.h from GCC 13 on). */
#define TOMP_INVALID_DEVICE (-4)

extern tomp_global_t tomp_g TOMP_HIDDEN;

/* run-sched-var as clang code (LLVM's ABI) reads it: libomp's initial value while the ICV
 * holds its initial one, else the value set. */
static inline void tomp_run_sched_kmp(const tomp_icv_t *icv, int *kind, int *chunk) {
  if (icv->run_sched_initial) {
    *kind = tomp_g.run_sched_kmp;
    *chunk = tomp_g.run_sched_kmp_chunk;
  } else {
    *kind = icv->run_sched;
    *chunk = icv->run_sched_chunk;
  }
}


#endif
