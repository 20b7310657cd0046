/* The task descriptor every layer sees: tomp_task_t, implicit or explicit, with its ICVs,
 * its OMPT frame record and tool data (kept for the task's whole life, so observers never
 * invent state after the fact), and the initial tasks of leagues and target regions.  The
 * tasking machinery behind explicit tasks is task.h's.  Included through internal.h. */
#ifndef TOMP_TASKDESC_H
#define TOMP_TASKDESC_H

/* Declared here, defined in team.h and thread.h (a repeated typedef is C11) */
typedef struct tomp_team tomp_team_t;
typedef struct tomp_thread tomp_thread_t;
struct tomp_taskgroup;

typedef enum {
  TOMP_TASK_INITIAL = 1,
  TOMP_TASK_IMPLICIT = 2,
  TOMP_TASK_EXPLICIT = 4,
  TOMP_TASK_TARGET = 8,
  TOMP_TASK_UNDEFERRED = 0x08000000,
  TOMP_TASK_UNTIED = 0x10000000,
  TOMP_TASK_FINAL = 0x20000000,
  TOMP_TASK_MERGEABLE = 0x40000000,
  TOMP_TASK_MERGED = 0x80000000u
} tomp_task_flags_t;

typedef struct tomp_task {
  struct tomp_task *parent;
  struct tomp_team *team;        /* team the task is bound to */
  tomp_icv_t icv;
  unsigned flags;                /* tomp_task_flags_t; also the OMPT task type bits */
  unsigned thread_num;           /* implicit tasks: the thread's number in the team */
  /* OMPT: frame record and tool data live for the task's whole life.  These and the children
   * count are what a thread writes in its implicit task for every task it creates and waits
   * for (the frame at each entry point while a tool listens): they stay in the middle of the
   * descriptor, off the lines it shares with its neighbours (see below). */
  ompt_frame_t frame;
  ompt_data_t task_data;
  uint32_t children;             /* incomplete child tasks (taskwait) */
  uint32_t taskwait_word;        /* futex word bumped when children drops to 0 */
  /* OMPT, explicit tasks while they run: the task the executing thread suspended to run this
   * one.  ompt_get_task_info's ancestors are the tasks with frames on the current thread's
   * stack, so above a task that another thread created (stolen, or run in a barrier or a
   * taskwait) comes the suspended task, not the generating one. */
  struct tomp_task *sched_parent;
  /* Explicit-task machinery (task.c); zero for implicit tasks (their children count and
   * taskwait word are above, off the lines neighbouring tasks share) */
  void (*fn)(void *);
  void *data;
  struct tomp_taskgroup *taskgroup; /* innermost taskgroup the task is in */
  void *ext;                     /* task.c private: dependences, queue links, etc. */
  int priority;
  int in_final;                  /* final-task-var / included in a final task */
  /* thread-limit-var counts per contention group (team.c) */
  uint32_t cg_busy;              /* initial tasks: workers their contention group has in teams */
} tomp_task_t;

/* A team's implicit tasks are one array (team.c), cache-line aligned, whose stride is not a
 * multiple of a line: each task's first and last bytes share lines with its neighbours'.
 * Fields written for every explicit task must not lie there, or two threads that each create
 * and wait for their own tasks move a line between them at every task (ompbench's taskwait
 * with a tool attached, where every task is deferred; libomp keeps its tasks' counters on
 * lines of their own).  The test, for a task starting at any multiple of 8 bytes past a line:
 * the field's first line starts at or after the task, its last line ends before the next. */
#define TOMP_TASK_OFF_SHARED_LINE_AT_(f, r)                                                        \
  (((r) + offsetof(tomp_task_t, f)) / 64 * 64 >= (r) &&                                        \
   ((r) + offsetof(tomp_task_t, f) + sizeof(((tomp_task_t *)0)->f) - 1) / 64 * 64 + 64 <=      \
       (r) + sizeof(tomp_task_t))
#define TOMP_TASK_OFF_SHARED_LINE_(f)                                                              \
  (TOMP_TASK_OFF_SHARED_LINE_AT_(f, 0) && TOMP_TASK_OFF_SHARED_LINE_AT_(f, 8) &&                \
   TOMP_TASK_OFF_SHARED_LINE_AT_(f, 16) && TOMP_TASK_OFF_SHARED_LINE_AT_(f, 24) &&              \
   TOMP_TASK_OFF_SHARED_LINE_AT_(f, 32) && TOMP_TASK_OFF_SHARED_LINE_AT_(f, 40) &&              \
   TOMP_TASK_OFF_SHARED_LINE_AT_(f, 48) && TOMP_TASK_OFF_SHARED_LINE_AT_(f, 56))
_Static_assert(TOMP_TASK_OFF_SHARED_LINE_(frame) && TOMP_TASK_OFF_SHARED_LINE_(task_data) &&
                   TOMP_TASK_OFF_SHARED_LINE_(children) &&
                   TOMP_TASK_OFF_SHARED_LINE_(taskwait_word),
               "tomp_task_t: per-task fields on a line shared with the neighbouring task");


/* An initial task that is not an initial thread's own (a host teams region's
 * teams, a host target region): it carries the implicit parallel region (league) it binds
 * to, for ompt_get_parallel_info / get_task_info.  The flag bit is not an OMPT task flag. */
#define TOMP_TASK_OWN_REGION 0x00100000u
/* A task the no-tool tiny path runs (task.h: tomp_task_tiny): it leaves fn and data as the
 * block's previous user left them, and this bit tells a debugger so. */
#define TOMP_TASK_TINY 0x00200000u
/* An explicit task that activated or detected the cancellation of its taskgroup or region
 * (set while a tool listens): it leaves its region there, and its end's task-schedule status
 * is ompt_task_cancel rather than complete (task.c). */
#define TOMP_TASK_CANCELLED_END 0x00400000u
typedef struct tomp_region_task {
  tomp_task_t task; /* first */
  ompt_data_t parallel_data;
  unsigned size;    /* league size (1 for a target region) */
} tomp_region_task_t;

#endif
