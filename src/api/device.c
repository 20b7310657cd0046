/* Device routines.  tomp has no offload devices: omp_get_num_devices() is 0 and the host is
 * the initial device, number 0 (= omp_get_num_devices(), as OpenMP 5.x numbers it; -1,
 * OpenMP 5.2's omp_initial_device, is accepted too).  Device memory routines work on the
 * host device with ordinary memory and fail for any other number, as libgomp does without
 * offload plugins: NULL from omp_target_alloc, EINVAL from the copies.  Like libgomp,
 * associating host memory with the host device is refused (EINVAL): there is no separate
 * device memory to associate.  A device number that is omp_invalid_device, or any device but
 * the host under OMP_TARGET_OFFLOAD=MANDATORY, ends the program (tomp_device_host). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "omp.h"

TOMP_EXPORT void omp_set_default_device(int dev) {
  if (dev < 0 && dev != -1 && dev != TOMP_INVALID_DEVICE) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      tomp_warn("omp_set_default_device(%d): not a device number, omp_initial_device (-1) or "
                "omp_invalid_device (-4); value unchanged",
                dev);
    return;
  }
  tomp_icv()->default_device = dev;
}

TOMP_EXPORT int omp_get_default_device(void) { return tomp_icv()->default_device; }
TOMP_EXPORT int omp_get_num_devices(void) { return 0; }
TOMP_EXPORT int omp_get_device_num(void) { return 0; }
TOMP_EXPORT int omp_is_initial_device(void) { return 1; }
TOMP_EXPORT int omp_get_initial_device(void) { return 0; }

TOMP_EXPORT void *omp_target_alloc(size_t size, int dev) {
  if (!tomp_device_host(dev, "omp_target_alloc")) return NULL;
  return malloc(size ? size : 1);
}

TOMP_EXPORT void omp_target_free(void *p, int dev) {
  if (tomp_device_host(dev, "omp_target_free")) free(p);
}

TOMP_EXPORT int omp_target_is_present(const void *p, int dev) {
  (void)p;
  return tomp_device_host(dev, "omp_target_is_present");
}

TOMP_EXPORT int omp_target_memcpy(void *dst, const void *src, size_t len, size_t dst_off,
                                  size_t src_off, int dst_dev, int src_dev) {
  if (!tomp_device_host(dst_dev, "omp_target_memcpy") ||
      !tomp_device_host(src_dev, "omp_target_memcpy"))
    return EINVAL;
  if (len) memmove((char *)dst + dst_off, (const char *)src + src_off, len);
  return 0;
}

/* Copy a num_dims-dimensional sub-array: dimension 0 outermost, sizes in elements. */
static void copy_rect(char *dst, const char *src, size_t esz, int nd, const size_t *vol,
                      const size_t *doff, const size_t *soff, const size_t *ddim,
                      const size_t *sdim) {
  size_t dstride = esz, sstride = esz;
  for (int i = 1; i < nd; i++) {
    dstride *= ddim[i];
    sstride *= sdim[i];
  }
  dst += doff[0] * dstride;
  src += soff[0] * sstride;
  if (nd == 1) {
    memmove(dst, src, vol[0] * esz);
    return;
  }
  for (size_t i = 0; i < vol[0]; i++)
    copy_rect(dst + i * dstride, src + i * sstride, esz, nd - 1, vol + 1, doff + 1, soff + 1,
              ddim + 1, sdim + 1);
}

TOMP_EXPORT int omp_target_memcpy_rect(void *dst, const void *src, size_t esz, int nd,
                                       const size_t *vol, const size_t *doff, const size_t *soff,
                                       const size_t *ddim, const size_t *sdim, int dst_dev,
                                       int src_dev) {
  if (!dst && !src) return INT_MAX; /* the number of dimensions supported */
  if (!tomp_device_host(dst_dev, "omp_target_memcpy_rect") ||
      !tomp_device_host(src_dev, "omp_target_memcpy_rect"))
    return EINVAL;
  if (!dst || !src || nd < 1 || !vol || !doff || !soff || !ddim || !sdim) return EINVAL;
  if (esz == 0) return 0;
  for (int i = 0; i < nd; i++)
    if (vol[i] == 0) return 0;
  copy_rect(dst, src, esz, nd, vol, doff, soff, ddim, sdim);
  return 0;
}

TOMP_EXPORT int omp_target_associate_ptr(const void *host, const void *devp, size_t size,
                                         size_t off, int dev) {
  (void)host;
  (void)devp;
  (void)size;
  (void)off;
  (void)tomp_device_host(dev, "omp_target_associate_ptr");
  return EINVAL;
}

TOMP_EXPORT int omp_target_disassociate_ptr(const void *p, int dev) {
  (void)p;
  (void)tomp_device_host(dev, "omp_target_disassociate_ptr");
  return EINVAL;
}
