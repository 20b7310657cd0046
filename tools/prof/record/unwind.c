/* Call stacks with libgcc's DWARF unwinder (_Unwind_Backtrace): it needs no frame pointers,
 * so -O2 user code unwinds, and it steps through the signal trampoline (libgcc recognises the
 * kernel's sigreturn frame), so a walk started in the SIGPROF handler reaches the interrupted
 * code.  Each frame's CFA is kept: the report cuts stacks at the OMPT task frames with it. */
#include <unwind.h>

#include "rec.h"

typedef struct walk {
  tp_frame_t *out;
  uint32_t n, max;
  uint64_t stop_cfa; /* 0: none */
  uint64_t pc;       /* signal walk: frames before the one at this pc are the handler's */
  int skip;          /* frames still to skip (plain walk) */
  int found;
  int seen;          /* frames skipped looking for pc */
  int truncated;
} walk_t;

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg) {
  walk_t *w = arg;
  int before = 0;
  uint64_t ip = (uint64_t)_Unwind_GetIPInfo(ctx, &before);
  if (!ip) return _URC_END_OF_STACK;
  if (w->skip > 0) {
    w->skip--;
    return _URC_NO_REASON;
  }
  if (!w->found) {
    /* the handler's own frames and the trampoline: skip until the interrupted pc */
    if (ip != w->pc) return ++w->seen > 32 ? _URC_END_OF_STACK : _URC_NO_REASON;
    w->found = 1;
  }
  uint64_t cfa = (uint64_t)_Unwind_GetCFA(ctx);
  if (w->stop_cfa && cfa > w->stop_cfa) return _URC_END_OF_STACK;
  if (w->n >= w->max) {
    w->truncated = 1;
    return _URC_END_OF_STACK;
  }
  w->out[w->n].pc = ip;
  w->out[w->n].cfa = cfa;
  w->n++;
  return _URC_NO_REASON;
}

__attribute__((noinline)) uint32_t tp_unwind(tp_frame_t *out, uint32_t max, uint64_t stop_cfa,
                                             int *truncated) {
  walk_t w = {out, 0, max, stop_cfa, 0, 1, 1, 0, 0};
  _Unwind_Backtrace(step, &w);
  if (truncated) *truncated = w.truncated;
  return w.n;
}

uint32_t tp_unwind_sig(tp_frame_t *out, uint32_t max, uint64_t pc, int *exact, int *truncated) {
  walk_t w = {out, 0, max, 0, pc, 0, 0, 0, 0};
  _Unwind_Backtrace(step, &w);
  *truncated = w.truncated;
  if (!w.found || w.n == 0) {
    /* the unwinder could not get through the trampoline: keep at least the pc */
    out[0].pc = pc;
    out[0].cfa = 0;
    *exact = 1;
    return 1;
  }
  *exact = 1;
  return w.n;
}

void tp_unwind_warmup(void) {
  tp_frame_t f[4];
  tp_unwind(f, 4, 0, NULL);
}
