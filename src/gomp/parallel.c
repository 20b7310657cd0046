/* GOMP parallel-region entry points. */
#include "gomp.h"
#include "internal.h"

#define GOMP_BIND_MASK 7u

static TOMP_OBSERVED_TWIN void parallel_observed(const void *ra, void *fp, void (*fn)(void *),
                                          void *data, unsigned num_threads, unsigned flags) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  unsigned n = tomp_team_size(thr, num_threads, true);
  tomp_parallel(fn, data, n, flags & GOMP_BIND_MASK);
}

TOMP_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                               unsigned flags) {
  TOMP_OBSERVED_PATH(parallel_observed, fn, data, num_threads, flags);
  tomp_parallel_quiet(fn, data, num_threads, flags & GOMP_BIND_MASK);
}

/* GCC before 4.9: the caller runs fn itself between start and end. */
TOMP_EXPORT void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_listening()) thr->ev_fork_flags = ompt_parallel_invoker_program;
  tomp_fork(fn, data, tomp_team_size(thr, num_threads, true), 0, NULL, NULL);
  /* the program, not tomp, calls fn: no runtime frame separates it from the caller */
  if (tomp_listening()) thr->task->frame.exit_frame.ptr = NULL;
}

TOMP_EXPORT void GOMP_parallel_end(void) {
  TOMP_ENTRY(tomp_self);
  tomp_join();
}

/* With a tool attached (TOMP_OBSERVED_PATH): the entry guard, and a team-less barrier's events. */
static TOMP_OBSERVED_TWIN void barrier_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  if (!thr->team) {
    if (tomp_listening()) tomp_ev_serial_barrier_(thr, ompt_state_wait_barrier_explicit, thr->codeptr);
    return;
  }
  tomp_barrier_wait(thr, ompt_state_wait_barrier_explicit, false);
}

TOMP_EXPORT void GOMP_barrier(void) {
  TOMP_OBSERVED_PATH_THR(thr, barrier_observed);
  if (thr->team) tomp_barrier_wait_quiet(thr, ompt_state_wait_barrier_explicit, false);
}

/* A barrier in a region that may be cancelled: true if the region is (or becomes)
 * cancelled, in which case the caller jumps to the end of the region. */
TOMP_EXPORT bool GOMP_barrier_cancel(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!thr->team) return false;
  return tomp_barrier_wait(thr, ompt_state_wait_barrier_explicit, true);
}
