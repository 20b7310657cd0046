/* The runtime side of OMPD (OpenMP 5.2 chapter 20): what libtomp exports for a debugger.
 *   ompd.c    OMP_DEBUG, ompd_dll_locations, the breakpoint functions and the observer
 *             that calls them (it listens only when OMP_DEBUG=enabled)
 *   layout.c  tomp_ompd_layout, the sizes and offsets a debugger's OMPD library reads
 *             (contract: ompd_layout.h) */
#ifndef TOMP_OMPD_RT_H
#define TOMP_OMPD_RT_H

#include "ompd_layout.h"

extern const tomp_ompd_layout_t tomp_ompd_layout TOMP_EXPORT;

#endif
