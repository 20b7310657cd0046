/* omp_atk_pool_size bounds all the memory an allocator uses, each block's bookkeeping
 * included, as libgomp and libomp count it: in a pool the size of two 1 MiB blocks only one
 * 1 MiB block fits, and with null_fb the other request gets NULL (sequentially, and from two
 * threads at once: exactly one of them); freed, the block fits again; with default_mem_fb
 * the second block comes from omp_default_mem_alloc.  Failed before (tomp counted only the
 * bytes requested, so both blocks fitted: LLVM's api/omp_alloc_null_fb.c and
 * omp_alloc_hbw.c). */
#include <omp.h>
#include <string.h>

#include "check.h"

#define MB (1024 * 1024)

int main(void) {
  omp_alloctrait_t t[] = {{omp_atk_pool_size, 2 * MB}, {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, t);
  CHECK(a != omp_null_allocator);

  void *p = omp_alloc(MB, a);
  CHECK(p != NULL);
  memset(p, 1, MB);
  CHECK(omp_alloc(MB, a) == NULL); /* the first block's overhead is in the pool too */
  void *q = omp_alloc(MB / 2, a);  /* what is left is still usable */
  CHECK(q != NULL);
  omp_free(q, a);
  omp_free(p, a);
  p = omp_alloc(MB, a); /* freed: fits again */
  CHECK(p != NULL);
  omp_free(p, a);

  /* two threads at once: exactly one gets its block */
  void *got[2] = {NULL, NULL};
#pragma omp parallel num_threads(2)
  {
    int i = omp_get_thread_num();
#pragma omp barrier
    got[i] = omp_alloc(MB, a);
#pragma omp barrier
    omp_free(got[i], a);
  }
  CHECKF((got[0] == NULL) != (got[1] == NULL), "blocks %p %p", got[0], got[1]);
  omp_destroy_allocator(a);

  /* default_mem_fb: the second block comes from the default allocator */
  t[1].value = omp_atv_default_mem_fb;
  a = omp_init_allocator(omp_default_mem_space, 2, t);
  CHECK(a != omp_null_allocator);
  p = omp_alloc(MB, a);
  q = omp_alloc(MB, a);
  CHECK(p != NULL && q != NULL);
  memset(q, 2, MB);
  omp_free(q, a);
  omp_free(p, a);
  omp_destroy_allocator(a);
  return 0;
}
