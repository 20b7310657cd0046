/* proc_bind(close) with more threads than places (OpenMP 5.1, 2.6.2): each place holds
 * floor(T/P) or ceil(T/P) threads with consecutive thread numbers, starting at the master's
 * place, and every thread is really bound there.
 * test-env: OMP_PROC_BIND=close OMP_PLACES=threads
 * test-libgomp-fails: libgomp 12 reuses pooled threads without re-placing them (T=4 on 2 places gives places 0 0 1 0)
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int on_place(int p) {
  int ids[1024], n = omp_get_place_num_procs(p);
  omp_get_place_proc_ids(p, ids);
  cpu_set_t s;
  if (sched_getaffinity(0, sizeof s, &s) || CPU_COUNT(&s) != n) return 0;
  for (int i = 0; i < n; i++)
    if (!CPU_ISSET(ids[i], &s)) return 0;
  return 1;
}

int main(void) {
  int P = omp_get_num_places(), m = omp_get_place_num();
  CHECK(P >= 1 && P <= 16 && m >= 0);
  int places[64], bound[64];
  for (int T = P + 1; T <= 4 * P + 1; T++) {
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
      places[t] = omp_get_place_num();
      bound[t] = on_place(places[t]);
    }
    int per_place[16] = {0};
    CHECK(places[0] == m);
    for (int t = 0; t < T; t++) {
      CHECK(bound[t]);
      per_place[places[t]]++;
      /* consecutive numbers: the place advances by 0 or 1 (in the master's rotation) */
      if (t) {
        int step = ((places[t] - places[t - 1]) % P + P) % P;
        CHECK(step == 0 || step == 1);
      }
    }
    for (int p = 0; p < P; p++) CHECK(per_place[p] >= T / P && per_place[p] <= (T + P - 1) / P);
  }
  printf("affinity_close_oversub ok (%d places)\n", P);
  return 0;
}
