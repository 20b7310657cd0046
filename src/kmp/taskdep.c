/* Dependences of LLVM's ABI: kmp_depend_info arrays (kmp.h) translated into core's
 * (tomp_depend_t, OpenMP's kinds).  The noalias lists carry no ordering (clang passes none;
 * libomp ignores them too).
 *
 * omp_all_memory comes as the flag 0x80 (address 0, no in/out bits from clang) or, as libomp
 * also takes it, as the address (intptr_t)-1, which no object has, with out or in|out: core's
 * all-memory kind (src/core/taskdep.c).  Reported as out_all_memory whatever the in/out bits,
 * as libomp 19 does (LLVM 19's ompt/tasks/omp_task_depend_all wants it for in|out on -1):
 * tools are tested against libomp, and the ordering is the same. */
#include <stdlib.h>

#include "ktask.h"

#define STACK_DEPS 16

/* core's kind of a kmp_depend_info */
static int dep_kind(const kmp_depend_info_t *dep) {
  uint8_t f = dep->flags;
  if ((f & KMP_DEP_ALL) || dep->base_addr == (intptr_t)-1) return TOMP_DEP_OUT_ALL;
  if (f & KMP_DEP_MTX) return TOMP_DEP_MUTEXINOUTSET;
  if (f & KMP_DEP_SET) return TOMP_DEP_INOUTSET;
  if ((f & (KMP_DEP_IN | KMP_DEP_OUT)) == KMP_DEP_IN) return TOMP_DEP_IN;
  if ((f & (KMP_DEP_IN | KMP_DEP_OUT)) == KMP_DEP_OUT) return TOMP_DEP_OUT;
  return TOMP_DEP_INOUT; /* in|out; clang's `out` is this too */
}

/* Translate n entries into buf (or a heap array the caller frees, *out != buf).  Returns
 * the count. */
static size_t translate(const kmp_depend_info_t *in, kmp_int32 n, tomp_depend_t *buf,
                        tomp_depend_t **out) {
  size_t m = n > 0 ? (size_t)n : 0;
  tomp_depend_t *d = m <= STACK_DEPS ? buf : tomp_malloc(m * sizeof *d);
  for (size_t i = 0; i < m; i++) {
    d[i].addr = (void *)in[i].base_addr;
    d[i].kind = dep_kind(&in[i]);
  }
  *out = d;
  return m;
}

TOMP_EXPORT kmp_int32 __kmpc_omp_task_with_deps(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task,
                                                kmp_int32 ndeps, kmp_depend_info_t *dep_list,
                                                kmp_int32 ndeps_noalias,
                                                kmp_depend_info_t *noalias_dep_list) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_depend_t buf[STACK_DEPS], *d;
  size_t n = translate(dep_list, dep_list ? ndeps : 0, buf, &d);
  /* Dependences that are met already (every earlier sibling has completed) matter to nobody
   * if the task runs at once: it completes before a later sibling exists.  So a staged task
   * (no tool) that may run at once does, skipping the table, as GOMP_task's does (core's
   * tomp_task_deps_met).  Decided here once: the queue-length test could change its answer. */
  if (tomp_kmp_thdr(new_task)->staged && tomp_task_runs_at_once(thr, 0) &&
      tomp_task_deps_met(thr) && tomp_kmp_stage_submit(thr, new_task, true)) {
    if (d != buf) free(d);
    return 0;
  }
  tomp_kmp_task_submit(thr, new_task, d, n);
  if (d != buf) free(d);
  return 0;
}

static void wait_deps(tomp_thread_t *thr, kmp_int32 ndeps, kmp_depend_info_t *dep_list) {
  tomp_depend_t buf[STACK_DEPS], *d;
  size_t n = translate(dep_list, dep_list ? ndeps : 0, buf, &d);
  tomp_taskwait_deps(thr, d, n);
  if (d != buf) free(d);
}

/* an if(0) task's dependences (before __kmpc_omp_task_begin_if0), and clang 14's
 * `taskwait depend(...)` */
TOMP_EXPORT void __kmpc_omp_wait_deps(ident_t *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                      kmp_depend_info_t *dep_list, kmp_int32 ndeps_noalias,
                                      kmp_depend_info_t *noalias_dep_list) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  wait_deps(thr, ndeps, dep_list);
}

/* `taskwait depend(...) [nowait]` of newer clangs.  With nowait the construct is an empty
 * task with those dependences (OpenMP 5.2, 15.5); waiting for them instead is a stricter
 * order of the same siblings, so the same wait serves both. */
TOMP_EXPORT void __kmpc_omp_taskwait_deps_51(ident_t *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                             kmp_depend_info_t *dep_list, kmp_int32 ndeps_noalias,
                                             kmp_depend_info_t *noalias_dep_list,
                                             kmp_int32 has_no_wait) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  wait_deps(thr, ndeps, dep_list);
}
