/* Task scheduling constraint 2: while a tied task waits (taskwait, taskgroup end) on a
 * thread, that thread may only start descendants of it.  Every task keeps a record linked to
 * its parent's; each thread keeps a stack of the records of the tasks it is executing (the
 * implicit task's included while it waits).  Whenever a task starts, it must descend from
 * every record on its thread's stack.  Trees of tasks with taskwait and taskgroup, sibling
 * dependences and priorities, created by every thread at once so thieves see foreign work.
 * test-env: OMP_NUM_THREADS=4 OMP_MAX_TASK_PRIORITY=3
 * test-libgomp-fails: with priorities, libgomp's taskwait and taskgroup end may start a higher-priority task of the team that is not a descendant (without priority() it passes)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

typedef struct rec {
  const struct rec *parent;
} rec_t;

#define MAXDEPTH 64
static const rec_t *stack[MAXDEPTH];
static int depth;
#pragma omp threadprivate(stack, depth)

static long violations, ran;

static int descends(const rec_t *r, const rec_t *anc) {
  for (; r; r = r->parent)
    if (r == anc) return 1;
  return 0;
}

static void enter(const rec_t *r) {
  for (int i = 0; i < depth; i++)
    if (!descends(r, stack[i])) __atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED);
  CHECK(depth < MAXDEPTH);
  stack[depth++] = r;
  __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
}

static void leave(void) { depth--; }

static long tree(const rec_t *parent, int n, int use_group) {
  rec_t me = {parent};
  enter(&me);
  long sum = 1;
  if (n > 0) {
    long a = 0, b = 0, c = 0;
    if (use_group) {
#pragma omp taskgroup
      {
#pragma omp task shared(a, me) priority(n % 4)
        a = tree(&me, n - 1, !use_group);
#pragma omp task shared(b, me)
        b = tree(&me, n - 2 >= 0 ? n - 2 : 0, use_group);
      }
    } else {
      /* a -> c through a dependence: c is released by whichever thread finishes a */
#pragma omp task shared(a, me) depend(out : a)
      a = tree(&me, n - 1, !use_group);
#pragma omp task shared(b, me)
      b = tree(&me, n - 2 >= 0 ? n - 2 : 0, use_group);
#pragma omp task shared(a, c, me) depend(in : a)
      c = a > 0 ? tree(&me, 0, use_group) : -1000000;
#pragma omp taskwait
    }
    sum += a + b + c;
  }
  leave();
  return sum;
}

static long expect(int n, int use_group) {
  if (n <= 0) return 1;
  long a = expect(n - 1, !use_group), b = expect(n - 2 >= 0 ? n - 2 : 0, use_group);
  return 1 + a + b + (use_group ? 0 : 1);
}

int main(void) {
  for (int rep = 0; rep < 4; rep++) {
    long total = 0, want = 0;
    ran = 0;
#pragma omp parallel reduction(+ : total, want)
    {
      rec_t root = {NULL};
      enter(&root); /* the implicit task, waiting in its taskwait below */
      int n = 9 + omp_get_thread_num() % 3;
      long r1 = 0, r2 = 0;
#pragma omp task shared(r1, root)
      r1 = tree(&root, n, rep & 1);
#pragma omp task shared(r2, root)
      r2 = tree(&root, n - 1, !(rep & 1));
#pragma omp taskwait
      leave();
      total += r1 + r2;
      want += expect(n, rep & 1) + expect(n - 1, !(rep & 1));
      CHECK(depth == 0);
    }
    CHECK(total == want);
    CHECK(violations == 0);
  }
  printf("ok: %ld tasks in the last round\n", ran);
  return 0;
}
