/* OMP_PLACES and GOMP_CPU_AFFINITY: the place-list parsers (src/core/affinity.c).  The first
 * byte picks the parser, the rest is the value.  Properties: a value that parses gives at
 * least one place, and the list prints (OMP_DISPLAY_ENV's form) within the buffer. */
#include "fuzz.h"

#include "affinity.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *v = fuzz_string(data + 1, size - 1, 4096);
  bool ok = data[0] & 1 ? tomp_places_parse_cpus("GOMP_CPU_AFFINITY", v)
                        : tomp_places_parse("OMP_PLACES", v);
  if (ok) {
    FUZZ_ASSERT(tomp_nplaces > 0 && tomp_places != NULL);
    char buf[256];
    size_t n = tomp_places_format(buf, sizeof buf);
    FUZZ_ASSERT(strlen(buf) < sizeof buf);
    (void)n;
  }
  tomp_places_clear();
  free(v);
  return 0;
}
