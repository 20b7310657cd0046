/* Allocators as clang compiles them: the allocate clause on parallel privates and the
 * allocate directive on locals go through __kmpc_alloc / __kmpc_free with the allocator's
 * handle; clang 14 keeps a task's or taskloop's privates in the task whatever
 * their allocate clause says, so there only the values are checked. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "../check.h"

int main(void) {
  omp_alloctrait_t tr[1] = {{omp_atk_alignment, 128}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, tr);
  CHECK(al != omp_null_allocator);
  int x = 3, ok = 1;
  double arr[16];
  for (int i = 0; i < 16; i++)
    arr[i] = i;
#pragma omp parallel num_threads(3) firstprivate(x) allocate(omp_low_lat_mem_alloc : x) shared(ok)
  {
    if (x != 3) ok = 0;
    if (omp_get_thread_num() == 0)
      for (int t = 0; t < 10; t++) {
#pragma omp task firstprivate(arr, t) allocate(al : arr) shared(ok)
        {
          for (int i = 0; i < 16; i++)
            if (arr[i] != i) ok = 0;
          arr[0] = t; /* the task's own copy */
        }
      }
    int loc[32];
#pragma omp allocate(loc) allocator(omp_default_mem_alloc)
    for (int i = 0; i < 32; i++)
      loc[i] = i + omp_get_thread_num();
    long s = 0;
    for (int i = 0; i < 32; i++)
      s += loc[i];
    if (s != 496 + 32 * omp_get_thread_num()) ok = 0;
  }
  CHECK(ok && arr[0] == 0);
  long sum = 0;
  int y = 2;
#pragma omp taskloop firstprivate(y) allocate(al : y) reduction(+ : sum)
  for (int i = 0; i < 100; i++) {
    sum += y;
  }
  CHECK(sum == 200);
  omp_destroy_allocator(al);
  printf("ok\n");
  return 0;
}
