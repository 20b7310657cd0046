/* Task reductions as clang compiles them, where the runtime makes, initialises and combines
 * the private copies: taskgroup task_reduction with in_reduction tasks (several items, an
 * array section of 48 bytes, a user-defined reduction with an initializer, nested taskgroups
 * reducing the same variable) and taskloop reduction (task_red_modifier.c has the task
 * modifier).  clang 14 passes an array section's element size as the item's: the runtime
 * must give each copy a cache line, as libomp does. */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

typedef struct {
  long lo, hi;
} range_t;
static void range_init(range_t *r) {
  r->lo = 1L << 40;
  r->hi = -(1L << 40);
}
static void range_comb(range_t *out, const range_t *in) {
  if (in->lo < out->lo) out->lo = in->lo;
  if (in->hi > out->hi) out->hi = in->hi;
}
#pragma omp declare reduction(range:range_t                                                        \
                              : range_comb(&omp_out, &omp_in)) initializer(range_init(&omp_priv))

static void taskgroups(void) {
  long sum = 5, prod = 1;
  long arr[6] = {0, 0, 0, 0, 0, 0};
  range_t rg;
  range_init(&rg);
#pragma omp taskgroup task_reduction(+ : sum, arr[0 : 6]) task_reduction(* : prod)          \
    task_reduction(range : rg)
  {
    for (int i = 1; i <= 20; i++) {
#pragma omp task in_reduction(+ : sum, arr [0:6]) in_reduction(* : prod) in_reduction(range : rg)
      {
        sum += i;
        arr[i % 6] += 1;
        if (i <= 10) prod *= 2;
        range_t me = {i, i};
        range_comb(&rg, &me);
      }
    }
    /* a nested taskgroup reducing sum again: its tasks count in the inner copy, which is
     * combined into the outer's private copy of this task */
#pragma omp task in_reduction(+ : sum)
    {
#pragma omp taskgroup task_reduction(+ : sum)
      {
        for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : sum)
          sum += 100;
        }
      }
    }
  }
  CHECKF(sum == 5 + 210 + 1000, "sum %ld", sum);
  CHECKF(prod == 1024, "prod %ld", prod);
  for (int k = 0; k < 6; k++)
    CHECKF(arr[k] == (k == 1 || k == 2 ? 4 : 3), "arr[%d] %ld", k, arr[k]);
  CHECKF(rg.lo == 1 && rg.hi == 20, "range %ld..%ld", rg.lo, rg.hi);

  long tl = 0;
#pragma omp taskloop reduction(+ : tl) grainsize(3)
  for (int i = 0; i < 1000; i++)
    tl += i;
  CHECKF(tl == 499500, "taskloop %ld", tl);
  long tl2 = 1;
#pragma omp taskgroup task_reduction(+ : tl2)
  {
#pragma omp taskloop in_reduction(+ : tl2) num_tasks(7) nogroup
    for (int i = 0; i < 100; i++)
      tl2 += i;
  }
  CHECKF(tl2 == 4951, "taskloop in_reduction %ld", tl2);
}

int main(void) {
  taskgroups();
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) taskgroups();
  printf("ok\n");
  return 0;
}
