/* Thread numbers: the gtid every __kmpc_* entry point takes is the thread table's number
 * (src/core/thread_table.h), so a clang program, OMPD and OMPT name a thread alike. */
#include "kmp.h"

TOMP_EXPORT kmp_int32 __kmpc_global_thread_num(ident_t *loc) {
  (void)loc;
  return tomp_kmp_gtid();
}
