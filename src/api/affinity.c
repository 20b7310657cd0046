/* omp_* routines of affinity: the place list and the calling thread's place partition
 * (src/core/affinity.c builds both). */
#include <string.h>

#include "affinity.h"
#include "omp.h"

TOMP_EXPORT omp_proc_bind_t omp_get_proc_bind(void) {
  return (omp_proc_bind_t)tomp_icv()->bind;
}

TOMP_EXPORT int omp_get_num_places(void) { return tomp_nplaces; }

TOMP_EXPORT int omp_get_place_num_procs(int place) {
  if (place < 0 || place >= tomp_nplaces) return 0;
  return tomp_places[place].nprocs;
}

TOMP_EXPORT void omp_get_place_proc_ids(int place, int *ids) {
  if (place < 0 || place >= tomp_nplaces || !ids) return;
  memcpy(ids, tomp_places[place].procs, sizeof(int) * (size_t)tomp_places[place].nprocs);
}

TOMP_EXPORT int omp_get_place_num(void) {
  tomp_thread_t *thr = tomp_thread();
  return tomp_nplaces > 0 ? thr->place : -1;
}

TOMP_EXPORT int omp_get_partition_num_places(void) {
  int f;
  return tomp_affinity_partition(tomp_thread(), &f);
}

TOMP_EXPORT void omp_get_partition_place_nums(int *nums) {
  int f, c = tomp_affinity_partition(tomp_thread(), &f);
  if (!nums) return;
  for (int i = 0; i < c; i++) nums[i] = f + i;
}
