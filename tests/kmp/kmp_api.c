/* libomp's extension routines a clang program may call (declared by LLVM's omp.h): stack size,
 * blocktime and library mode set and read back, kmp_malloc and friends, affinity masks, and
 * the ompc_* names of the affinity-format routines that clang's omp.h substitutes. */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "../check.h"

int main(void) {
  kmp_set_blocktime(0);
  CHECK(kmp_get_blocktime() == 0);
  kmp_set_blocktime(50);
  CHECK(kmp_get_blocktime() == 50);
  kmp_set_library_turnaround();
  CHECK(kmp_get_library() == 2);
  kmp_set_library_throughput();
  CHECK(kmp_get_library() == 3);
  CHECK(kmp_get_stacksize_s() > 0);
  kmp_set_stacksize_s(4 << 20);
  CHECK(kmp_get_stacksize_s() == 4 << 20);
  int ok = 0;
#pragma omp parallel num_threads(2) reduction(+ : ok)
  {
    char big[1 << 20]; /* the 4 MiB worker stacks hold it */
    memset(big, omp_get_thread_num(), sizeof big);
    ok += big[12345] == omp_get_thread_num();
  }
  CHECK(ok == omp_get_max_threads() || ok == 2);

  char *p = kmp_malloc(100);
  CHECK(p);
  memset(p, 1, 100);
  p = kmp_realloc(p, 1000);
  CHECK(p && p[99] == 1);
  kmp_free(p);
  int *z = kmp_calloc(10, sizeof(int));
  CHECK(z && z[9] == 0);
  kmp_free(z);
  void *a = kmp_aligned_malloc(100, 256);
  CHECK(a && ((uintptr_t)a & 255) == 0);
  kmp_free(a);

  kmp_affinity_mask_t m;
  kmp_create_affinity_mask(&m);
  CHECK(kmp_get_affinity_max_proc() > 0);
  CHECK(kmp_get_affinity(&m) == 0);
  int n = 0;
  for (int c = 0; c < kmp_get_affinity_max_proc(); c++)
    n += kmp_get_affinity_mask_proc(c, &m) == 1;
  CHECK(n >= 1);
  CHECK(kmp_set_affinity(&m) == 0);
  CHECK(kmp_unset_affinity_mask_proc(0, &m) == 0 && kmp_get_affinity_mask_proc(0, &m) == 0);
  CHECK(kmp_set_affinity_mask_proc(0, &m) == 0 && kmp_get_affinity_mask_proc(0, &m) == 1);
  kmp_destroy_affinity_mask(&m);

  /* clang's omp.h turns these into ompc_* calls */
  omp_set_affinity_format("T%n");
  char buf[64];
  size_t len = omp_get_affinity_format(buf, sizeof buf);
  CHECK(len == 3 && strcmp(buf, "T%n") == 0);
  len = omp_capture_affinity(buf, sizeof buf, NULL);
  CHECK(len == 2 && strcmp(buf, "T0") == 0);
  return 0;
}
