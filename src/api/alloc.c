/* omp_* routines of memory management: allocation, allocators and def-allocator-var
 * (src/core/alloc.c is the allocator behind them). */
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "omp.h"

/* omp.h's handles and traits are core's (alloc.h), value for value */
_Static_assert(sizeof(omp_allocator_handle_t) == sizeof(tomp_allocator_t), "allocator handle");
_Static_assert(sizeof(omp_memspace_handle_t) == sizeof(tomp_memspace_t), "memory space handle");
_Static_assert(sizeof(omp_alloctrait_t) == sizeof(tomp_alloctrait_t) &&
                   offsetof(omp_alloctrait_t, key) == offsetof(tomp_alloctrait_t, key) &&
                   offsetof(omp_alloctrait_t, value) == offsetof(tomp_alloctrait_t, value),
               "allocator trait");
_Static_assert((int)omp_default_mem_alloc == TOMP_DEFAULT_MEM_ALLOC &&
                   (int)omp_thread_mem_alloc == TOMP_THREAD_MEM_ALLOC &&
                   (int)omp_low_lat_mem_space == TOMP_LOW_LAT_MEM_SPACE &&
                   (int)omp_atk_partition == TOMP_ATK_PARTITION &&
                   (int)omp_atv_interleaved == TOMP_ATV_INTERLEAVED,
               "allocator values");

/* ---- allocation routines -------------------------------------------------------------------- */

TOMP_EXPORT void *omp_aligned_alloc(size_t alignment, size_t size,
                                    omp_allocator_handle_t allocator) {
  if (size == 0) return NULL;
  return tomp_alloc(alignment, size, allocator, false, "omp_aligned_alloc");
}

TOMP_EXPORT void *omp_alloc(size_t size, omp_allocator_handle_t allocator) {
  if (size == 0) return NULL;
  return tomp_alloc(1, size, allocator, false, "omp_alloc");
}

TOMP_EXPORT void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                                     omp_allocator_handle_t allocator) {
  size_t n;
  if (nmemb == 0 || size == 0) return NULL;
  if (__builtin_mul_overflow(nmemb, size, &n)) n = SIZE_MAX; /* fails, then falls back */
  return tomp_alloc(alignment, n, allocator, true, "omp_aligned_calloc");
}

TOMP_EXPORT void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator) {
  return omp_aligned_calloc(1, nmemb, size, allocator);
}

TOMP_EXPORT void omp_free(void *ptr, omp_allocator_handle_t allocator) {
  (void)allocator; /* the header knows better */
  tomp_free(ptr, "omp_free");
}

TOMP_EXPORT void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                              omp_allocator_handle_t free_allocator) {
  (void)free_allocator; /* the header knows better */
  if (!ptr) return omp_alloc(size, allocator);
  return tomp_realloc(ptr, size, allocator, "omp_realloc");
}

/* ---- allocators ------------------------------------------------------------------------------ */

TOMP_EXPORT omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace,
                                                      int ntraits,
                                                      const omp_alloctrait_t traits[]) {
  return (omp_allocator_handle_t)tomp_allocator_init(
      memspace, ntraits, (const tomp_alloctrait_t *)traits, "omp_init_allocator");
}

TOMP_EXPORT void omp_destroy_allocator(omp_allocator_handle_t allocator) {
  tomp_allocator_destroy(allocator, "omp_destroy_allocator");
}

TOMP_EXPORT void omp_set_default_allocator(omp_allocator_handle_t allocator) {
  if (allocator != omp_null_allocator && !tomp_allocator_valid(allocator)) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      tomp_warn("%s: invalid allocator handle (ignored)", "omp_set_default_allocator");
    return;
  }
  tomp_icv()->def_allocator = allocator;
}

TOMP_EXPORT omp_allocator_handle_t omp_get_default_allocator(void) {
  return (omp_allocator_handle_t)tomp_allocator_default();
}
