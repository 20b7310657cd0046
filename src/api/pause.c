/* omp_pause_resource, omp_pause_resource_all. */
#include "api.h"
#include "omp.h"

/* Both kinds end the idle workers of the pool and of the caller's cached teams (new ones
 * start on demand), as libgomp does: programs (GCC's pause-2.c) expect a worker's
 * threadprivate copies to start afresh after a soft pause too.  The runtime stays usable. */
TOMP_EXPORT int omp_pause_resource(omp_pause_resource_t kind, int device_num) {
  if (kind != omp_pause_soft && kind != omp_pause_hard) {
    WARN_ONCE("omp_pause_resource: unknown kind %d", (int)kind);
    return -1;
  }
  if (device_num != omp_get_initial_device() && device_num != -1 /* omp_initial_device */)
    return -1;
  tomp_thread_t *thr = tomp_thread();
  if (thr->team) return -1; /* the spec forbids it inside a region; refuse */
  tomp_pool_release_idle(thr);
  return 0;
}

TOMP_EXPORT int omp_pause_resource_all(omp_pause_resource_t kind) {
  return omp_pause_resource(kind, omp_get_initial_device());
}
