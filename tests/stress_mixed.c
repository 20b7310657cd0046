/* Constructs mixed in one program, repeated: worksharing loops that spawn tasks, sections,
 * single with copyprivate, named and unnamed critical, locks, ordered, taskgroup, task
 * reductions, nested regions and explicit barriers, each result checked every round.
 * test-env: OMP_MAX_ACTIVE_LEVELS=2
 * test-timeout: 120
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define N 2000

static int data[N];

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  for (int round = 0; round < 40; round++) {
    int nthr = 2 + round % 3;
    long loop_tasks = 0, crit = 0, named = 0, locked = 0, red = 0, tg = 0;
    int sec[3] = {0, 0, 0};
    int ordered_next = 0, ordered_bad = 0;
    int nested_total = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : red)
    {
      int me = omp_get_thread_num();
      /* a dynamic loop whose iterations spawn tasks */
#pragma omp for schedule(dynamic, 7)
      for (int i = 0; i < N; i++) {
        data[i] = 0;
        if (i % 50 == 0) {
#pragma omp task firstprivate(i)
          {
            long s = 0;
            for (int j = i; j < i + 50; j++) s += j;
            CHECK(s == 50L * i + 1225);
            __atomic_add_fetch(&loop_tasks, 1, __ATOMIC_RELAXED);
          }
        }
      }
      /* the loop's barrier waited for those tasks */
      CHECK(loop_tasks == N / 50);

#pragma omp sections
      {
#pragma omp section
        sec[0]++;
#pragma omp section
        sec[1]++;
#pragma omp section
        sec[2]++;
      }

      int token;
#pragma omp single copyprivate(token)
      token = round * 7 + 1;
      CHECK(token == round * 7 + 1);

      for (int k = 0; k < 20; k++) {
#pragma omp critical
        crit++;
#pragma omp critical(other)
        named += 2;
        omp_set_lock(&lock);
        locked += 3;
        omp_unset_lock(&lock);
      }

#pragma omp for ordered schedule(dynamic)
      for (int i = 0; i < 200; i++) {
#pragma omp ordered
        {
          if (ordered_next != i) ordered_bad = 1;
          ordered_next = i + 1;
        }
      }

#pragma omp for schedule(guided) nowait
      for (int i = 0; i < N; i++) data[i] = i;
#pragma omp barrier
      for (int i = me; i < N; i += nthr) red += data[i];

#pragma omp single
      {
#pragma omp taskgroup task_reduction(+ : tg)
        {
          for (int t = 1; t <= 100; t++) {
#pragma omp task in_reduction(+ : tg) firstprivate(t)
            tg += t;
          }
        }
        CHECK(tg == 5050);
      }

      if (me == 0) {
#pragma omp parallel num_threads(2)
#pragma omp atomic
        nested_total++;
      }
    }
    CHECK(crit == 20L * nthr);
    CHECK(named == 40L * nthr);
    CHECK(locked == 60L * nthr);
    CHECK(sec[0] == 1 && sec[1] == 1 && sec[2] == 1);
    CHECK(!ordered_bad && ordered_next == 200);
    CHECK(red == (long)N * (N - 1) / 2);
    CHECK(nested_total == 2);
  }
  omp_destroy_lock(&lock);
  puts("ok");
  return 0;
}
