/* The error directive at(execution): GOMP_warning for severity(warning), GOMP_error for
 * severity(fatal) (the default).  gcc passes the message with length (size_t)-1 when it is a
 * NUL-terminated literal, or NULL when the directive has no message clause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "gomp.h"
#include "internal.h"

static void report(const char *msg, size_t len) {
  static const char head[] = "tomp: error directive encountered";
  struct iovec v[4];
  int n = 0;
  v[n].iov_base = (void *)head;
  v[n++].iov_len = sizeof head - 1;
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
  report(msg, msglen);
}

TOMP_EXPORT void GOMP_error(const char *msg, size_t msglen) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (tomp_listening()) tomp_ev_error_(thr, ompt_fatal, msg, msglen);
  report(msg, msglen);
  /* severity(fatal): the implementation terminates the program */
  exit(EXIT_FAILURE);
}
