/* The error directive at(execution), for every front-end: the message on stderr, the OMPT
 * error event, and for severity(fatal) the end of the program (OpenMP 5.2 8.5: the
 * implementation terminates it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

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

void tomp_error_directive(tomp_thread_t *thr, bool fatal, const char *msg, size_t len) {
  if (tomp_listening()) tomp_ev_error_(thr, fatal ? ompt_fatal : ompt_warning, msg, len);
  report(msg, len);
  if (fatal) exit(EXIT_FAILURE);
}
