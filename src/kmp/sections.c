/* The sections entry points of newer LLVM runtimes (__kmpc_sections_init, __kmpc_next_section,
 * __kmpc_end_sections: LLVM 18 on; clang itself lowers sections to a static loop, other
 * compilers of the ABI call these).  A sections construct is core's sections construct, the
 * one gcc's GOMP_sections_* use: a dynamic loop over the section numbers, one per chunk.
 *
 * The compiler calls init, then next until it answers a number out of [0, n), then end; it
 * adds the closing barrier itself.  Only next knows n, so a thread enters the construct at its
 * first next.  Whether it is in the construct is core's state (the thread's current
 * worksharing descriptor), not a flag of the front-end's, so a section that runs a nested
 * parallel region with sections of its own on the same thread cannot confuse the two. */
#include "kmp.h"
#include "ws.h"

/* The construct the thread is in, if it is a sections construct. */
static bool in_sections(tomp_thread_t *thr) {
  const tomp_ws_t *d = thr->ws_cur;
  return d && d->kind == TOMP_WS_SECTIONS;
}

/* Always "active": the compiler then hands out the sections through next_section whatever the
 * team's size (a team of one takes them all), and tools see the construct in every case. */
TOMP_EXPORT kmp_int32 __kmpc_sections_init(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_ENTRY(tomp_thread());
  return 1;
}

TOMP_EXPORT kmp_int32 __kmpc_next_section(ident_t *loc, kmp_int32 gtid, kmp_int32 n) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  uint64_t lo, hi;
  bool got;
  if (in_sections(thr)) {
    got = tomp_loop_next(thr, &lo, &hi);
  } else {
    tomp_loop_args_t a = {0};
    a.n = n > 0 ? (uint64_t)n : 0;
    a.step = 1;
    a.endv = a.n;
    a.sched = TOMP_SCHED_DYNAMIC;
    a.chunk = 1;
    a.kind = TOMP_WS_SECTIONS;
    got = tomp_loop_start(thr, &a, &lo, &hi);
  }
  if (got) return (kmp_int32)lo;
  tomp_loop_end(thr, TOMP_END_NOWAIT); /* the compiler's barrier follows unless nowait */
  return n;
}

/* A thread that stopped asking before the sections ran out leaves here. */
TOMP_EXPORT void __kmpc_end_sections(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (in_sections(thr)) tomp_loop_end(thr, TOMP_END_NOWAIT);
}
