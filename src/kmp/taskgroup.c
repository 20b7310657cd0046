/* taskgroup of LLVM's ABI.  The runtime combines the group's task reductions at its end
 * (taskred.c): clang registers them right after __kmpc_taskgroup and calls nothing else. */
#include "ktask.h"

TOMP_EXPORT void __kmpc_taskgroup(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskgroup_begin(thr);
}

TOMP_EXPORT void __kmpc_end_taskgroup(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_taskgroup_t *tg = thr->task->taskgroup;
  tomp_redset_t *r = tg ? tomp_kmp_taskred_own(tg) : NULL;
  const tomp_redset_t *stop = tg && tg->prev ? tg->prev->reductions : NULL;
  tomp_taskgroup_end(thr);
  if (r) tomp_kmp_taskred_finish(thr, r, stop);
}
