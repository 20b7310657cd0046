/* `cancel sections` does not take the remaining sections away from threads that have not
 * reached a cancellation point (issue 17 B7).  Thread 0 takes section 1 and cancels; thread 1
 * enters the construct only after that (an OMPT cancel callback, activated, lets it go) and
 * must still be handed section 2, where its `cancellation point sections` sees the
 * cancellation.  OpenMP 5.2 (sec. 16.1, cancel): the cancel construct "causes the encountering
 * implicit or explicit task to proceed to the end of the canceled construct"; other threads
 * act on it only at cancellation points (sec. 16.2: implicit barriers, barrier, cancel and
 * cancellation point regions), and handing out a section is none of these.  libomp hands the
 * section out too (LLVM's cancel/cancel_worksharing relies on it: thread 1 waits there for
 * a signal from a section before its cancellation point).  Before the fix tomp handed out no
 * section after the cancellation: section 2 never ran (it failed every run).
 * test-env: OMP_CANCELLATION=true
 * test-cflags: -rdynamic
 * test-repeat: 5
 * test-no-libgomp: the ordering comes from an OMPT callback; libgomp has no OMPT
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "check.h"

static int activated, section2_ran, section2_saw_cancel, inited;

static void on_cancel(ompt_data_t *task, int flags, const void *ra) {
  (void)task, (void)ra;
  if ((flags & ompt_cancel_sections) && (flags & ompt_cancel_activated))
    __atomic_store_n(&activated, 1, __ATOMIC_RELEASE);
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  inited = set(ompt_callback_cancel, (ompt_callback_t)on_cancel) == ompt_set_always;
  return 1;
}
#include "ompt_tool.h"

int main(void) {
  CHECK(omp_get_cancellation());
  CHECK(inited);
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1)
      while (!__atomic_load_n(&activated, __ATOMIC_ACQUIRE)) {
      }
#pragma omp sections
    {
#pragma omp section
      {
        CHECK(omp_get_thread_num() == 0);
#pragma omp cancel sections
      }
#pragma omp section
      {
        __atomic_store_n(&section2_ran, 1, __ATOMIC_RELAXED);
        section2_saw_cancel = 1;
#pragma omp cancellation point sections
        section2_saw_cancel = 0;
      }
    }
  }
  CHECK(omp_get_num_threads() == 1);
  CHECKF(section2_ran, "section 2 was not handed out after `cancel sections`");
  CHECKF(section2_saw_cancel, "section 2's cancellation point did not see the cancellation");
  printf("section 2 ran after the cancellation and saw it at its cancellation point\n");
  return 0;
}
