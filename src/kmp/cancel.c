/* Cancellation of LLVM's ABI: cancel, cancellation point and the cancellable barrier clang
 * emits where a region may be cancelled.  Each answers 1 when the construct is cancelled (the
 * compiled code then branches to its end). */
#include "ktask.h"

/* clang's cncl_kind: 1 parallel, 2 loop, 3 sections, 4 taskgroup */
static int kind_of(kmp_int32 k) {
  switch (k) {
  case 2:
  case 3:
    return TOMP_CK_WS;
  case 4:
    return TOMP_CK_TASKGROUP;
  default:
    return TOMP_CK_PARALLEL;
  }
}

TOMP_EXPORT kmp_int32 __kmpc_cancel(ident_t *loc, kmp_int32 gtid, kmp_int32 cncl_kind) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (cncl_kind < 1 || cncl_kind > 4) {
    tomp_warn("__kmpc_cancel: unknown construct kind %d; ignored", (int)cncl_kind);
    return 0;
  }
  return tomp_cancel_activate(thr, kind_of(cncl_kind));
}

TOMP_EXPORT kmp_int32 __kmpc_cancellationpoint(ident_t *loc, kmp_int32 gtid, kmp_int32 cncl_kind) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (cncl_kind < 1 || cncl_kind > 4) return 0;
  return tomp_cancel_point(thr, kind_of(cncl_kind));
}

TOMP_EXPORT kmp_int32 __kmpc_cancel_barrier(ident_t *loc, kmp_int32 gtid) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!thr->team) return 0;
  int kind = loc && (loc->flags & KMP_IDENT_BARRIER_IMPL)
                 ? ompt_state_wait_barrier_implicit_workshare
                 : ompt_state_wait_barrier_explicit;
  return tomp_barrier_wait(thr, kind, true);
}
