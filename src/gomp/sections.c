/* GOMP sections: a dynamic loop over section numbers 1..count, one section per chunk. */
#include "gomp.h"
#include "ws.h"

static void sections_args(tomp_loop_args_t *a, unsigned count) {
  a->n = count;
  a->base = 1;
  a->step = 1;
  a->endv = (uint64_t)count + 1;
  a->sched = TOMP_SCHED_DYNAMIC;
  a->chunk = 1;
  a->kind = TOMP_WS_SECTIONS;
}

static unsigned begin(tomp_thread_t *thr, unsigned count, struct tomp_redset *reductions,
                      void **mem) {
  tomp_loop_args_t a = {0};
  sections_args(&a, count);
  a.reductions = reductions;
  a.mem = mem;
  uint64_t lo, hi;
  return tomp_loop_start(thr, &a, &lo, &hi) ? (unsigned)lo : 0;
}

TOMP_EXPORT unsigned GOMP_sections_start(unsigned count) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, count, NULL, NULL);
}

TOMP_EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return begin(thr, count, tomp_gomp_redset(reductions), mem);
}

TOMP_EXPORT unsigned GOMP_sections_next(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  uint64_t lo, hi;
  return tomp_loop_next(thr, &lo, &hi) ? (unsigned)lo : 0;
}

TOMP_EXPORT void GOMP_sections_end(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_loop_end(thr, TOMP_END_BARRIER);
}

TOMP_EXPORT void GOMP_sections_end_nowait(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_loop_end(thr, TOMP_END_NOWAIT);
}

TOMP_EXPORT bool GOMP_sections_end_cancel(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return tomp_loop_end(thr, TOMP_END_CANCEL);
}

static void prep(tomp_team_t *team, void *arg) {
  tomp_loop_prep(team, arg);
}

static void fork_sections(tomp_thread_t *thr, void (*fn)(void *), void *data, unsigned nthreads,
                          unsigned count, unsigned flags) {
  tomp_loop_args_t a = {0};
  sections_args(&a, count);
  tomp_fork(fn, data, tomp_team_size(thr, nthreads, true), flags & GOMP_PARALLEL_BIND_MASK, prep,
            &a);
}

/* GCC before 4.9: the caller runs fn and then GOMP_parallel_end. */
TOMP_EXPORT void GOMP_parallel_sections_start(void (*fn)(void *), void *data, unsigned nthreads,
                                              unsigned count) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_sections(thr, fn, data, nthreads, count, 0);
}

TOMP_EXPORT void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned nthreads,
                                        unsigned count, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  fork_sections(thr, fn, data, nthreads, count, flags);
  fn(data);
  tomp_join();
}
