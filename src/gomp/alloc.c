/* gcc's allocate clause and directive: GOMP_alloc, GOMP_free. */
#include "gomp.h"
#include "omp.h"

TOMP_EXPORT void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  void *p = omp_aligned_alloc(alignment, size, (omp_allocator_handle_t)allocator);
  /* the allocate clause has no way to report failure */
  if (tomp_unlikely(!p && size))
    tomp_fatal("out of memory allocating %zu bytes for an allocate clause", size);
  return p;
}

TOMP_EXPORT void GOMP_free(void *ptr, uintptr_t allocator) {
  TOMP_ENTRY(tomp_thread());
  omp_free(ptr, (omp_allocator_handle_t)allocator);
}
