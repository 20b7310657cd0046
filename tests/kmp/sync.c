/* LLVM ABI synchronisation: critical (unnamed, named, with a hint), master and masked
 * (filter), single with and without copyprivate, flush, reductions through __kmpc_reduce
 * (a worksharing loop's blocking form) and __kmpc_reduce_nowait (parallel), on types with an
 * atomic form and a user-defined one without (the runtime must then give the lock), and
 * clang's 8-byte omp_nest_lock_t. */
#include <omp.h>
#include <stdint.h>

#include "../check.h"

typedef struct {
  long lo, hi;
} range_t;
#pragma omp declare reduction(span:range_t                                                         \
                              : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo,      \
                                omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi)      \
    initializer(omp_priv = (range_t){1L << 40, -(1L << 40)})

int main(void) {
  omp_set_dynamic(0);
  enum { T = 4, R = 2000 };
  long plain = 0, named = 0, hinted = 0;
#pragma omp parallel num_threads(T)
  for (int r = 0; r < R; r++) {
#pragma omp critical
    plain++;
#pragma omp critical(other)
    named += 2;
#pragma omp critical(hinted) hint(omp_sync_hint_contended)
    hinted += 3;
  }
  CHECK(plain == T * R && named == 2L * T * R && hinted == 3L * T * R);

  /* master and masked */
  int who_master = -1, who_masked = -1, nmasked = 0;
#pragma omp parallel num_threads(T)
  {
#pragma omp master
    who_master = omp_get_thread_num();
#pragma omp masked filter(2)
    {
      who_masked = omp_get_thread_num();
      nmasked++;
    }
  }
  CHECK(who_master == 0 && who_masked == 2 && nmasked == 1);

  /* single: one executor per construct; copyprivate broadcasts its value */
  int singles = 0, bad = 0;
#pragma omp parallel num_threads(T)
  for (int r = 0; r < 100; r++) {
    int mine;
#pragma omp single copyprivate(mine)
    {
      mine = r * 7 + omp_get_thread_num() * 1000;
      /* atomic: the nowait single of the round before may be running on another thread */
      __atomic_add_fetch(&singles, 1, __ATOMIC_RELAXED);
    }
    if (mine % 1000 != r * 7) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp single nowait
    __atomic_add_fetch(&singles, 1, __ATOMIC_RELAXED);
  }
  CHECK(bad == 0);
  CHECKF(singles == 200, "singles %d", singles);

  /* flush: a message passed with flushes */
  int flag = 0, data = 0, got = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      data = 42;
#pragma omp flush
      __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
    } else if (omp_get_num_threads() == 2) {
      while (!__atomic_load_n(&flag, __ATOMIC_RELAXED)) {
      }
#pragma omp flush
      got = data;
    }
  }
  CHECK(omp_get_max_threads() < 2 || got == 42 || got == -1);

  /* reductions: nowait form (combined parallel for) and blocking form (for in a region) */
  long sum = 0;
  double dsum = 0;
  int mx = -1;
#pragma omp parallel for num_threads(T) reduction(+ : sum, dsum) reduction(max : mx)
  for (int i = 0; i < 10000; i++) {
    sum += i;
    dsum += 0.5;
    if (i > mx) mx = i;
  }
  CHECK(sum == 49995000L && dsum == 5000.0 && mx == 9999);

  range_t span = {1L << 40, -(1L << 40)};
  long sum2 = 0;
#pragma omp parallel num_threads(T)
  {
#pragma omp for reduction(span : span) reduction(+ : sum2)
    for (int i = -500; i < 700; i++) {
      if (i < span.lo) span.lo = i;
      if (i > span.hi) span.hi = i;
      sum2 += 1;
    }
    /* the blocking form: every thread sees the combined values after the loop */
    if (sum2 != 1200) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
  }
  CHECK(bad == 0);
  CHECK(span.lo == -500 && span.hi == 699 && sum2 == 1200);

  /* clang's nest lock (8 bytes) */
  CHECK(sizeof(omp_nest_lock_t) == 8);
  omp_nest_lock_t nl;
  omp_init_nest_lock(&nl);
  long nested = 0;
#pragma omp parallel num_threads(T)
  for (int r = 0; r < 200; r++) {
    omp_set_nest_lock(&nl);
    omp_set_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 3);
    nested++;
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
  }
  omp_destroy_nest_lock(&nl);
  CHECK(nested == 200L * T);

  omp_lock_t l;
  omp_init_lock(&l);
  long locked = 0;
#pragma omp parallel num_threads(T)
  for (int r = 0; r < 500; r++) {
    omp_set_lock(&l);
    locked++;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  CHECK(locked == 500L * T);
  return 0;
}
