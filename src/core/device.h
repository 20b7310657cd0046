/* Devices (device.c).  tomp has no offload devices: the host is the initial device, number 0
 * (= omp_get_num_devices(), as OpenMP 5.x numbers it; -1, OpenMP 5.2's omp_initial_device,
 * names it too). */
#ifndef TOMP_DEVICE_H
#define TOMP_DEVICE_H

#include <stdbool.h>

#include "internal.h"

/* Whether dev is the host device; terminates (OpenMP 5.2 runtime error termination) for
 * omp_invalid_device, and for any other device under OMP_TARGET_OFFLOAD=MANDATORY.  who
 * names the construct or routine in the message. */
bool tomp_device_host(int dev, const char *who) TOMP_HIDDEN;

#endif
