/* detach: the task body sees its own event handle.  gcc copies the event variable into the
 * task's argument block before calling GOMP_task, so the runtime must store the handle into
 * that block (not only into the variable) before the block is copied or, for an undeferred
 * task, run in place.  A body that fulfils its own event then completes: undeferred
 * (if(0), final, outside any region) and deferred. */
#include <omp.h>
#include "check.h"

static int ran;

int main(void) {
  omp_event_handle_t ev;
  /* outside any parallel region: undeferred, runs in place */
#pragma omp task detach(ev)
  {
    ran++;
    omp_fulfill_event(ev);
  }
  CHECK(ran == 1);

#pragma omp parallel num_threads(2)
#pragma omp single
  {
    omp_event_handle_t e1, e2, e3;
#pragma omp task detach(e1) if (0)
    {
#pragma omp atomic
      ran++;
      omp_fulfill_event(e1);
    }
#pragma omp task detach(e2) final(1)
    {
#pragma omp atomic
      ran++;
      omp_fulfill_event(e2);
    }
#pragma omp task detach(e3)
    {
#pragma omp atomic
      ran++;
      omp_fulfill_event(e3);
    }
#pragma omp taskwait
    CHECK(__atomic_load_n(&ran, __ATOMIC_RELAXED) == 4);
  }
  CHECK(ran == 4);
  return 0;
}
