/* The error directive at(execution): GOMP_warning for severity(warning), GOMP_error for
 * severity(fatal) (the default).  gcc passes the message with length (size_t)-1 when it is a
 * NUL-terminated literal, or NULL when the directive has no message clause. */
#include "gomp.h"
#include "internal.h"

TOMP_EXPORT void GOMP_warning(const char *msg, size_t msglen) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_error_directive(thr, false, msg, msglen);
}

TOMP_EXPORT void GOMP_error(const char *msg, size_t msglen) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_error_directive(thr, true, msg, msglen);
}
