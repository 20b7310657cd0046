/* Which device a construct or a device routine names.
 *
 * OpenMP 5.2's runtime error terminations (tomp_device_host): omp_invalid_device (-4, libgomp's
 * value) named by a device construct or a device memory routine, and, under
 * OMP_TARGET_OFFLOAD=MANDATORY, any device but the host -- including the default device, which
 * env.c then sets to omp_invalid_device because no device but the host exists.  libgomp 12
 * instead falls back to the host silently under MANDATORY when it has no offload device. */
#include "device.h"

static bool is_host(int dev) { return dev == 0 || dev == -1; }

bool tomp_device_host(int dev, const char *who) {
  if (tomp_likely(is_host(dev))) return true;
  bool mandatory = tomp_g.target_offload == TOMP_OFFLOAD_MANDATORY;
  if (dev == TOMP_INVALID_DEVICE)
    tomp_fatal("%s: the device is omp_invalid_device%s", who,
               mandatory ? " (under OMP_TARGET_OFFLOAD=MANDATORY it is the default device: tomp "
                           "has no device but the host)"
                         : "");
  if (mandatory)
    tomp_fatal("%s: device %d is not available and OMP_TARGET_OFFLOAD=MANDATORY (tomp has no "
               "device but the host)",
               who, dev);
  return false;
}
