/* ompt_archer.sh: a race-free program touching every synchronisation Archer must understand.
 * Each construct guards a plain shared variable; under Archer TSan must report no race. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(void) {
  int crit = 0, named = 0, bar = 0, sgl = 0, mst = 0, atm = 0, lck = 0, ord = 0, red = 0;
  int tsk = 0, dep = 0, grp = 0, last = -1;
  int nthr = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel num_threads(4)
  {
#pragma omp single
    nthr = omp_get_num_threads();
    /* implicit barrier of single orders nthr's write before the reads below */
#pragma omp critical
    crit++;
#pragma omp critical(archer_named)
    named += 2;
    if (omp_get_thread_num() == 0) bar = 42;
#pragma omp barrier
    CHECK(bar == 42);
#pragma omp barrier
#pragma omp single
    sgl++;
#pragma omp master
    mst++;
#pragma omp barrier
    CHECK(mst == 1);
#pragma omp atomic
    atm++;
    omp_set_lock(&lock);
    lck++;
    omp_unset_lock(&lock);
#pragma omp for ordered schedule(dynamic)
    for (int i = 0; i < 64; i++) {
#pragma omp ordered
      {
        CHECK(last == i - 1);
        last = i;
        ord++;
      }
    }
#pragma omp for reduction(+ : red)
    for (int i = 1; i <= 100; i++) red += i;
#pragma omp single
    {
      for (int i = 0; i < 8; i++) {
#pragma omp task shared(tsk)
        {
#pragma omp atomic
          tsk++;
        }
      }
#pragma omp taskwait
      CHECK(tsk == 8);
      tsk += 100; /* after taskwait the tasks' writes are ordered before this */
      int x = 0;
#pragma omp task depend(out : x) shared(x)
      x = 5;
#pragma omp task depend(in : x) shared(x, dep)
      dep = x + 1;
#pragma omp task depend(inout : x) shared(x)
      x *= 2;
#pragma omp taskwait
      CHECK(dep == 6 && x == 10);
#pragma omp taskgroup
      {
#pragma omp task shared(grp)
        grp = 7;
      }
      CHECK(grp == 7);
      grp++;
    }
  }
  omp_destroy_lock(&lock);
  CHECK(nthr >= 1);
  CHECK(crit == nthr && named == 2 * nthr && sgl == 1 && mst == 1 && atm == nthr && lck == nthr);
  CHECK(ord == 64 && last == 63 && red == 5050 && tsk == 108 && dep == 6 && grp == 8);
  printf("race_free ok (%d threads)\n", nthr);
  return 0;
}
