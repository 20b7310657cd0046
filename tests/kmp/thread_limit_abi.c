/* __kmpc_set_thread_limit, which newer clangs call for `target thread_limit(n)` run on the
 * host: the calling task's thread-limit-var becomes n (omp_get_thread_limit reads it, a
 * parallel region in the task gets at most n threads), the task's parent keeps its own, and a
 * limit that is not positive is ignored.
 * test-no-libomp: libomp 14 lacks the entry point (LLVM 17 on: validated by hand on a libomp 19
 * built by tools/llvm-ompt-tests.sh) */
#include <omp.h>
#include <stdint.h>

#include "../check.h"

void __kmpc_set_thread_limit(void *loc, int32_t gtid, int32_t limit) __attribute__((weak));
int32_t __kmpc_global_thread_num(void *loc);

/* clang -O2 (OpenMPOpt) folds repeated calls of an ICV getter when it sees no setter between
 * them, and it does not know __kmpc_set_thread_limit: call the getter through a pointer. */
static int (*volatile get_limit)(void) = omp_get_thread_limit;

int main(void) {
  CHECK(__kmpc_set_thread_limit != NULL);
  omp_set_dynamic(0);
  int before = get_limit();
  CHECK(before > 2);
  int limit = 0, team = 0, kept = 0;
#pragma omp task shared(limit, team, kept)
  {
    int32_t gtid = __kmpc_global_thread_num(NULL);
    __kmpc_set_thread_limit(NULL, gtid, 2);
    limit = get_limit();
#pragma omp parallel num_threads(4)
#pragma omp single
    team = omp_get_num_threads();
    __kmpc_set_thread_limit(NULL, gtid, 0); /* ignored */
    __kmpc_set_thread_limit(NULL, gtid, -3);
    kept = get_limit();
  }
#pragma omp taskwait
  CHECKF(limit == 2 && kept == 2, "limit %d, then %d", limit, kept);
  CHECKF(team >= 1 && team <= 2, "a team of %d under thread_limit 2", team);
  int after = get_limit();
  CHECKF(after == before, "the parent's limit became %d (was %d)", after, before);
  int n = 0;
#pragma omp parallel num_threads(4) reduction(+ : n)
  n += 1;
  CHECK(n == 4);
  puts("ok");
  return 0;
}
