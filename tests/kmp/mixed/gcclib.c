/* The gcc-built half of the mixed-ABI scenario (tests/scenarios/mixed_abi.sh): a library whose
 * functions open parallel regions through GCC's ABI (GOMP_*). */
#include <omp.h>
#include <sched.h>

#include "gcclib.h"

long gcc_sum(int n) {
  long s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 3)
  for (int i = 1; i <= n; i++)
    s += i;
  return s;
}

void gcc_region(gcc_seen_t *out) {
  out->outer_level = omp_get_level();
  out->outer_team = omp_get_num_threads();
  int threads = 0;
#pragma omp parallel reduction(+ : threads)
  {
    threads += 1;
#pragma omp single
    {
      out->level = omp_get_level();
      out->active_level = omp_get_active_level();
      out->team = omp_get_num_threads();
      out->parent_team = omp_get_team_size(omp_get_level() - 1);
    }
  }
  out->threads = threads;
}

void gcc_critical_add(long *x, int times) {
  for (int i = 0; i < times; i++) {
#pragma omp critical(mixed_counter)
    *x += 1;
  }
}

/* Inside: note whether another thread is too, let the others run, update the count. */
void crit_body(gcc_crit_t *c) {
  if (__atomic_add_fetch(&c->inside, 1, __ATOMIC_ACQ_REL) != 1)
    __atomic_add_fetch(&c->overlaps, 1, __ATOMIC_RELAXED);
  long v = __atomic_load_n(&c->count, __ATOMIC_RELAXED);
  sched_yield();
  __atomic_store_n(&c->count, v + 1, __ATOMIC_RELAXED);
  __atomic_sub_fetch(&c->inside, 1, __ATOMIC_ACQ_REL);
}

void gcc_unnamed_critical(gcc_crit_t *c, int times) {
  for (int i = 0; i < times; i++) {
#pragma omp critical
    crit_body(c);
  }
}

void gcc_named_critical(gcc_crit_t *c, int times) {
  for (int i = 0; i < times; i++) {
#pragma omp critical(mixed_named)
    crit_body(c);
  }
}
