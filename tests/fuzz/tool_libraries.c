/* OMP_TOOL_LIBRARIES (src/ompt/init.c): the colon-separated list of tool libraries.  The input
 * is the value; dlopen is replaced here (the executable's definition interposes libc's for
 * tomp's objects linked into it), so nothing is loaded: it records the names tomp asks for.
 * Property: tomp asks for exactly the non-empty colon-separated entries, in order. */
#include "fuzz.h"

#include "internal.h"
#include "ompt.h"

static char asked[8192];
static size_t asked_len;

void *dlopen(const char *file, int mode) {
  (void)mode;
  size_t n = strlen(file);
  FUZZ_ASSERT(n > 0 && !strchr(file, ':'));
  if (asked_len + n + 1 < sizeof asked) {
    if (asked_len) asked[asked_len++] = ':';
    memcpy(asked + asked_len, file, n);
    asked_len += n;
    asked[asked_len] = 0;
  }
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *v = fuzz_string(data, size, 4000);
  /* what tomp should ask for: the non-empty entries, joined by ':' */
  char want[8192];
  size_t w = 0;
  for (char *p = v; *p;) {
    size_t len = strcspn(p, ":");
    if (len) {
      if (w) want[w++] = ':';
      memcpy(want + w, p, len);
      w += len;
    }
    p += len;
    if (*p) p++;
  }
  want[w] = 0;
  asked_len = 0;
  asked[0] = 0;
  setenv("OMP_TOOL_LIBRARIES", v, 1);
  tomp_ompt_init();
  FUZZ_ASSERT(!strcmp(asked, want));
  free(v);
  return 0;
}
