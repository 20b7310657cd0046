/* GOMP ordered regions and doacross (ordered(n) with depend(sink/source)). */
#include <stdarg.h>

#include "gomp.h"
#include "ws.h"

/* With a tool attached (TOMP_OBSERVED_PATH): the entry guard and the ordered mutex events. */
static TOMP_OBSERVED_TWIN void ordered_start_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ordered_start(thr);
}

TOMP_EXPORT void GOMP_ordered_start(void) {
  TOMP_OBSERVED_PATH_THR(thr, ordered_start_observed);
  if (thr->team && thr->team->nthreads > 1) tomp_ordered_start(thr); /* alone: always our turn */
}

static TOMP_OBSERVED_TWIN void ordered_end_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ordered_end(thr);
}

/* Without a tool there is nothing to do: the turn passes when the thread takes its next
 * chunk or leaves the loop. */
TOMP_EXPORT void GOMP_ordered_end(void) { TOMP_OBSERVED_PATH(ordered_end_observed); }

/* The iteration vectors are logical (0-based) iteration numbers, one per dimension; the
 * compiler has already dropped sinks outside the iteration space. */
TOMP_EXPORT void GOMP_doacross_post(long *counts) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_doacross_post(thr, (const uint64_t *)counts);
}

TOMP_EXPORT void GOMP_doacross_ull_post(gomp_ull *counts) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_doacross_post(thr, (const uint64_t *)counts);
}

TOMP_EXPORT void GOMP_doacross_wait(long first, ...) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  unsigned n = tomp_doacross_ndim(thr);
  if (!n) return;
  uint64_t v[n];
  va_list ap;
  va_start(ap, first);
  v[0] = (uint64_t)first;
  for (unsigned i = 1; i < n; i++)
    v[i] = (uint64_t)va_arg(ap, long);
  va_end(ap);
  tomp_doacross_wait(thr, v);
}

TOMP_EXPORT void GOMP_doacross_ull_wait(gomp_ull first, ...) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  unsigned n = tomp_doacross_ndim(thr);
  if (!n) return;
  uint64_t v[n];
  va_list ap;
  va_start(ap, first);
  v[0] = first;
  for (unsigned i = 1; i < n; i++)
    v[i] = va_arg(ap, gomp_ull);
  va_end(ap);
  tomp_doacross_wait(thr, v);
}
