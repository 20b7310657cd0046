/* --trace: OMPT events as TP_REC_EVENT records, appended from the callbacks to the same
 * per-thread buffers as the samples (so each thread's events and samples stay in order). */
#include "rec.h"

void tp_trace_event(tp_thread_t *t, unsigned kind, unsigned phase, uint64_t id,
                    uint64_t context, const void *codeptr_ra, uint64_t arg) {
  if (!t || atomic_load_explicit(&tp_g.paused, memory_order_relaxed)) return;
  tp_event_t e = {{TP_REC_EVENT, sizeof e}, t->index, (uint16_t)kind, (uint16_t)phase,
                  tp_now_ns(), id, context, (uint64_t)(uintptr_t)codeptr_ra, arg};
  tp_buf_put(t, &e, sizeof e);
}
