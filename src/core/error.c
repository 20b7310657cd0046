/* The error directive at(execution), for every front-end: the message on stderr, the OMPT
 * error event, and for severity(fatal) the end of the program (OpenMP 5.2 8.5: the
 * implementation terminates it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "internal.h"

/* The text is libgomp's, byte for byte ("\nlibgomp: error directive encountered: MSG\n", and
 * "fatal error: " before "error" for severity(fatal)): it is the program's own output, which
 * GCC's tests (libgomp.c-c++-common/error-1.c, libgomp.fortran/error-1.f90) and users' scripts
 * match, not a message of tomp's.  clang programs get the same text. */
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

void tomp_error_directive(tomp_thread_t *thr, bool fatal, const char *msg, size_t len) {
  if (tomp_listening()) tomp_ev_error_(thr, fatal ? ompt_fatal : ompt_warning, msg, len);
  report(msg, len, fatal);
  if (fatal) exit(EXIT_FAILURE);
}
