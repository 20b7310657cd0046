/* The error directive at(execution), for every front-end: the message on stderr, the OMPT
 * error event, and for severity(fatal) the end of the program (OpenMP 5.2 8.5: the
 * implementation terminates it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "internal.h"

/* The text is the program's own output, which tests and users' scripts match, not a message
 * of tomp's: for gcc-built code libgomp's, byte for byte ("\nlibgomp: error directive
 * encountered: MSG\n", and "fatal error: " before "error" for severity(fatal); GCC's
 * libgomp.c-c++-common/error-1.c, libgomp.fortran/error-1.f90 match it), for clang-built code
 * (where != NULL: the construct's location, or "unknown") libomp's ("OMP: Warning #283: WHERE:
 * Encountered user-directed warning: MSG.", "OMP: Error #282: ...error: MSG."; LLVM's
 * ompt/misc/runtime_error test matches it). */
static void report(const char *msg, size_t len, bool fatal, const char *where) {
  static const char warning[] = "\nlibgomp: error directive encountered";
  static const char error[] = "\nlibgomp: fatal error: error directive encountered";
  if (msg && len == (size_t)-1) len = strlen(msg);
  fflush(stdout); /* keep the program's own output ahead of the message */
  if (where) {
    fprintf(stderr, "OMP: %s: %s: Encountered user-directed %s: %.*s.\n",
            fatal ? "Error #282" : "Warning #283", where, fatal ? "error" : "warning",
            msg ? (int)len : 0, msg ? msg : "");
    return;
  }
  struct iovec v[4];
  int n = 0;
  v[n].iov_base = (void *)(fatal ? error : warning);
  v[n++].iov_len = fatal ? sizeof error - 1 : sizeof warning - 1;
  if (msg) {
    v[n].iov_base = (void *)": ";
    v[n++].iov_len = 2;
    v[n].iov_base = (void *)msg;
    v[n++].iov_len = len;
  }
  v[n].iov_base = (void *)"\n";
  v[n++].iov_len = 1;
  ssize_t r = writev(2, v, n);
  (void)r;
}

void tomp_error_directive_at(tomp_thread_t *thr, bool fatal, const char *msg, size_t len,
                             const char *where) {
  if (tomp_listening()) tomp_ev_error_(thr, fatal ? ompt_fatal : ompt_warning, msg, len);
  report(msg, len, fatal, where);
  if (fatal) exit(EXIT_FAILURE);
}

void tomp_error_directive(tomp_thread_t *thr, bool fatal, const char *msg, size_t len) {
  tomp_error_directive_at(thr, fatal, msg, len, NULL);
}
