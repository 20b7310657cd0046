/* threadprivate without TLS: clang -fnoopenmp-use-tls calls __kmpc_threadprivate_cached for
 * every access.  Each thread has its own copy, initialised as the variable was (not with the
 * value the initial thread wrote since), persisting across regions with the same team;
 * copyin broadcasts the initial thread's value.
 * test-cflags: -fnoopenmp-use-tls
 */
#include <omp.h>

#include "../check.h"

static int counter = 7;
static double vec[4] = {1, 2, 3, 4};
#pragma omp threadprivate(counter, vec)

int main(void) {
  omp_set_dynamic(0);
  counter = 100; /* the initial thread's copy only */
  int seen[4] = {-1, -1, -1, -1}, addr_bad = 0;
  int *addrs[4];
#pragma omp parallel num_threads(4)
  {
    int t = omp_get_thread_num();
    seen[t] = counter;
    addrs[t] = &counter;
    counter += t;
    vec[t] *= 10;
  }
  CHECK(seen[0] == 100);
  for (int t = 1; t < 4; t++)
    CHECKF(seen[t] == 7, "thread %d saw %d", t, seen[t]);
  for (int t = 0; t < 4; t++)
    for (int u = 0; u < t; u++)
      if (addrs[t] == addrs[u]) addr_bad = 1;
  CHECK(!addr_bad);
  CHECK(counter == 100 && vec[0] == 10 && vec[1] == 2);

  /* persistence: the same team sees its copies again */
#pragma omp parallel num_threads(4)
  {
    int t = omp_get_thread_num();
    seen[t] = counter;
  }
  for (int t = 1; t < 4; t++)
    CHECKF(seen[t] == 7 + t, "thread %d kept %d", t, seen[t]);

  /* copyin */
  counter = 55;
#pragma omp parallel num_threads(4) copyin(counter)
  seen[omp_get_thread_num()] = counter;
  for (int t = 0; t < 4; t++)
    CHECK(seen[t] == 55);
  return 0;
}
