/* The error directive at(execution): GOMP_warning for severity(warning), GOMP_error for
 * severity(fatal) (the default).  gcc passes the message with length (size_t)-1 when it is a
 * NUL-terminated literal, or NULL when the directive has no message clause.
 *
 * The text is libgomp's, byte for byte ("\nlibgomp: error directive encountered: MSG\n", and
 * "fatal error: " before "error" for severity(fatal)): it is the program's own output, which
 * GCC's tests (libgomp.c-c++-common/error-1.c, libgomp.fortran/error-1.f90) and users'
 * scripts match, not a message of tomp's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "gomp.h"
#include "internal.h"

static void report(const char *msg, size_t len, bool fatal) {
  static const char warning[] = "\nlibgomp: error directive encountered";
  static const char error[] = "\nlibgomp: fatal error: error directive encountered";
  struct iovec v[4];
  int n = 0;
  v[n].iov_base = (void *)(fatal ? error : warning);
  v[n++].iov_len = fatal ? sizeof error - 1 : sizeof warning - 1;
  if (msg) {
    if (len == (size_t)-1) len = strlen(msg);
    v[n].iov_base = (void *)": ";
    v[n++].iov_len = 2;
    v[n].iov_base = (void *)msg;
    v[n++].iov_len = len;
  }
  v[n].iov_base = (void *)"\n";
  v[n++].iov_len = 1;
  fflush(stdout); /* keep the program's own output ahead of the message */
  ssize_t r = writev(2, v, n);
  (void)r;
}

TOMP_EXPORT void GOMP_warning(const char *msg, size_t msglen) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_listening()) tomp_ev_error_(thr, ompt_warning, msg, msglen);
  report(msg, msglen, false);
}

TOMP_EXPORT void GOMP_error(const char *msg, size_t msglen) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_listening()) tomp_ev_error_(thr, ompt_fatal, msg, msglen);
  report(msg, msglen, true);
  /* severity(fatal): the implementation terminates the program */
  exit(EXIT_FAILURE);
}
