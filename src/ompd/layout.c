/* The exported layout a debugger's OMPD library reads (ompd_layout.h has the contract):
 * every offset filled from the core structure's own member, so the data cannot drift from
 * the code. */
#include <stddef.h>

#include "internal.h"
#include "ompd_layout.h"
#include "ompd_rt.h"
#include "runner.h"

/* structure name in the layout -> core type */
#define TOMP_OMPD_TYPE_thread tomp_thread_t
#define TOMP_OMPD_TYPE_team tomp_team_t
#define TOMP_OMPD_TYPE_task tomp_task_t
#define TOMP_OMPD_TYPE_icv tomp_icv_t
#define TOMP_OMPD_TYPE_global tomp_global_t
#define TOMP_OMPD_INIT_(s, f, t) .s##_##f = offsetof(TOMP_OMPD_TYPE_##s, f),

static const char version_string[] = "tomp (OpenMP 5.2 runtime; OMPD layout version 2)";

const tomp_ompd_layout_t tomp_ompd_layout = {.magic = TOMP_OMPD_MAGIC,
                                             .version = TOMP_OMPD_LAYOUT_VERSION,
                                             .layout_size = sizeof(tomp_ompd_layout_t),
                                             .pointer_size = sizeof(void *),
                                             .openmp_version = 202111,
                                             .version_string = (uintptr_t)version_string,
                                             .thread_table = (uintptr_t)&tomp_thread_table,
                                             .global = (uintptr_t)&tomp_g,
                                             .thread_size = sizeof(tomp_thread_t),
                                             .team_size = sizeof(tomp_team_t),
                                             .task_size = sizeof(tomp_task_t),
                                             .icv_size = sizeof(tomp_icv_t),
                                             .global_size = sizeof(tomp_global_t),
                                             TOMP_OMPD_ALL_FIELDS(TOMP_OMPD_INIT_)
                                                 .runners = (uintptr_t)__start_tomp_runners,
                                             .runners_end = (uintptr_t)__stop_tomp_runners,
                                             .runner_size = sizeof(tomp_runner_t),
                                             TOMP_OMPD_V2_FIELDS(TOMP_OMPD_INIT_)};

/* The flag bits the layout names are core's */
_Static_assert(TOMP_OMPD_TASK_INITIAL == TOMP_TASK_INITIAL &&
                   TOMP_OMPD_TASK_IMPLICIT == TOMP_TASK_IMPLICIT &&
                   TOMP_OMPD_TASK_EXPLICIT == TOMP_TASK_EXPLICIT &&
                   TOMP_OMPD_TASK_TARGET == TOMP_TASK_TARGET &&
                   TOMP_OMPD_TASK_OWN_REGION == TOMP_TASK_OWN_REGION &&
                   TOMP_OMPD_TASK_TINY == TOMP_TASK_TINY,
               "ompd_layout.h's task flags are taskdesc.h's");
_Static_assert(sizeof(tomp_runner_t) == 16 && offsetof(tomp_runner_t, entry_off) == 8,
               "the runner entries ompd_layout.h's version 2 describes");
_Static_assert(sizeof(pthread_t) == 8 && sizeof(ompt_data_t) == 8 && sizeof(ompt_frame_t) == 24,
               "the types ompd_layout.h's version 1 fixes");
