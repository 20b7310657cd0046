/* tomp-prof recorder test: a recursive task tree with two creation sites, as BOTS sort and
 * fib have: walk(d) creates walk(d - 1) at site A and at site B, depth 10: 2046 tasks.
 * Every task's creation path (the sequence of sites from the root) is different, so without
 * folding recursion there is one context per task; folded (a creation at a site that created
 * an ancestor takes the ancestor's context) the contexts are the paths without a repeated
 * site: A, B, A then B, B then A (plus the region). */
#include <omp.h>
#include <stdio.h>

static long leaves;

__attribute__((noinline)) static double leaf_work(long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 9);
  return s;
}

__attribute__((noinline)) static void walk(int d) {
  if (d == 0) {
    if (leaf_work(20000) > 0) __atomic_fetch_add(&leaves, 1, __ATOMIC_RELAXED);
    return;
  }
#pragma omp task
  walk(d - 1);
#pragma omp task
  walk(d - 1);
#pragma omp taskwait
}

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  walk(10);
  printf("leaves %ld\n", leaves);
  return leaves == 1024 ? 0 : 1;
}
