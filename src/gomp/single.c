/* GOMP single and copyprivate. */
#include "gomp.h"
#include "ws.h"

static TOMP_OBSERVED_TWIN bool single_start_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  return tomp_single_start(thr);
}

TOMP_EXPORT bool GOMP_single_start(void) {
  TOMP_OBSERVED_PATH_THR(thr, single_start_observed);
  return tomp_single_start_quiet(thr);
}

TOMP_EXPORT void *GOMP_single_copy_start(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return tomp_single_copy_start(thr);
}

TOMP_EXPORT void GOMP_single_copy_end(void *data) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_single_copy_end(thr, data);
}
