/* omp_* routines: team and thread queries. */
#include "internal.h"
#include "omp.h"

TOMP_EXPORT int omp_get_thread_num(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->tid : 0;
}

TOMP_EXPORT int omp_get_num_threads(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->team->nthreads : 1;
}

TOMP_EXPORT int omp_get_max_threads(void) { return (int)tomp_icv()->nthreads; }

TOMP_EXPORT void omp_set_num_threads(int n) { tomp_icv()->nthreads = n > 0 ? (unsigned)n : 1; }

TOMP_EXPORT int omp_get_level(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team ? (int)t->team->level : 0;
}

TOMP_EXPORT int omp_in_parallel(void) {
  tomp_thread_t *t = tomp_thread();
  return t->team && t->team->active_level > 0;
}
