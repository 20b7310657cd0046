/* What the GOMP loop entry points share (loop.c: long, loop_ull.c: unsigned long long). */
#ifndef TOMP_GOMP_LOOP_H
#define TOMP_GOMP_LOOP_H

#include "gomp.h"
#include "ws.h"

/* The body of every GOMP_loop_*_next entry point (lo, hi: its two pointer arguments). */
#define TOMP_LOOP_NEXT_ENTRY(lo, hi)                                                               \
  do {                                                                                             \
    TOMP_OBSERVED_PATH(tomp_loop_next_observed, (uint64_t *)(lo), (uint64_t *)(hi));                       \
    return tomp_loop_next_quick((uint64_t *)(lo), (uint64_t *)(hi));                               \
  } while (0)

#endif
