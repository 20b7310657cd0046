/* GOMP cancellation entry points.  `which` is GCC's GOMP_CANCEL_* bit. */
#include "gomp.h"
#include "task.h"

static int kind_of(int which) {
  if (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS)) return TOMP_CK_WS;
  if (which & GOMP_CANCEL_TASKGROUP) return TOMP_CK_TASKGROUP;
  return TOMP_CK_PARALLEL;
}

TOMP_EXPORT bool GOMP_cancellation_point(int which) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  return tomp_cancel_point(thr, kind_of(which));
}

/* do_cancel is the if clause: false makes the construct a cancellation point. */
TOMP_EXPORT bool GOMP_cancel(int which, bool do_cancel) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!do_cancel) return tomp_cancel_point(thr, kind_of(which));
  return tomp_cancel_activate(thr, kind_of(which));
}
