/* `cancel sections`: the thread that cancels and every thread that then reaches a
 * cancellation point go to the end of the construct, so the sections they had not started
 * are skipped; the region goes on and the next constructs run whole.  OpenMP 5.2 (sec. 16.1,
 * cancel): cancel "causes the encountering implicit or explicit task to proceed to the end
 * of the canceled construct"; other tasks act on the cancellation at cancellation points
 * (sec. 16.2).
 *
 * 8 sections, 3 threads.  Section 0 cancels; every other section waits until the OMPT cancel
 * callback reported the activation (flags sections|activated), marks itself started, reaches
 * `cancellation point sections` and must not get past it.  So each thread starts exactly one
 * section (it gets one whether sections are handed out one by one, as gcc's code asks for
 * them, or split in blocks beforehand, as clang's static loop does), none runs past its
 * cancellation point, the canceller starts no other, and the tool sees one activation and
 * one detection per other thread, each naming sections, not a loop.  Before tomp's LLVM
 * front-end told core which construct a static loop is (tomp_ws_static_begin), the clang
 * copy reported a loop and hung here.
 * test-env: OMP_CANCELLATION=true
 * test-cflags: -rdynamic
 * test-repeat: 3
 * test-no-libgomp: the ordering comes from an OMPT callback; libgomp has no OMPT
 */
#include <omp-tools.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>

#include "check.h"

#define NSEC 8
#define NTHR 3

static int activated, detected, wrong_kind, inited;
static int started[NSEC], passed[NSEC], by_thread[NTHR], after[NTHR];
static int second_ran[NSEC], loop_ran[64];

static void on_cancel(ompt_data_t *task, int flags, const void *ra) {
  (void)task, (void)ra;
  if (!(flags & ompt_cancel_sections)) {
    __atomic_fetch_add(&wrong_kind, 1, __ATOMIC_RELAXED);
    return;
  }
  if (flags & ompt_cancel_activated) __atomic_fetch_add(&activated, 1, __ATOMIC_RELEASE);
  if (flags & ompt_cancel_detected) __atomic_fetch_add(&detected, 1, __ATOMIC_RELAXED);
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  inited = set(ompt_callback_cancel, (ompt_callback_t)on_cancel) == ompt_set_always;
  return 1;
}
#include "ompt_tool.h"

/* a section other than the first: wait for the cancellation, then meet it (a macro: a
 * cancellation point must be lexically inside its construct) */
#define WAITING_SECTION(s)                                                                         \
  do {                                                                                             \
    while (!__atomic_load_n(&activated, __ATOMIC_ACQUIRE))                                         \
      sched_yield();                                                                               \
    __atomic_store_n(&started[s], 1, __ATOMIC_RELAXED);                                            \
    __atomic_fetch_add(&by_thread[omp_get_thread_num()], 1, __ATOMIC_RELAXED);                     \
    _Pragma("omp cancellation point sections");                                                    \
    __atomic_store_n(&passed[s], 1, __ATOMIC_RELAXED);                                             \
  } while (0)

int main(void) {
  CHECK(omp_get_cancellation());
  CHECK(inited);
  int team = 0;
#pragma omp parallel num_threads(NTHR)
  {
#pragma omp single
    team = omp_get_num_threads();
#pragma omp sections
    {
#pragma omp section
      {
        __atomic_store_n(&started[0], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&by_thread[omp_get_thread_num()], 1, __ATOMIC_RELAXED);
#pragma omp cancel sections
        __atomic_store_n(&passed[0], 1, __ATOMIC_RELAXED);
      }
#pragma omp section
      WAITING_SECTION(1);
#pragma omp section
      WAITING_SECTION(2);
#pragma omp section
      WAITING_SECTION(3);
#pragma omp section
      WAITING_SECTION(4);
#pragma omp section
      WAITING_SECTION(5);
#pragma omp section
      WAITING_SECTION(6);
#pragma omp section
      WAITING_SECTION(7);
    }
    after[omp_get_thread_num()] = 1;
    /* the cancellation ended with its construct: the next ones run whole */
#pragma omp sections
    {
#pragma omp section
      __atomic_fetch_add(&second_ran[0], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[1], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[2], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[3], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[4], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[5], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[6], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&second_ran[7], 1, __ATOMIC_RELAXED);
    }
#pragma omp for
    for (int i = 0; i < 64; i++)
      __atomic_fetch_add(&loop_ran[i], 1, __ATOMIC_RELAXED);
  }
  CHECK(team == NTHR);
  CHECKF(started[0] && !passed[0], "the cancelling section went on after `cancel sections`");
  int nstarted = 0;
  for (int s = 0; s < NSEC; s++) {
    nstarted += started[s];
    CHECKF(!passed[s], "section %d ran past its cancellation point", s);
  }
  for (int t = 0; t < NTHR; t++) {
    CHECKF(by_thread[t] == 1, "thread %d started %d sections, not 1", t, by_thread[t]);
    CHECKF(after[t], "thread %d did not reach the end of the construct", t);
  }
  CHECKF(nstarted == NTHR, "%d sections started, not one per thread", nstarted);
  CHECKF(activated == 1 && detected == NTHR - 1 && wrong_kind == 0,
         "OMPT cancel: %d activations, %d detections (want 1, %d), %d not naming sections",
         activated, detected, NTHR - 1, wrong_kind);
  for (int s = 0; s < NSEC; s++)
    CHECKF(second_ran[s] == 1, "section %d of the next construct ran %d times", s, second_ran[s]);
  for (int i = 0; i < 64; i++)
    CHECKF(loop_ran[i] == 1, "iteration %d of the next loop ran %d times", i, loop_ran[i]);
  printf("%d of %d sections started, each stopped at its cancellation point\n", nstarted, NSEC);
  return 0;
}
