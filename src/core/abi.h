/* Which compilers' OpenMP code the process has loaded (abi.c).  Where OpenMP leaves a choice
 * to the implementation, tomp answers as the incumbent runtime of the program's compiler does:
 * libomp for a process whose OpenMP code is all clang's, libgomp otherwise (docs/kmp-abi.md,
 * "Implementation-defined choices").  OMPT uses the same answer for what ompt_set_callback
 * promises (src/ompt/entry.c). */
#ifndef TOMP_ABI_H
#define TOMP_ABI_H

#include <stdbool.h>

#include "internal.h"

enum { TOMP_ABI_GNU = 1, TOMP_ABI_LLVM = 2 };

/* TOMP_ABI_* of the OpenMP code loaded when first asked (scanned once, then cached; an object
 * dlopen'ed later is not seen); 0 when no loaded object uses an OpenMP runtime's symbols. */
int tomp_loaded_abis(void) TOMP_HIDDEN;

/* Only clang-built OpenMP code is loaded: libomp's implementation-defined choices apply. */
static inline bool tomp_llvm_only(void) {
  return tomp_loaded_abis() == TOMP_ABI_LLVM;
}

#endif
