/* The ABI-neutral core of tomp: what every file of core, src/api, the front-ends and the
 * observers includes.  One header per concern, in dependency order: icv.h (ICVs and global
 * settings), taskdesc.h (the task descriptor), team.h (teams, barrier, fork/join), thread.h
 * (threads, the thread table, the pool, entering regions and tasks), event.h (the event
 * layer); here, start-up, messages and affinity.  docs/architecture.md describes the layers.
 * Front-ends (src/gomp, later src/kmp) translate their ABI onto the functions declared in
 * these headers. */
#ifndef TOMP_INTERNAL_H
#define TOMP_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "omp-tools.h"
#include "sync.h"
#include "thread_table.h"

#define TOMP_HIDDEN __attribute__((visibility("hidden")))
#define TOMP_EXPORT __attribute__((visibility("default")))

#include "icv.h"
#include "taskdesc.h"
#include "team.h"
#include "thread.h"

/* ---- Start-up, messages, affinity --------------------------------------------------------- */

void tomp_init(void) TOMP_HIDDEN;        /* idempotent; the library constructor calls it */
void tomp_env_init(void) TOMP_HIDDEN;    /* env.c: parse OMP_* into tomp_g */
/* display.c: whether fmt is a valid OMP_AFFINITY_FORMAT (env.c checks the variable) */
bool tomp_affinity_format_valid(const char *fmt) TOMP_HIDDEN;

/* Messages: one line on stderr, prefixed "tomp: ". */
void tomp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2))) TOMP_HIDDEN;
/* A warning in libomp's form ("OMP: Warning #number: ..."), for a process whose OpenMP code is
 * all clang's where its users look for that form (abi.h; LLVM's env/omp_alloc_env_invalid.c);
 * number is libomp's message number for the same complaint. */
void tomp_warn_llvm(int number, const char *fmt, ...) __attribute__((format(printf, 2, 3))) TOMP_HIDDEN;
/* An informational line: libomp's form ("OMP: Info #number: ...") for a clang-only process,
 * else "tomp: ..." (KMP_AFFINITY=verbose).  Not silenced by KMP_WARNINGS. */
void tomp_inform(int number, const char *fmt, ...) __attribute__((format(printf, 2, 3))) TOMP_HIDDEN;
/* KMP_WARNINGS=false, kmp_set_warnings_off(): tomp_warn and tomp_warn_llvm print nothing */
extern bool tomp_warnings_off TOMP_HIDDEN;
_Noreturn void tomp_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2))) TOMP_HIDDEN;
void *tomp_malloc(size_t n) TOMP_HIDDEN;     /* aborts with a message if memory is gone */
/* error.c: the error directive at(execution): msg (NULL: none; len (size_t)-1: NUL-terminated)
 * on stderr and to tools; severity(fatal) ends the program. */
void tomp_error_directive(tomp_thread_t *thr, bool fatal, const char *msg, size_t len) TOMP_HIDDEN;
/* The same with libomp's text (clang-built code): where is the construct's location */
void tomp_error_directive_at(tomp_thread_t *thr, bool fatal, const char *msg, size_t len,
                             const char *where) TOMP_HIDDEN;
void *tomp_calloc(size_t n, size_t sz) TOMP_HIDDEN;

/* Affinity (affinity.c) */
void tomp_affinity_init(void) TOMP_HIDDEN;
void tomp_bind_thread(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) TOMP_HIDDEN;
/* env/affinity: the master fixes the team's placement before any worker starts (then every
 * thread, master included, calls tomp_bind_thread after entering the team); the place a
 * new initial thread records (the main thread's start-up binding, else -1); hard pause. */
void tomp_affinity_team(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) TOMP_HIDDEN;
int tomp_affinity_initial_place(void) TOMP_HIDDEN;

#include "event.h"

#endif
