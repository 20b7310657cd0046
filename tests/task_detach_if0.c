/* An undeferred task with an event: `task detach(ev) if(0)`.  OpenMP 5.2 sec. 12.5: the
 * encountering task resumes once the task's structured block has been executed ("cannot be
 * resumed until execution of the structured block that is associated with the generated
 * task is completed"), while the task completes only when its event is fulfilled too ("A
 * detachable task is completed when the execution of its associated structured block is
 * completed and the allow-completion event is fulfilled").  So the encountering thread goes
 * on and publishes the handle, another thread fulfils it, and a taskwait, a taskgroup and the
 * region's closing barrier wait for that.  tomp before the fix (like libgomp) waited for the
 * event inside the task construct: the program hung (LLVM's tasks/task_late_fulfill too).
 *
 * test-timeout: 30
 * test-no-libgomp: libgomp 12 waits for the event in the task construct (the bug tested here: it hangs)
 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

static omp_event_handle_t handle;
static int published, fulfilled, body_done;

/* the other thread: wait for the handle, let the encountering thread reach its wait, fulfil */
static void fulfil_when_published(void) {
  while (!__atomic_load_n(&published, __ATOMIC_ACQUIRE))
    usleep(100);
  usleep(20000); /* not needed for correctness: makes the waiter really wait */
  __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
  omp_fulfill_event(handle);
}

int main(void) {
  for (int round = 0; round < 3; round++) {
    published = fulfilled = body_done = 0;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) {
        omp_event_handle_t ev;
        if (round == 1) {
#pragma omp taskgroup
          {
#pragma omp task detach(ev) if (0)
            body_done = 1;
            CHECK(body_done == 1);
            handle = ev;
            __atomic_store_n(&published, 1, __ATOMIC_RELEASE);
          }
          /* the taskgroup's end waited for the event */
          CHECKF(__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE) == 1, "round %d", round);
        } else {
#pragma omp task detach(ev) if (0)
          body_done = 1;
          CHECK(body_done == 1);
          handle = ev;
          __atomic_store_n(&published, 1, __ATOMIC_RELEASE);
          if (round == 0) {
#pragma omp taskwait
            CHECKF(__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE) == 1, "round %d", round);
          }
          /* round 2: the region's closing barrier waits for it */
        }
      } else {
        fulfil_when_published();
      }
    }
    CHECKF(fulfilled == 1, "round %d", round);
  }
  printf("task_detach_if0 ok\n");
  return 0;
}
