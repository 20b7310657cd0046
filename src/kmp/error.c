/* The error directive at(execution) of LLVM's ABI: __kmpc_error(loc, severity, message),
 * severity 1 warning, 2 fatal; message NUL-terminated or NULL. */
#include "ktask.h"

TOMP_EXPORT void __kmpc_error(ident_t *loc, int severity, const char *message) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_error_directive(thr, severity != 1, message, (size_t)-1);
}
