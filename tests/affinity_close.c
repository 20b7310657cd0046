/* proc_bind(close) / primary on one place per hardware thread: every thread's CPU mask is
 * its place's processors, places follow the master's in thread order, partitions stay
 * whole.  (More threads than places: affinity_close_oversub.c.)
 * test-env: OMP_PROC_BIND=close OMP_PLACES=threads
 * test-gcc-only: clang 14 rejects proc_bind(primary)
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* true if the calling thread's affinity mask is exactly place p */
static int on_place(int p) {
  int ids[1024], n = omp_get_place_num_procs(p);
  omp_get_place_proc_ids(p, ids);
  cpu_set_t s;
  if (sched_getaffinity(0, sizeof s, &s)) return 0;
  if (CPU_COUNT(&s) != n) return 0;
  for (int i = 0; i < n; i++)
    if (!CPU_ISSET(ids[i], &s)) return 0;
  return 1;
}

int main(void) {
  int P = omp_get_num_places();
  CHECK(P >= 1 && P <= 1024);
  CHECK(omp_get_proc_bind() == omp_proc_bind_close);
  for (int i = 0; i < P; i++) CHECK(omp_get_place_num_procs(i) == 1);
  /* the initial thread is bound too */
  int m = omp_get_place_num();
  CHECK(m >= 0 && m < P && on_place(m));
  CHECK(omp_get_partition_num_places() == P);

  int places[64], bound[64], parts[64];
  for (int T = 1; T <= P && T <= 64; T++) {
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
      places[t] = omp_get_place_num();
      bound[t] = on_place(places[t]);
      parts[t] = omp_get_partition_num_places();
    }
    int per_place[1024] = {0};
    for (int t = 0; t < T; t++) {
      CHECK(bound[t]);
      CHECK(parts[t] == P);
      per_place[places[t]]++;
      CHECK(places[t] == (m + t) % P);
    }
    CHECK(places[0] == m);
    for (int p = 0; p < P; p++) CHECK(per_place[p] <= 1);
  }

  /* primary: everybody on the master's place */
#pragma omp parallel num_threads(3) proc_bind(primary)
  {
    places[omp_get_thread_num()] = omp_get_place_num();
    bound[omp_get_thread_num()] = on_place(omp_get_place_num());
  }
  for (int t = 0; t < 3; t++) CHECK(places[t] == m && bound[t]);

  /* after those, a close region puts the workers back where close wants them */
#pragma omp parallel num_threads(2)
  {
    places[omp_get_thread_num()] = omp_get_place_num();
    bound[omp_get_thread_num()] = on_place(omp_get_place_num());
  }
  CHECK(places[1] == (m + 1) % P && bound[0] && bound[1]);
  printf("affinity_close ok (%d places)\n", P);
  return 0;
}
