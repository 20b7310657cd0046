/* OMPT mutex events: unnamed and named critical, simple and nestable locks (set, test, the
 * nesting scope events, hinted init, destroy), an atomic on a type the hardware cannot
 * update in place (GOMP_atomic_start/end).  One thread: the events in order, wait ids stable
 * per object.  Two threads: ompt-print checks the pairing per wait id; each run sees the 4
 * critical acquisitions and the 2 atomic releases.
 *
 * ompt-link-tomp: omp_init_nest_lock_with_hint is missing from gcc 12's libgomp
 * ompt-run: OMP_THREAD_LIMIT=1
 * ompt-filecheck: CHECK
 * ompt-run: x5
 * ompt-count: mutex_acquired kind=critical == 4
 * ompt-count: mutex_released kind=atomic == 2
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(void) {
  omp_lock_t l;
  omp_nest_lock_t n;
  int x = 0, y = 0, z = 0;
  long double ld = 0;
  int nt = 0;
  omp_init_lock(&l);
  omp_init_nest_lock_with_hint(&n, omp_sync_hint_contended);
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    x++;
#pragma omp critical(named)
    y++;
    omp_set_lock(&l);
    z++;
    omp_unset_lock(&l);
    while (!omp_test_lock(&l)) {
    }
    z++;
    omp_unset_lock(&l);
    omp_set_nest_lock(&n);
    omp_set_nest_lock(&n);
    CHECK(omp_test_nest_lock(&n) == 3);
    z++;
    omp_unset_nest_lock(&n);
    omp_unset_nest_lock(&n);
    omp_unset_nest_lock(&n);
#pragma omp atomic
    ld += 1.0L;
#pragma omp atomic
    nt++;
  }
  omp_destroy_nest_lock(&n);
  omp_destroy_lock(&l);
  CHECK(x == nt && y == nt && z == 3 * nt && ld == (long double)nt);
  return 0;
}
