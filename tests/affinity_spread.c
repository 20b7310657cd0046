/* proc_bind(spread): with no more threads than places every thread gets its own place and a
 * sub-partition of its own (disjoint, covering the parent partition, holding the thread's
 * place); nested close regions stay inside the sub-partition.
 * test-env: OMP_PROC_BIND=spread,close OMP_PLACES=threads
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
  int P = omp_get_num_places();
  CHECK(P >= 1 && P <= 256);
  CHECK(omp_get_proc_bind() == omp_proc_bind_spread);
  CHECK(omp_get_max_active_levels() >= 2); /* a two-element OMP_PROC_BIND list */
  int T = P < 4 ? P : 4;
  int place[4], nparts[4], parts[4][256], bound[4], inner_bind[4], inner_ok[4];
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    place[t] = omp_get_place_num();
    bound[t] = on_place(place[t]);
    nparts[t] = omp_get_partition_num_places();
    omp_get_partition_place_nums(parts[t]);
    inner_bind[t] = omp_get_proc_bind();
    /* nested close region: its threads stay in this thread's sub-partition */
    int ok = 1;
#pragma omp parallel num_threads(2)
    {
      int p = omp_get_place_num(), in = 0;
      for (int i = 0; i < nparts[t]; i++) in |= parts[t][i] == p;
      if (!in || !on_place(p)) __atomic_store_n(&ok, 0, __ATOMIC_RELAXED);
    }
    inner_ok[t] = ok;
  }
  int covered[256] = {0};
  for (int t = 0; t < T; t++) {
    CHECK(bound[t]);
    CHECK(inner_bind[t] == omp_proc_bind_close);
    CHECK(inner_ok[t]);
    CHECK(nparts[t] >= P / T && nparts[t] <= (P + T - 1) / T);
    int in = 0;
    for (int i = 0; i < nparts[t]; i++) {
      in |= parts[t][i] == place[t];
      covered[parts[t][i]]++;
      if (i) CHECK(parts[t][i] == parts[t][i - 1] + 1);
    }
    CHECK(in);
    for (int u = 0; u < t; u++) CHECK(place[u] != place[t]);
  }
  for (int p = 0; p < P; p++) CHECK(covered[p] == 1);

  /* more threads than places: every thread's partition is its single place */
  int n2 = 2 * P + 1 > 64 ? 64 : 2 * P + 1, pl[64], np[64], pp[64];
#pragma omp parallel num_threads(n2)
  {
    int t = omp_get_thread_num();
    pl[t] = omp_get_place_num();
    np[t] = omp_get_partition_num_places();
    omp_get_partition_place_nums(&pp[t]);
    bound[t % 4] = on_place(pl[t]);
  }
  for (int t = 0; t < n2; t++) CHECK(np[t] == 1 && pp[t] == pl[t]);
  printf("affinity_spread ok (%d places)\n", P);
  return 0;
}
