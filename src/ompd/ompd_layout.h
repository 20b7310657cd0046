/* What a debugger's OMPD library (tomp's: libtompd.so, tools/ompd/) needs to find tomp's
 * state in a process or a core file, exported as data so that it works on a stripped
 * libtomp and on core files without debug information.
 *
 * The contract.  libtomp exports two data symbols in its dynamic symbol table (version node
 * TOMP_DEBUG_1.0): `tomp_thread_table` (src/core/thread_table.h: every OpenMP thread) and
 * `tomp_ompd_layout`, a tomp_ompd_layout_t.  The layout starts with a magic number and a
 * layout version: a reader checks both and refuses (ompd_rc_incompatible) a runtime whose
 * version it does not know.  Then come the addresses of the global objects a reader needs
 * (the thread table, the global settings, the OMP_DEBUG word, the version string) and, for
 * every structure a reader walks (thread, team, task, ICVs, global settings), its size and
 * the byte offsets of the fields it reads.  The fields' types are fixed by the version (listed
 * below with each field); a change of a type, or of what a field means, is a new version.
 * Moving a field, or growing a structure, is not: readers take offsets and sizes from here.
 * This header is self-contained: the library includes it alone.
 *
 * Types (x86-64 LP64): u32 = uint32_t / unsigned, i32 = int, u8 = unsigned char,
 * u64 = uint64_t, ptr = a pointer (8 bytes), data = ompt_data_t (8 bytes),
 * frame = ompt_frame_t (omp-tools.h: exit, enter, exit flags, enter flags). */
#ifndef TOMP_OMPD_LAYOUT_H
#define TOMP_OMPD_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define TOMP_OMPD_MAGIC 0x64706d6f706d6f74ull /* "tompompd" in memory order */
#define TOMP_OMPD_LAYOUT_VERSION 2
/* Version 2 is version 1 with fields appended (runners, below): a reader of version 2 reads a
 * version 1 layout as one without runners; layout_size says which parts are there. */
#define TOMP_OMPD_LAYOUT_V1_SIZE offsetof(tomp_ompd_layout_t, runners)

/* task->flags bits (tomp_task_flags_t): the OMPT task type bits, plus tomp's own. */
#define TOMP_OMPD_TASK_INITIAL 0x1u
#define TOMP_OMPD_TASK_IMPLICIT 0x2u
#define TOMP_OMPD_TASK_EXPLICIT 0x4u
#define TOMP_OMPD_TASK_TARGET 0x8u
#define TOMP_OMPD_TASK_OWN_REGION 0x00100000u /* a league's or target region's initial task */
/* A task run by the no-tool tiny path (src/core/task.h): its fn and data are not its own
 * (the block's previous user's); it only runs while no observer listens. */
#define TOMP_OMPD_TASK_TINY 0x00200000u

/* X(structure, field, type): every offset of the layout.  The runtime fills each from
 * offsetof of the core member with the same name (src/ompd/layout.c). */
#define TOMP_OMPD_THREAD_FIELDS(X)                                                                 \
  X(thread, team, ptr)            /* innermost team, NULL outside regions */                       \
  X(thread, task, ptr)            /* the task it executes now; NULL for an idle worker */          \
  X(thread, tid, u32)             /* its number in team */                                         \
  X(thread, gtid, u32)            /* its entry in the thread table */                              \
  X(thread, state, i32)           /* ompt_state_t, always current */                               \
  X(thread, wait_id, u64)         /* while state is a wait: what it waits for */                   \
  X(thread, thread_data, data)    /* OMPT tool data */                                             \
  X(thread, ompt_type, i32)       /* ompt_thread_t */                                              \
  X(thread, fn, ptr)              /* a worker: the outlined body of its current region */          \
  X(thread, pthread, u64)         /* pthread_t */                                                  \
  X(thread, lwp, i32)             /* the kernel's thread id */                                     \
  X(thread, initial_task, task)   /* an initial thread's initial task (embedded) */                \
  X(thread, implicit_parallel_data, data) /* initial thread: its implicit parallel region's */ \
  /* while the thread is in an ompd_bp_* function: its current region / task there */          \
  X(thread, ompd_bp_team, ptr)                                                                     \
  X(thread, ompd_bp_task, ptr)
#define TOMP_OMPD_TEAM_FIELDS(X)                                                                   \
  X(team, nthreads, u32)                                                                           \
  X(team, level, u32)             /* nesting level, 1 = outermost parallel region */               \
  X(team, active_level, u32)      /* active regions enclosing it, itself included */               \
  X(team, parent, ptr)            /* the encountering thread's team; NULL: an initial task's */    \
  X(team, parent_tid, u32)        /* the encountering thread's number in parent */                 \
  X(team, threads, ptr)           /* nthreads thread pointers */                                   \
  X(team, implicit, ptr)          /* nthreads implicit tasks, task_size bytes apart */             \
  X(team, parallel_data, data)                                                                     \
  X(team, fn, ptr)                /* the region's outlined body (set while OMPD listens) */        \
  X(team, ompd_id, u64)           /* region instance, set while OMPD listens (0: unknown) */
#define TOMP_OMPD_TASK_FIELDS(X)                                                                   \
  X(task, parent, ptr)            /* generating task */                                            \
  X(task, team, ptr)              /* team it binds to */                                           \
  X(task, icv, icv)               /* its data environment (embedded tomp_icv_t) */                 \
  X(task, flags, u32)             /* TOMP_OMPD_TASK_* and the OMPT type bits */                    \
  X(task, thread_num, u32)        /* implicit: its thread's number */                              \
  X(task, frame, frame)                                                                            \
  X(task, task_data, data)                                                                         \
  X(task, sched_parent, ptr)      /* running explicit task: the task it suspended */               \
  X(task, fn, ptr)                /* explicit: the outlined body */                                \
  X(task, data, ptr)              /* explicit: its argument block */                               \
  X(task, in_final, i32)
#define TOMP_OMPD_ICV_FIELDS(X)                                                                    \
  X(icv, nthreads, u32)                                                                            \
  X(icv, thread_limit, u32)                                                                        \
  X(icv, max_active_levels, u32)                                                                   \
  X(icv, run_sched, i32)          /* 1 static, 2 dynamic, 3 guided, 4 auto; | 0x80000000 monotonic */ \
  X(icv, run_sched_chunk, i32)                                                                     \
  X(icv, default_device, i32)                                                                      \
  X(icv, dyn, u8)                                                                                  \
  X(icv, bind, u8)                /* 0 false, 1 true, 2 primary, 3 close, 4 spread */              \
  X(icv, nthreads_lvl, u8)        /* entries of global nthreads_list already used */               \
  X(icv, bind_lvl, u8)            /* entries of global bind_list already used */                   \
  X(icv, def_allocator, u64)      /* 0: the default allocator */                                   \
  X(icv, league_num, u32)                                                                          \
  X(icv, league_size, u32)
#define TOMP_OMPD_GLOBAL_FIELDS(X)                                                                 \
  X(global, icv, icv)             /* the initial task's ICVs */                                    \
  X(global, nthreads_list, u32)   /* u32[16] */                                                    \
  X(global, nthreads_list_len, u32)                                                                \
  X(global, bind_list, u8)        /* u8[16] */                                                     \
  X(global, bind_list_len, u32)                                                                    \
  X(global, stacksize, u64)                                                                        \
  X(global, wait_policy, i32)     /* -1 unset, 0 passive, 1 active */                              \
  X(global, cancellation, i32)                                                                     \
  X(global, max_task_priority, i32)                                                                \
  X(global, display_affinity, i32)                                                                 \
  X(global, num_teams, i32)                                                                        \
  X(global, teams_thread_limit, i32)                                                               \
  X(global, target_offload, i32)  /* 0 default, 1 mandatory, 2 disabled */                         \
  X(global, affinity_format, ptr) /* char * */                                                     \
  X(global, debug, i32)           /* debug-var: 1 when OMP_DEBUG=enabled */

#define TOMP_OMPD_ALL_FIELDS(X)                                                                    \
  TOMP_OMPD_THREAD_FIELDS(X)                                                                       \
  TOMP_OMPD_TEAM_FIELDS(X) TOMP_OMPD_TASK_FIELDS(X) TOMP_OMPD_ICV_FIELDS(X)                        \
      TOMP_OMPD_GLOBAL_FIELDS(X)
/* Version 2: the argument of a region's function, for runners (below) */
#define TOMP_OMPD_V2_FIELDS(X)                                                                     \
  X(thread, fn_data, ptr)         /* a worker: the argument of fn */                               \
  X(team, fn_data, ptr)           /* the argument of fn (set with it) */

typedef struct tomp_ompd_layout {
  uint64_t magic;         /* TOMP_OMPD_MAGIC */
  uint32_t version;       /* TOMP_OMPD_LAYOUT_VERSION */
  uint32_t layout_size;   /* sizeof(tomp_ompd_layout_t) */
  uint32_t pointer_size;  /* 8 */
  uint32_t openmp_version; /* the _OPENMP value tomp implements (202111) */
  uint64_t version_string; /* address of a NUL-terminated description of the runtime */
  uint64_t thread_table;   /* address of tomp_thread_table */
  uint64_t global;         /* address of the global settings */
  /* sizes of the structures */
  uint32_t thread_size, team_size, task_size, icv_size, global_size, pad_;
#define TOMP_OMPD_OFF_FIELD_(s, f, t) uint32_t s##_##f;
  TOMP_OMPD_ALL_FIELDS(TOMP_OMPD_OFF_FIELD_)
  /* ---- version 2 ---- */
  /* Runners (src/core/runner.h): functions of a front-end that core records as a region's or
   * a task's function (thread fn, team fn, task fn) but that only call the compiler's
   * outlined function, whose address is the pointer at data + entry_off (data: thread
   * fn_data, team fn_data, task data, with the function read).  [runners, runners_end) is an
   * array of runner_size-byte entries: u64 function address, u64 entry_off. */
  uint64_t runners, runners_end;
  uint32_t runner_size, pad2_;
  TOMP_OMPD_V2_FIELDS(TOMP_OMPD_OFF_FIELD_)
#undef TOMP_OMPD_OFF_FIELD_
} tomp_ompd_layout_t;

#endif
