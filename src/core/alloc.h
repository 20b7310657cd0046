/* Memory allocators (alloc.c): what the allocation routines (src/api/alloc.c) and the
 * front-ends' allocate clauses use.  Handles are omp.h's; who names the caller in messages
 * (a bad handle or alignment gets one message and a safe default). */
#ifndef TOMP_ALLOC_H
#define TOMP_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"
#include "omp.h"

/* size bytes (size > 0) aligned to alignment (0: none requested) from allocator
 * (omp_null_allocator: def-allocator-var), zeroed if zero; the allocator's fallback decides
 * what a failure returns. */
void *tomp_alloc(size_t alignment, size_t size, omp_allocator_handle_t allocator, bool zero,
                 const char *who) TOMP_HIDDEN;
/* Free a block tomp_alloc returned (NULL: nothing); the block knows its allocator. */
void tomp_free(void *ptr, const char *who) TOMP_HIDDEN;
/* Move the block ptr (not NULL) to size bytes from allocator (omp_null_allocator: the
 * block's own); size 0 frees it.  NULL if the new block cannot be had (ptr stays valid). */
void *tomp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                   const char *who) TOMP_HIDDEN;

/* A new allocator in memspace with the given traits; omp_null_allocator (and a message) if
 * the memory space, a trait or the trait array is not valid. */
omp_allocator_handle_t tomp_allocator_init(omp_memspace_handle_t memspace, long ntraits,
                                           const omp_alloctrait_t traits[],
                                           const char *who) TOMP_HIDDEN;
/* Destroy an allocator tomp_allocator_init made (predefined ones and null are left alone). */
void tomp_allocator_destroy(omp_allocator_handle_t allocator, const char *who) TOMP_HIDDEN;
/* Whether allocator is a predefined allocator or one tomp_allocator_init made. */
bool tomp_allocator_valid(omp_allocator_handle_t allocator) TOMP_HIDDEN;
/* The calling task's def-allocator-var (OMP_ALLOCATOR, else omp_default_mem_alloc, until the
 * program sets it). */
omp_allocator_handle_t tomp_allocator_default(void) TOMP_HIDDEN;

#endif
