/* Memory allocators (alloc.c): what the allocation routines (src/api/alloc.c) and the
 * front-ends' allocate clauses use.  Handles, spaces and traits are core's own (below, with the
 * spec's values); who names the caller in messages (a bad handle or alignment gets one message and
 * a safe default). */
#ifndef TOMP_ALLOC_H
#define TOMP_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "internal.h"

/* Allocator handles, memory spaces and traits, with the values OpenMP 5.2 gives them (sec.
 * 6.2-6.4; every front-end's omp.h uses the same numbers).  A front-end passes its handles
 * and trait arrays through as these (src/api/alloc.c checks the layouts agree). */
typedef uintptr_t tomp_allocator_t;
typedef uintptr_t tomp_memspace_t;
typedef struct tomp_alloctrait {
  int key; /* TOMP_ATK_* */
  uintptr_t value;
} tomp_alloctrait_t;

/* memory spaces */
enum {
  TOMP_DEFAULT_MEM_SPACE = 0,
  TOMP_LARGE_CAP_MEM_SPACE = 1,
  TOMP_CONST_MEM_SPACE = 2,
  TOMP_HIGH_BW_MEM_SPACE = 3,
  TOMP_LOW_LAT_MEM_SPACE = 4,
};

/* predefined allocators */
enum {
  TOMP_NULL_ALLOCATOR = 0,
  TOMP_DEFAULT_MEM_ALLOC = 1,
  TOMP_LARGE_CAP_MEM_ALLOC = 2,
  TOMP_CONST_MEM_ALLOC = 3,
  TOMP_HIGH_BW_MEM_ALLOC = 4,
  TOMP_LOW_LAT_MEM_ALLOC = 5,
  TOMP_CGROUP_MEM_ALLOC = 6,
  TOMP_PTEAM_MEM_ALLOC = 7,
  TOMP_THREAD_MEM_ALLOC = 8,
};

/* trait keys */
enum {
  TOMP_ATK_SYNC_HINT = 1,
  TOMP_ATK_ALIGNMENT = 2,
  TOMP_ATK_ACCESS = 3,
  TOMP_ATK_POOL_SIZE = 4,
  TOMP_ATK_FALLBACK = 5,
  TOMP_ATK_FB_DATA = 6,
  TOMP_ATK_PINNED = 7,
  TOMP_ATK_PARTITION = 8,
};

/* trait values */
#define TOMP_ATV_DEFAULT ((uintptr_t)-1)
enum {
  TOMP_ATV_FALSE = 0,
  TOMP_ATV_TRUE = 1,
  TOMP_ATV_CONTENDED = 3,
  TOMP_ATV_UNCONTENDED = 4,
  TOMP_ATV_SERIALIZED = 5,
  TOMP_ATV_SEQUENTIAL = TOMP_ATV_SERIALIZED,
  TOMP_ATV_PRIVATE = 6,
  TOMP_ATV_ALL = 7,
  TOMP_ATV_THREAD = 8,
  TOMP_ATV_PTEAM = 9,
  TOMP_ATV_CGROUP = 10,
  TOMP_ATV_DEFAULT_MEM_FB = 11,
  TOMP_ATV_NULL_FB = 12,
  TOMP_ATV_ABORT_FB = 13,
  TOMP_ATV_ALLOCATOR_FB = 14,
  TOMP_ATV_ENVIRONMENT = 15,
  TOMP_ATV_NEAREST = 16,
  TOMP_ATV_BLOCKED = 17,
  TOMP_ATV_INTERLEAVED = 18,
};

/* size bytes (size > 0) aligned to alignment (0: none requested) from allocator
 * (TOMP_NULL_ALLOCATOR: def-allocator-var), zeroed if zero; the allocator's fallback decides
 * what a failure returns. */
void *tomp_alloc(size_t alignment, size_t size, tomp_allocator_t allocator, bool zero,
                 const char *who) TOMP_HIDDEN;
/* Free a block tomp_alloc returned (NULL: nothing); the block knows its allocator. */
void tomp_free(void *ptr, const char *who) TOMP_HIDDEN;
/* Move the block ptr (not NULL) to size bytes from allocator (TOMP_NULL_ALLOCATOR: the
 * block's own); size 0 frees it.  NULL if the new block cannot be had (ptr stays valid). */
void *tomp_realloc(void *ptr, size_t size, tomp_allocator_t allocator, const char *who) TOMP_HIDDEN;

/* A new allocator in memspace with the given traits; TOMP_NULL_ALLOCATOR (and a message) if
 * the memory space, a trait or the trait array is not valid. */
tomp_allocator_t tomp_allocator_init(tomp_memspace_t memspace, long ntraits,
                                     const tomp_alloctrait_t traits[], const char *who) TOMP_HIDDEN;
/* Destroy an allocator tomp_allocator_init made (predefined ones and null are left alone). */
void tomp_allocator_destroy(tomp_allocator_t allocator, const char *who) TOMP_HIDDEN;
/* Whether allocator is a predefined allocator or one tomp_allocator_init made. */
bool tomp_allocator_valid(tomp_allocator_t allocator) TOMP_HIDDEN;
/* The calling task's def-allocator-var (OMP_ALLOCATOR, else TOMP_DEFAULT_MEM_ALLOC, until the
 * program sets it). */
tomp_allocator_t tomp_allocator_default(void) TOMP_HIDDEN;

#endif
