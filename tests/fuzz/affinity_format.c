/* The affinity format (OMP_AFFINITY_FORMAT, omp_set_affinity_format, omp_capture_affinity:
 * src/core/display.c).  The first byte sets the buffer size (0..63; 0 with a NULL buffer), the
 * rest is the format.  Properties: the capture never writes past the buffer, always ends it
 * with a NUL when it has room, and returns the length of the whole line, which a buffer of
 * that size plus one then holds in full. */
#include "fuzz.h"

#include <omp.h>

#include "affinity.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t room = data[0] % 64;
  char *fmt = fuzz_string(data + 1, size - 1, 2048);
  (void)tomp_affinity_format_valid(fmt);
  char *buf = room ? malloc(room) : NULL;
  if (room) memset(buf, 0x7f, room);
  size_t n = omp_capture_affinity(buf, room, fmt);
  if (room) FUZZ_ASSERT(memchr(buf, 0, room) != NULL && strlen(buf) == (n < room ? n : room - 1));
  char *full = malloc(n + 1);
  size_t n2 = omp_capture_affinity(full, n + 1, fmt);
  FUZZ_ASSERT(n2 == n && strlen(full) == n);
  if (room && n < room) FUZZ_ASSERT(!strcmp(buf, full));
  /* the same format as affinity-format-var (set here directly: omp_set_affinity_format keeps
   * every format it replaces, as another thread may be printing with it) */
  if (*fmt && tomp_affinity_format_valid(fmt)) { /* (an empty format means the variable) */
    char *old = tomp_g.affinity_format;
    tomp_g.affinity_format = strdup(fmt);
    char line[64];
    size_t n3 = omp_capture_affinity(line, sizeof line, NULL);
    FUZZ_ASSERT(n3 == n);
    free(tomp_g.affinity_format);
    tomp_g.affinity_format = old;
  }
  free(full);
  free(buf);
  free(fmt);
  return 0;
}
