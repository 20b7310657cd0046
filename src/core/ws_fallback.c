/* TEMPORARY (ws branch only; the lead removes this file at merge): a weak stand-in for the
 * tasking module's tomp_ws_task_reduction_begin, so this branch links before tasks lands. */
#include "internal.h"

__attribute__((weak)) void tomp_ws_task_reduction_begin(tomp_thread_t *thr, uintptr_t *reductions,
                                                        uintptr_t *first) {
  (void)thr;
  (void)reductions;
  (void)first;
  tomp_fatal("task reductions on worksharing constructs need the tasking module");
}
