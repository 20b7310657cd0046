/* The scope construct.  gcc inlines a plain scope (privatisation, reductions, the closing
 * GOMP_barrier); it calls GOMP_scope_start only for reduction(task, ...). */
#include <stdlib.h>

#include "gomp.h"

TOMP_EXPORT void GOMP_scope_start(uintptr_t *reductions) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!reductions) return;
  /* TODO(lead, worksharing + tasks): scope is a worksharing-like region; the first thread to
   * reach it must be found through the worksharing ring and then
   * tomp_ws_task_reduction_begin(thr, reductions, first) called.  Until that lands, task
   * reductions on scope are refused loudly rather than computed wrongly. */
  tomp_fatal("GOMP_scope_start: task reductions on scope are not implemented yet");
}
