/* The scope construct.  gcc inlines a plain scope (privatisation, reductions, the closing
 * GOMP_barrier); it calls GOMP_scope_start only for reduction(task, ...).  After the body gcc
 * emits GOMP_barrier (every in_reduction task of the team is done), thread 0 combines the
 * private copies, and every thread calls GOMP_workshare_task_reduction_unregister(false),
 * which closes the implicit taskgroup, frees the storage and ends with the construct's
 * barrier.  (gcc refuses `nowait` together with the task modifier.) */
#include <stdlib.h>

#include "gomp.h"
#include "ws.h"

TOMP_EXPORT void GOMP_scope_start(uintptr_t *reductions) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!reductions) return;
  /* A worksharing-like region: the ring decides which thread allocates the private blocks;
   * the others share them.  Nobody needs the descriptor once the arrays are linked (the
   * storage's addresses live in each thread's own array), so every thread leaves it at
   * once, as single does; the closing barrier is the unregister call's. */
  bool first;
  tomp_ws_t *d = tomp_ws_enter(thr, &first);
  tomp_ws_share_args(thr, d, first, tomp_gomp_redset(reductions), NULL);
  if (first) tomp_ws_publish(d);
  tomp_ws_leave(thr);
}
