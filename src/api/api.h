/* What the omp_* routines of src/api share.
 *
 * src/api holds every omp_* routine of the OpenMP API once, with its C name and nothing of any
 * compiler's ABI: each front-end (src/gomp) maps its own spellings and symbol versions onto
 * these.  The routines work on the core's state through the core's headers (src/core).
 *
 * Setters given arguments the spec calls invalid or leaves undefined warn once per routine
 * and leave the ICV unchanged (or clamp where the spec says so). */
#ifndef TOMP_API_H
#define TOMP_API_H

#include "internal.h"

#define WARN_ONCE(...)                                                                             \
  do {                                                                                             \
    static int warned_;                                                                            \
    if (!__atomic_exchange_n(&warned_, 1, __ATOMIC_RELAXED)) tomp_warn(__VA_ARGS__);               \
  } while (0)

#endif
