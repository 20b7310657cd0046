/* Task reductions as clang compiles them, where the runtime makes, initialises and combines
 * the private copies: taskgroup task_reduction with in_reduction tasks (several items, an
 * array section, a user-defined reduction with an initializer, nested taskgroups reducing the
 * same variable), taskloop reduction, and the task modifier on parallel and on a worksharing
 * loop (__kmpc_taskred_modifier_init / __kmpc_task_reduction_modifier_fini). */
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
#pragma omp declare reduction(range:range_t : range_comb(&omp_out, &omp_in))                   \
    initializer(range_init(&omp_priv))

static void taskgroups(void) {
  long sum = 5, prod = 1;
  int arr[3] = {0, 0, 0};
  range_t rg;
  range_init(&rg);
#pragma omp taskgroup task_reduction(+ : sum, arr[0 : 3]) task_reduction(* : prod)          \
    task_reduction(range : rg)
  {
    for (int i = 1; i <= 20; i++) {
#pragma omp task in_reduction(+ : sum, arr[0 : 3]) in_reduction(* : prod) in_reduction(range : rg)
      {
        sum += i;
        arr[i % 3] += 1;
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
  CHECK(arr[0] == 6 && arr[1] == 7 && arr[2] == 7);
  CHECKF(rg.lo == 1 && rg.hi == 20, "range %ld..%ld", rg.lo, rg.hi);

  long tl = 0;
#pragma omp taskloop reduction(+ : tl) grainsize(3)
  for (int i = 0; i < 1000; i++) tl += i;
  CHECKF(tl == 499500, "taskloop %ld", tl);
  long tl2 = 1;
#pragma omp taskgroup task_reduction(+ : tl2)
  {
#pragma omp taskloop in_reduction(+ : tl2) num_tasks(7) nogroup
    for (int i = 0; i < 100; i++) tl2 += i;
  }
  CHECKF(tl2 == 4951, "taskloop in_reduction %ld", tl2);
}

static void modifiers(int nth) {
  long p = 0;
#pragma omp parallel num_threads(nth) reduction(task, + : p)
  {
    p += 1;
#pragma omp task in_reduction(+ : p)
    p += 10;
#pragma omp single
    for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : p)
      p += 1000;
    }
  }
  CHECKF(p == 11L * nth + 50000, "parallel reduction(task) %ld, %d threads", p, nth);

  long w = 0;
#pragma omp parallel num_threads(nth)
  {
#pragma omp for reduction(task, + : w)
    for (int i = 0; i < 100; i++) {
      w += 1;
      if (i % 10 == 0) {
#pragma omp task in_reduction(+ : w)
        w += 100;
      }
    }
  }
  CHECKF(w == 100 + 1000, "for reduction(task) %ld, %d threads", w, nth);
}

int main(void) {
  taskgroups();
#pragma omp parallel num_threads(3)
#pragma omp single
  taskgroups();
  for (int rep = 0; rep < 20; rep++) {
    modifiers(1);
    modifiers(3);
  }
  printf("ok\n");
  return 0;
}
