/* omp_* routines of tasking: omp_in_final, omp_get_max_task_priority, omp_fulfill_event. */
#include "omp.h"
#include "task.h"

TOMP_EXPORT int omp_in_final(void) {
  tomp_task_t *t = tomp_thread()->task;
  return t && t->in_final;
}

TOMP_EXPORT int omp_get_max_task_priority(void) { return tomp_g.max_task_priority; }

TOMP_EXPORT void omp_fulfill_event(omp_event_handle_t event) {
  tomp_task_fulfill((void *)(uintptr_t)event);
}
