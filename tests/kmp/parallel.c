/* LLVM ABI parallel regions: __kmpc_fork_call with shared-argument counts from 0 to well past
 * the six a register can carry (the microtask gets them in registers and on the stack),
 * num_threads and proc_bind pushed for one region only, if(false) as a serialized region,
 * nested regions, the barrier, and the gtid every entry point receives. */
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "../check.h"

/* the entry points clang calls, to check what they answer */
typedef struct ident ident_t;
int __kmpc_global_thread_num(ident_t *);
int __kmpc_bound_thread_num(ident_t *);
int __kmpc_bound_num_threads(ident_t *);
int __kmpc_in_parallel(ident_t *);

int main(void) {
  omp_set_dynamic(0);
  /* no shared variable at all */
  int hits = 0;
  static int sum0;
#pragma omp parallel num_threads(3)
  __atomic_add_fetch(&sum0, 1, __ATOMIC_RELAXED);
  CHECK(sum0 == 3);

  /* 12 shared variables: 2 + 12 microtask arguments, 8 of them on the stack */
  long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11, l = 12;
  long total = 0;
#pragma omp parallel num_threads(4) shared(a, b, c, d, e, f, g, h, i, j, k, l, total, hits)
  {
    long s = a + b + c + d + e + f + g + h + i + j + k + l;
    __atomic_add_fetch(&total, s, __ATOMIC_RELAXED);
    __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    if (omp_get_thread_num() == 0) l = 100; /* writes reach the shared variable */
  }
  CHECK(hits == 4);
  CHECKF(total == 4 * 78, "total %ld", total);
  CHECK(l == 100);

  /* many shared arrays (odd count: the stack part is padded to 16 bytes) */
  int v0[4] = {0}, v1[4] = {0}, v2[4] = {0}, v3[4] = {0}, v4[4] = {0}, v5[4] = {0}, v6[4] = {0},
      v7[4] = {0}, v8[4] = {0}, v9[4] = {0}, v10[4] = {0}, v11[4] = {0}, v12[4] = {0}, v13[4] = {0},
      v14[4] = {0}, v15[4] = {0}, v16[4] = {0}, v17[4] = {0}, v18[4] = {0};
#pragma omp parallel num_threads(4)
  {
    int t = omp_get_thread_num();
    v0[t] = v1[t] = v2[t] = v3[t] = v4[t] = v5[t] = v6[t] = v7[t] = v8[t] = v9[t] = t + 1;
    v10[t] = v11[t] = v12[t] = v13[t] = v14[t] = v15[t] = v16[t] = v17[t] = v18[t] = t + 1;
  }
  for (int t = 0; t < 4; t++) {
    CHECK(v0[t] == t + 1 && v5[t] == t + 1 && v9[t] == t + 1 && v13[t] == t + 1);
    CHECK(v17[t] == t + 1 && v18[t] == t + 1);
  }

  /* num_threads applies to one region only */
  omp_set_num_threads(2);
  int n1 = 0, n2 = 0;
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) n1 = omp_get_num_threads();
#pragma omp parallel
  if (omp_get_thread_num() == 0) n2 = omp_get_num_threads();
  CHECK(n1 == 3 && n2 == 2);

  /* proc_bind: the region sees the clause (the policy of the binding region) */
  int pb = -1;
#pragma omp parallel num_threads(2) proc_bind(spread)
  if (omp_get_thread_num() == 0) pb = omp_get_proc_bind();
  (void)pb; /* what an unbound place list reports differs; the region must run */

  /* if(false): a serialized region, a team of one */
  int ser_n = 0, ser_lvl = 0, ser_act = -1;
  int cond = 0;
#pragma omp parallel if (cond) num_threads(4)
  {
    ser_n = omp_get_num_threads();
    ser_lvl = omp_get_level();
    ser_act = omp_get_active_level();
  }
  CHECK(ser_n == 1 && ser_lvl == 1 && ser_act == 0);
  CHECK(omp_get_level() == 0);

  /* nested regions: gtids are distinct across the whole process, tids per team */
  omp_set_max_active_levels(2);
  int gtids[4][2], live = 0;
  memset(gtids, -1, sizeof gtids);
#pragma omp parallel num_threads(2)
  {
    int o = omp_get_thread_num();
#pragma omp parallel num_threads(2)
    {
      int in = omp_get_thread_num();
      /* the four wait for each other, so that all are alive at once: a thread of an inner
       * team that has ended may serve the other one (libomp does so under load) */
      __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST);
      double t0 = omp_get_wtime();
      while (__atomic_load_n(&live, __ATOMIC_SEQ_CST) < 4 && omp_get_wtime() - t0 < 30)
        sched_yield();
      CHECK(__kmpc_bound_thread_num(NULL) == in);
      CHECK(__kmpc_bound_num_threads(NULL) == 2);
      CHECK(__kmpc_in_parallel(NULL));
      gtids[o * 2 + in][0] = __kmpc_global_thread_num(NULL);
      gtids[o * 2 + in][1] = omp_get_level();
    }
  }
  CHECK(live == 4);
  for (int x = 0; x < 4; x++) {
    CHECK(gtids[x][1] == 2 && gtids[x][0] >= 0);
    for (int y = 0; y < x; y++)
      CHECK(gtids[x][0] != gtids[y][0]);
  }
  CHECK(!__kmpc_in_parallel(NULL));

  /* barriers: every thread's phase-1 write is seen by all in phase 2, over many rounds */
  int phase[4];
  int bad = 0;
#pragma omp parallel num_threads(4)
  {
    int t = omp_get_thread_num();
    for (int r = 0; r < 200; r++) {
      __atomic_store_n(&phase[t], r, __ATOMIC_RELAXED);
#pragma omp barrier
      for (int u = 0; u < 4; u++)
        if (__atomic_load_n(&phase[u], __ATOMIC_RELAXED) != r)
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    }
  }
  CHECK(bad == 0);
  return 0;
}
