/* The device argument of GCC's device constructs (GOMP_target*, src/gomp/target.c).
 *
 * tomp has no offload devices: every construct runs on the host, after the device named is
 * checked (tomp_device_host, src/core/device.c: omp_invalid_device and, under
 * OMP_TARGET_OFFLOAD=MANDATORY, any device but the host end the program). */
#include "device.h"
#include "gomp.h"
#include "omp.h"

void tomp_device_construct(int device, const char *who) {
  if (device == GOMP_DEVICE_HOST_FALLBACK) return;
  if (device == GOMP_DEVICE_ICV) {
    device = tomp_icv()->default_device;
    if (device == TOMP_INVALID_DEVICE && tomp_g.target_offload == TOMP_OFFLOAD_MANDATORY)
      tomp_fatal("%s: OMP_TARGET_OFFLOAD=MANDATORY, but tomp has no device but the host (the "
                 "default device is omp_invalid_device; name the host with device(%d) to run "
                 "there)",
                 who, omp_get_initial_device());
  }
  (void)tomp_device_host(device, who); /* not the host: host fallback, as with libgomp */
}
