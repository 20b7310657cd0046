/* Doacross loops of LLVM's ABI (ordered(n) with depend(sink)/depend(source), or doacross):
 * __kmpc_doacross_init before the loop's own init call, wait/post with iteration vectors in
 * the loop's values, fini after the loop.
 *
 * Core tracks doacross progress per chunk of the outermost dimension, each chunk run in order
 * by one thread (src/core/ordered.c).  Here the loop's chunks come from the compiler's own
 * schedule call (a static one computed in loop.c, or dispatch), so the construct is entered
 * with chunks of one outer iteration: whatever schedule then hands out the outer iterations,
 * each is run by one thread in lexicographic order of the inner ones.  A dispatch loop on a
 * doacross takes its chunks from this same construct (loop.c).  The construct is entered by
 * that init call, not here: OMPT's work-begin then names the compiler's schedule (libomp
 * reports a doacross loop with schedule(static) as loop_static, not as the bookkeeping's
 * dynamic). */
#include "kmp.h"
#include "ws.h"

__thread tomp_kmp_dx_t tomp_kmp_dx __attribute__((tls_model("initial-exec")));

TOMP_EXPORT void __kmpc_doacross_init(ident_t *loc, kmp_int32 gtid, kmp_int32 num_dims,
                                      const kmp_dim_t *dims) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_kmp_dx_t *x = &tomp_kmp_dx;
  if (num_dims < 1 || num_dims > TOMP_KMP_DX_MAXDIM) {
    tomp_warn("doacross loop with %d dimensions: tomp tracks 1 to %d; its dependences are ignored",
              (int)num_dims, TOMP_KMP_DX_MAXDIM);
    x->ndim = 0;
    return;
  }
  x->ndim = (unsigned)num_dims;
  for (unsigned i = 0; i < x->ndim; i++) {
    x->lo[i] = dims[i].lo;
    x->st[i] = dims[i].st;
    /* kmp_dim's bounds are inclusive */
    x->n[i] = tomp_kmp_trip(true, (uint64_t)dims[i].lo, (uint64_t)dims[i].up, dims[i].st);
  }
  x->dispatch = false;
  x->entered = false;
}

void tomp_kmp_dx_enter(tomp_thread_t *thr, int wstype) {
  tomp_kmp_dx_t *x = &tomp_kmp_dx;
  if (x->entered) return;
  x->entered = true;
  tomp_loop_args_t a = {0};
  a.n = x->n[0];
  a.step = 1;
  a.endv = a.n;
  a.sched = TOMP_SCHED_DYNAMIC;
  a.chunk = 1;
  a.ndim = x->ndim;
  a.dims = x->n;
  a.ompt_work = wstype;
  tomp_loop_start(thr, &a, NULL, NULL);
}

/* The logical iteration numbers of vec, or false if it lies outside the iteration space (a
 * sink there names no iteration: nothing to wait for). */
static bool logical(const tomp_kmp_dx_t *x, const kmp_int64 *vec, uint64_t *v) {
  for (unsigned i = 0; i < x->ndim; i++) {
    int64_t st = x->st[i];
    uint64_t off = (uint64_t)vec[i] - (uint64_t)x->lo[i];
    if (st > 0 ? vec[i] < x->lo[i] : vec[i] > x->lo[i]) return false;
    uint64_t k = st > 0 ? off / (uint64_t)st : (uint64_t)(-(int64_t)off) / -(uint64_t)st;
    if (k >= x->n[i]) return false;
    v[i] = k;
  }
  return true;
}

TOMP_EXPORT void __kmpc_doacross_wait(ident_t *loc, kmp_int32 gtid, const kmp_int64 *vec) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  uint64_t v[TOMP_KMP_DX_MAXDIM];
  if (tomp_kmp_dx.entered && logical(&tomp_kmp_dx, vec, v)) tomp_doacross_wait(thr, v);
}

TOMP_EXPORT void __kmpc_doacross_post(ident_t *loc, kmp_int32 gtid, const kmp_int64 *vec) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  uint64_t v[TOMP_KMP_DX_MAXDIM];
  if (tomp_kmp_dx.entered && logical(&tomp_kmp_dx, vec, v)) tomp_doacross_post(thr, v);
}

TOMP_EXPORT void __kmpc_doacross_fini(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  if (!tomp_kmp_dx.ndim) return;
  bool entered = tomp_kmp_dx.entered;
  tomp_kmp_dx.ndim = 0;
  tomp_kmp_dx.dispatch = false;
  tomp_kmp_dx.entered = false;
  if (entered) tomp_loop_end(thr, TOMP_END_NOWAIT);
}
