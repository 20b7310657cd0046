/* GOMP loop entry points for long iteration variables.  Thin: arguments are
 * normalised into a tomp_loop_args_t and the core (src/core/loop.c) does the rest. */
#include "loop.h"

static void space(tomp_loop_args_t *a, long start, long end, long incr) {
  a->n = tomp_trip_long(start, end, incr);
  a->base = (uint64_t)start;
  a->step = (uint64_t)incr;
  a->endv = (uint64_t)end;
}

static uint64_t chunk_of(long chunk) {
  return chunk > 0 ? (uint64_t)chunk : 0;
}

/* sched: GFS_* (0 = runtime), possibly with GFS_MONOTONIC; the TOMP_SCHED_* values match. */
static bool begin(tomp_thread_t *thr, long s, long e, long incr, long sched, uint64_t chunk,
                  bool ordered, long *istart, long *iend, uintptr_t *reductions, void **mem) {
  tomp_loop_args_t a = {0};
  space(&a, s, e, incr);
  a.sched = (int)(sched & ~(long)GFS_MONOTONIC);
  a.chunk = chunk;
  a.ordered = ordered;
  a.reductions = tomp_gomp_redset(reductions);
  a.mem = mem;
  return tomp_loop_start(thr, &a, (uint64_t *)istart, (uint64_t *)iend);
}

static bool begin_doacross(tomp_thread_t *thr, unsigned ncounts, long *counts, long sched,
                           uint64_t chunk, long *istart, long *iend, uintptr_t *reductions,
                           void **mem) {
  /* iteration counts are non-negative: the same bits as uint64_t */
  return tomp_loop_doacross_start(thr, ncounts, (const uint64_t *)counts,
                                  (int)(sched & ~(long)GFS_MONOTONIC), chunk, (uint64_t *)istart,
                                  (uint64_t *)iend, tomp_gomp_redset(reductions), mem);
}

TOMP_EXPORT bool GOMP_loop_static_start(long start, long end, long incr, long chunk, long *istart,
                                        long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_STATIC, chunk_of(chunk), false, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_dynamic_start(long start, long end, long incr, long chunk, long *istart,
                                         long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_DYNAMIC, chunk_of(chunk), false, istart, iend, NULL,
               NULL);
}

TOMP_EXPORT bool GOMP_loop_guided_start(long start, long end, long incr, long chunk, long *istart,
                                        long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_GUIDED, chunk_of(chunk), false, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_nonmonotonic_dynamic_start(long start, long end, long incr, long chunk,
                                                      long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_DYNAMIC | TOMP_LOOP_NONMONOTONIC, chunk_of(chunk), false,
               istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_nonmonotonic_guided_start(long start, long end, long incr, long chunk,
                                                     long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_GUIDED, chunk_of(chunk), false, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_runtime_start(long start, long end, long incr, long *istart,
                                         long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_RUNTIME, 0, false, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_nonmonotonic_runtime_start(long start, long end, long incr, long *istart,
                                                      long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_RUNTIME | TOMP_LOOP_NONMONOTONIC, 0, false, istart, iend,
               NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_start(long start, long end, long incr,
                                                            long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_RUNTIME | TOMP_LOOP_NONMONOTONIC, 0, false, istart, iend,
               NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk,
                                 long *istart, long *iend, uintptr_t *reductions, void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, sched, chunk_of(chunk), false, istart, iend, reductions, mem);
}

TOMP_EXPORT bool GOMP_loop_ordered_static_start(long start, long end, long incr, long chunk,
                                                long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_STATIC, chunk_of(chunk), true, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ordered_dynamic_start(long start, long end, long incr, long chunk,
                                                 long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_DYNAMIC, chunk_of(chunk), true, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ordered_guided_start(long start, long end, long incr, long chunk,
                                                long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_GUIDED, chunk_of(chunk), true, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long *istart,
                                                 long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, GFS_RUNTIME, 0, true, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_ordered_start(long start, long end, long incr, long sched, long chunk,
                                         long *istart, long *iend, uintptr_t *reductions,
                                         void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, start, end, incr, sched, chunk_of(chunk), true, istart, iend, reductions, mem);
}

TOMP_EXPORT bool GOMP_loop_doacross_static_start(unsigned ncounts, long *counts, long chunk,
                                                 long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_STATIC, chunk_of(chunk), istart, iend, NULL,
                        NULL);
}

TOMP_EXPORT bool GOMP_loop_doacross_dynamic_start(unsigned ncounts, long *counts, long chunk,
                                                  long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_DYNAMIC, chunk_of(chunk), istart, iend, NULL,
                        NULL);
}

TOMP_EXPORT bool GOMP_loop_doacross_guided_start(unsigned ncounts, long *counts, long chunk,
                                                 long *istart, long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_GUIDED, chunk_of(chunk), istart, iend, NULL,
                        NULL);
}

TOMP_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long *counts, long *istart,
                                                  long *iend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, GFS_RUNTIME, 0, istart, iend, NULL, NULL);
}

TOMP_EXPORT bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk,
                                          long *istart, long *iend, uintptr_t *reductions,
                                          void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin_doacross(thr, ncounts, counts, sched, chunk_of(chunk), istart, iend, reductions,
                        mem);
}

/* GOMP_loop_end* are split (TOMP_OBSERVED_PATH_THR): with a tool attached, or on a thread
 * tomp has not seen, this twin opens the entry guard.  The per-chunk entry points use
 * TOMP_LOOP_NEXT_ENTRY (loop.h); the ull ones share both. */
TOMP_OBSERVED_TWIN bool tomp_gomp_loop_end_observed(const void *ra, void *fp, int how) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  return tomp_loop_end(thr, how);
}

TOMP_EXPORT bool GOMP_loop_static_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_dynamic_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_guided_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_runtime_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_nonmonotonic_dynamic_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_nonmonotonic_guided_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_nonmonotonic_runtime_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ordered_static_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ordered_dynamic_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ordered_guided_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT bool GOMP_loop_ordered_runtime_next(long *istart, long *iend) {
  TOMP_LOOP_NEXT_ENTRY(istart, iend);
}

TOMP_EXPORT void GOMP_loop_end(void) {
  TOMP_OBSERVED_PATH_THR(thr, (void)tomp_gomp_loop_end_observed, TOMP_END_BARRIER);
  tomp_loop_end(thr, TOMP_END_BARRIER);
}

TOMP_EXPORT void GOMP_loop_end_nowait(void) {
  TOMP_OBSERVED_PATH_THR(thr, (void)tomp_gomp_loop_end_observed, TOMP_END_NOWAIT);
  tomp_loop_end(thr, TOMP_END_NOWAIT);
}

TOMP_EXPORT bool GOMP_loop_end_cancel(void) {
  TOMP_OBSERVED_PATH_THR(thr, tomp_gomp_loop_end_observed, TOMP_END_CANCEL);
  return tomp_loop_end(thr, TOMP_END_CANCEL);
}

/* ---- combined parallel loops --------------------------------------------------------- */

static void prep(tomp_team_t *team, void *arg) {
  tomp_loop_prep(team, arg);
}

static void fork_loop(tomp_thread_t *thr, void (*fn)(void *), void *data, unsigned nthreads, long s,
                      long e, long incr, long sched, long chunk, unsigned flags) {
  tomp_loop_args_t a = {0};
  space(&a, s, e, incr);
  a.sched = (int)(sched & ~(long)GFS_MONOTONIC);
  a.chunk = chunk_of(chunk);
  tomp_fork(fn, data, tomp_team_size(thr, nthreads, true), flags & GOMP_PARALLEL_BIND_MASK, prep,
            &a);
}

TOMP_EXPORT void GOMP_parallel_loop_static_start(void (*fn)(void *), void *data, unsigned nthreads,
                                                 long start, long end, long incr, long chunk) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_STATIC, chunk, 0);
}

TOMP_EXPORT void GOMP_parallel_loop_dynamic_start(void (*fn)(void *), void *data, unsigned nthreads,
                                                  long start, long end, long incr, long chunk) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_DYNAMIC, chunk, 0);
}

TOMP_EXPORT void GOMP_parallel_loop_guided_start(void (*fn)(void *), void *data, unsigned nthreads,
                                                 long start, long end, long incr, long chunk) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_GUIDED, chunk, 0);
}

TOMP_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data, unsigned nthreads,
                                                  long start, long end, long incr) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_RUNTIME, 0, 0);
}

TOMP_EXPORT void GOMP_parallel_loop_static(void (*fn)(void *), void *data, unsigned nthreads,
                                           long start, long end, long incr, long chunk,
                                           unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_STATIC, chunk, flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_dynamic(void (*fn)(void *), void *data, unsigned nthreads,
                                            long start, long end, long incr, long chunk,
                                            unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_DYNAMIC, chunk, flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_guided(void (*fn)(void *), void *data, unsigned nthreads,
                                           long start, long end, long incr, long chunk,
                                           unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_GUIDED, chunk, flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_dynamic(void (*fn)(void *), void *data,
                                                         unsigned nthreads, long start, long end,
                                                         long incr, long chunk, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_DYNAMIC | TOMP_LOOP_NONMONOTONIC, chunk,
            flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_guided(void (*fn)(void *), void *data,
                                                        unsigned nthreads, long start, long end,
                                                        long incr, long chunk, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_GUIDED, chunk, flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_runtime(void (*fn)(void *), void *data, unsigned nthreads,
                                            long start, long end, long incr, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_RUNTIME, 0, flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                         unsigned nthreads, long start, long end,
                                                         long incr, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_RUNTIME | TOMP_LOOP_NONMONOTONIC, 0,
            flags);
  fn(data);
  tomp_join();
}

TOMP_EXPORT void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                               unsigned nthreads, long start,
                                                               long end, long incr,
                                                               unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_loop(thr, fn, data, nthreads, start, end, incr, GFS_RUNTIME | TOMP_LOOP_NONMONOTONIC, 0,
            flags);
  fn(data);
  tomp_join();
}
