/* The allocate clause (gcc: GOMP_alloc/GOMP_free) on private and firstprivate variables of
 * parallel regions, with predefined and user allocators and the align modifier.
 * test-gcc-only: clang 14 rejects the allocate clause's allocator modifier */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void) {
  int x = 5, bad = 0;
  double arr[100];
  for (int i = 0; i < 100; i++) arr[i] = i;

#pragma omp parallel num_threads(4) private(x) allocate(allocator(omp_low_lat_mem_alloc), align(64) : x) reduction(+ : bad)
  {
    if ((uintptr_t)&x % 64) bad++;
    x = omp_get_thread_num();
    for (int i = 0; i < 1000; i++) x += 1;
    if (x != omp_get_thread_num() + 1000) bad++;
  }
  CHECK(bad == 0);
  CHECK(x == 5);

  omp_alloctrait_t t[] = {{omp_atk_alignment, 128}, {omp_atk_pool_size, 1 << 20}};
  omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, t);
  CHECK(a != omp_null_allocator);
  for (int rep = 0; rep < 50; rep++) {
#pragma omp parallel num_threads(3) firstprivate(arr) allocate(a : arr) reduction(+ : bad)
    {
      if ((uintptr_t)arr % 128) bad++;
      for (int i = 0; i < 100; i++) {
        if (arr[i] != i) bad++;
        arr[i] = -1;
      }
    }
  }
  CHECK(bad == 0);
  CHECK(arr[7] == 7);
  omp_destroy_allocator(a);
  puts("ok");
  return 0;
}
