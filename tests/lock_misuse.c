/* Misuse the specification leaves undefined gets a warning, not a crash: unsetting a lock
 * that is not set, unsetting a nest lock owned by another task, destroying a held lock, an
 * invalid hint.  The locks keep working afterwards.
 * test-no-libgomp: undefined behaviour; libgomp may hang or crash
 * test-no-libomp: undefined behaviour; libomp 14 aborts (assertion in kmp_lock.cpp)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* GCC 12's libgomp does not export the hinted initialisers (tomp does; abi_locks checks it):
 * bind weakly so the test also validates on libgomp, which then skips the hinted parts. */
#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint

#include "check.h"

int main(void) {
  omp_lock_t l;
  omp_init_lock(&l);
  omp_unset_lock(&l); /* not set */
  CHECK(omp_test_lock(&l) == 1);
  omp_destroy_lock(&l); /* still set */
  if (!omp_init_lock_with_hint) return 1; /* tomp exports it */
  omp_init_lock_with_hint(&l, (omp_sync_hint_t)(omp_sync_hint_contended |
                                                omp_sync_hint_uncontended));
  omp_set_lock(&l);
  CHECK(omp_test_lock(&l) == 0);
  omp_unset_lock(&l);
  omp_destroy_lock(&l);

  omp_nest_lock_t nl;
  omp_init_nest_lock(&nl);
  omp_unset_nest_lock(&nl); /* not owned */
  omp_set_nest_lock(&nl);
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) omp_unset_nest_lock(&nl); /* owned by another task */
  CHECK(omp_test_nest_lock(&nl) == 2);
  omp_unset_nest_lock(&nl);
  omp_unset_nest_lock(&nl);
  int got = -1;
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) {
    got = omp_test_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
  }
  CHECK(got == 1);
  omp_destroy_nest_lock(&nl);
  puts("ok");
  return 0;
}
