/* omp_* routines of the affinity format and the environment display (src/core/display.c
 * formats and prints). */
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "omp.h"

TOMP_EXPORT void omp_set_affinity_format(const char *format) {
  if (!format) format = "";
  if (!tomp_affinity_format_valid(format)) {
    tomp_warn("omp_set_affinity_format('%s'): unknown %%-field; format unchanged", format);
    return;
  }
  char *copy = strdup(format);
  if (!copy) tomp_fatal("out of memory");
  /* The old string is not freed: another thread may be formatting with it right now. */
  __atomic_store_n(&tomp_g.affinity_format, copy, __ATOMIC_RELEASE);
}

TOMP_EXPORT size_t omp_get_affinity_format(char *buffer, size_t size) {
  const char *f = tomp_affinity_format_current();
  size_t n = strlen(f);
  if (buffer && size) {
    size_t k = n < size - 1 ? n : size - 1;
    memcpy(buffer, f, k);
    buffer[k] = 0;
  }
  return n;
}

TOMP_EXPORT size_t omp_capture_affinity(char *buffer, size_t size, const char *format) {
  return tomp_affinity_capture(buffer, size, format, tomp_thread());
}

TOMP_EXPORT void omp_display_affinity(const char *format) {
  tomp_affinity_display(format, tomp_thread());
}

TOMP_EXPORT void omp_display_env(int verbose) { tomp_display_env_print(verbose != 0); }
