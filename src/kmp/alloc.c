/* Memory allocators of LLVM's ABI (allocate clauses and directives, depobj arrays,
 * uses_allocators): the omp_* routines of src/api under libomp's entry points.  Allocator handles
 * have the specification's values in both compilers' omp.h. */
#include "ktask.h"
#include "omp.h"

TOMP_EXPORT void *__kmpc_alloc(kmp_int32 gtid, size_t size, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  return omp_alloc(size, (omp_allocator_handle_t)allocator);
}

TOMP_EXPORT void *__kmpc_aligned_alloc(kmp_int32 gtid, size_t align, size_t size,
                                       uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  return omp_aligned_alloc(align, size, (omp_allocator_handle_t)allocator);
}

TOMP_EXPORT void *__kmpc_calloc(kmp_int32 gtid, size_t nmemb, size_t size, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  return omp_calloc(nmemb, size, (omp_allocator_handle_t)allocator);
}

TOMP_EXPORT void *__kmpc_realloc(kmp_int32 gtid, void *ptr, size_t size, uintptr_t allocator,
                                 uintptr_t free_allocator) {
  TOMP_ENTRY(tomp_thread());
  return omp_realloc(ptr, size, (omp_allocator_handle_t)allocator,
                     (omp_allocator_handle_t)free_allocator);
}

TOMP_EXPORT void __kmpc_free(kmp_int32 gtid, void *ptr, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  omp_free(ptr, (omp_allocator_handle_t)allocator);
}

TOMP_EXPORT uintptr_t __kmpc_init_allocator(kmp_int32 gtid, uintptr_t memspace, int ntraits,
                                            void *traits) {
  TOMP_ENTRY(tomp_thread());
  return (uintptr_t)omp_init_allocator((omp_memspace_handle_t)memspace, ntraits,
                                       (const omp_alloctrait_t *)traits);
}

TOMP_EXPORT void __kmpc_destroy_allocator(kmp_int32 gtid, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  omp_destroy_allocator((omp_allocator_handle_t)allocator);
}

TOMP_EXPORT void __kmpc_set_default_allocator(kmp_int32 gtid, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  omp_set_default_allocator((omp_allocator_handle_t)allocator);
}

TOMP_EXPORT uintptr_t __kmpc_get_default_allocator(kmp_int32 gtid) {
  TOMP_ENTRY(tomp_thread());
  return (uintptr_t)omp_get_default_allocator();
}
