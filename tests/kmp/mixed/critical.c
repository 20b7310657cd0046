/* The mixed-ABI scenario's critical sections: a clang-built program and the gcc-built library
 * it calls enter critical sections of the same name at the same time, the unnamed one and a
 * named one.  OpenMP 5.2 15.2: critical constructs with the same name (all unnamed ones have
 * the same unspecified name) exclude each other whichever compiler built them, so in one
 * process on one runtime nobody may ever be inside a section while another thread is inside
 * one of the same name (each side yields the CPU inside, so separate locks are caught). */
#include <omp.h>
#include <stdio.h>

#include "../../check.h"
#include "gcclib.h"

enum { T = 4, TIMES = 2000 };

int main(void) {
  omp_set_dynamic(0);
  gcc_crit_t unnamed = {0}, named = {0};
  int team = 0;
#pragma omp parallel num_threads(T)
  {
    team = omp_get_num_threads();
    if (omp_get_thread_num() % 2) {
      gcc_unnamed_critical(&unnamed, TIMES);
      gcc_named_critical(&named, TIMES);
    } else {
      for (int i = 0; i < TIMES; i++) {
#pragma omp critical
        crit_body(&unnamed);
      }
      for (int i = 0; i < TIMES; i++) {
#pragma omp critical(mixed_named)
        crit_body(&named);
      }
    }
  }
  CHECK(team == T);
  CHECKF(unnamed.overlaps == 0 && unnamed.count == (long)T * TIMES,
         "unnamed critical: %d overlaps, count %ld of %ld", unnamed.overlaps, unnamed.count,
         (long)T * TIMES);
  CHECKF(named.overlaps == 0 && named.count == (long)T * TIMES,
         "critical(mixed_named): %d overlaps, count %ld of %ld", named.overlaps, named.count,
         (long)T * TIMES);
  puts("ok");
  return 0;
}
