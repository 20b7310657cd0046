/* Nest locks are owned by tasks (OpenMP 3.0): an explicit task run by the owning thread is a
 * different task and cannot acquire the lock; the owner can, again.
 * test-libomp-fails: libomp 14 lets an if(0) task take a nest lock its encountering task owns
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  omp_nest_lock_t nl;
  omp_init_nest_lock(&nl);
  int in_task = -1, owner_again = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    omp_set_nest_lock(&nl);
#pragma omp task shared(in_task, nl) if (0)
    in_task = omp_test_nest_lock(&nl);
    owner_again = omp_test_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
  }
  CHECK(in_task == 0);
  CHECK(owner_again == 2);
  CHECK(omp_test_nest_lock(&nl) == 1);
  omp_unset_nest_lock(&nl);
  omp_destroy_nest_lock(&nl);
  puts("ok");
  return 0;
}
