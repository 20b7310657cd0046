/* GOMP loop entry points for unsigned long long iteration variables.  Thin: arguments are
 * normalised into a tomp_loop_args_t and the core (src/core/loop.c) does the rest. */
#include "loop.h"

static void space(tomp_loop_args_t *a, bool up, gomp_ull start, gomp_ull end, gomp_ull incr) {
  a->n = tomp_trip_ull(up, start, end, incr);
  a->base = start;
  a->step = incr;
  a->endv = end;
}

static uint64_t chunk_of(gomp_ull chunk) {
  return chunk;
}

/* sched: GFS_* (0 = runtime), possibly with GFS_MONOTONIC; the TOMP_SCHED_* values match. */
static bool begin(tomp_thread_t *thr, bool up, gomp_ull s, gomp_ull e, gomp_ull incr, long sched,
                  uint64_t chunk, bool ordered, gomp_ull *istart, gomp_ull *iend,
                  uintptr_t *reductions, void **mem) {
  tomp_loop_args_t a = {0};
  space(&a, up, s, e, incr);
  a.sched = (int)(sched & ~(long)GFS_MONOTONIC);
  a.chunk = chunk;
  a.ordered = ordered;
  a.reductions = tomp_gomp_redset(reductions);
  a.mem = mem;
  return tomp_loop_start(thr, &a, (uint64_t *)istart, (uint64_t *)iend);
}

static bool begin_doacross(tomp_thread_t *thr, unsigned ncounts, gomp_ull *counts, long sched,
                           uint64_t chunk, gomp_ull *istart, gomp_ull *iend, uintptr_t *reductions,
                           void **mem) {
  /* iteration counts are non-negative: the same bits as uint64_t */
  return tomp_loop_doacross_start(thr, ncounts, (const uint64_t *)counts,
                                  (int)(sched & ~(long)GFS_MONOTONIC), chunk, (uint64_t *)istart,
                                  (uint64_t *)iend, tomp_gomp_redset(reductions), mem);
}

TOMP_EXPORT bool GOMP_loop_ull_static_start(bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
                                            gomp_ull chunk, gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_STATIC, chunk_of(chunk), false, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_dynamic_start(bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
                                             gomp_ull chunk, gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_DYNAMIC, chunk_of(chunk), false, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_guided_start(bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
                                            gomp_ull chunk, gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_GUIDED, chunk_of(chunk), false, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_dynamic_start(bool up, gomp_ull start, gomp_ull end,
                                                          gomp_ull incr, gomp_ull chunk,
                                                          gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_DYNAMIC | TOMP_LOOP_NONMONOTONIC, chunk_of(chunk),
               false, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_guided_start(bool up, gomp_ull start, gomp_ull end,
                                                         gomp_ull incr, gomp_ull chunk,
                                                         gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_GUIDED, chunk_of(chunk), false, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_runtime_start(bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
                                             gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_RUNTIME, 0, false, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_runtime_start(bool up, gomp_ull start, gomp_ull end,
                                                          gomp_ull incr, gomp_ull *istart,
                                                          gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_RUNTIME | TOMP_LOOP_NONMONOTONIC, 0, false, istart,
               iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start(bool up, gomp_ull start,
                                                                gomp_ull end, gomp_ull incr,
                                                                gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_RUNTIME | TOMP_LOOP_NONMONOTONIC, 0, false, istart,
               iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_start(bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
                                     long sched, gomp_ull chunk, gomp_ull *istart, gomp_ull *iend,
                                     uintptr_t *reductions, void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, sched, chunk_of(chunk), false, istart, iend, reductions,
               mem);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_static_start(bool up, gomp_ull start, gomp_ull end,
                                                    gomp_ull incr, gomp_ull chunk, gomp_ull *istart,
                                                    gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_STATIC, chunk_of(chunk), true, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_dynamic_start(bool up, gomp_ull start, gomp_ull end,
                                                     gomp_ull incr, gomp_ull chunk,
                                                     gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_DYNAMIC, chunk_of(chunk), true, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_guided_start(bool up, gomp_ull start, gomp_ull end,
                                                    gomp_ull incr, gomp_ull chunk, gomp_ull *istart,
                                                    gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_GUIDED, chunk_of(chunk), true, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_runtime_start(bool up, gomp_ull start, gomp_ull end,
                                                     gomp_ull incr, gomp_ull *istart,
                                                     gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, GFS_RUNTIME, 0, true, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_start(bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
                                             long sched, gomp_ull chunk, gomp_ull *istart,
                                             gomp_ull *iend, uintptr_t *reductions, void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, up, start, end, incr, sched, chunk_of(chunk), true, istart, iend, reductions,
               mem);
}

TOMP_EXPORT bool GOMP_loop_ull_doacross_static_start(unsigned ncounts, gomp_ull *counts,
                                                     gomp_ull chunk, gomp_ull *istart,
                                                     gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_STATIC, chunk_of(chunk), istart, iend, NULL,
                        NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_doacross_dynamic_start(unsigned ncounts, gomp_ull *counts,
                                                      gomp_ull chunk, gomp_ull *istart,
                                                      gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_DYNAMIC, chunk_of(chunk), istart, iend, NULL,
                        NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_doacross_guided_start(unsigned ncounts, gomp_ull *counts,
                                                     gomp_ull chunk, gomp_ull *istart,
                                                     gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_GUIDED, chunk_of(chunk), istart, iend, NULL,
                        NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, gomp_ull *counts,
                                                      gomp_ull *istart, gomp_ull *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_RUNTIME, 0, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ull_doacross_start(unsigned ncounts, gomp_ull *counts, long sched,
                                              gomp_ull chunk, gomp_ull *istart, gomp_ull *iend,
                                              uintptr_t *reductions, void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, sched, chunk_of(chunk), istart, iend, reductions,
                        mem);
}

TOMP_EXPORT bool GOMP_loop_ull_static_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_dynamic_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_guided_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_runtime_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_dynamic_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_guided_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_runtime_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_static_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_dynamic_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_guided_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ull_ordered_runtime_next(gomp_ull *istart, gomp_ull *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}
