/* Dependences of tasks that run at once (a team of one, final tasks, if(0)): tomp skips
 * their dependence bookkeeping when every earlier sibling has completed.  This checks the
 * cases where an earlier sibling has NOT completed, so the dependences still order things:
 * a detached task whose body ran but whose event is not fulfilled, a deferred sibling in a
 * team of two, and nested children with their own chains; and that chains of at-once tasks
 * keep program order and see each other's results. */
#include <omp.h>
#include <stdio.h>

#include "check.h"

static int x, y, seen_before_fulfill, ran_b;

/* A team of one: task A (detach) is incomplete until fulfilled; B depends on it. */
static void detached_then_dependent(void) {
  omp_event_handle_t ev;
  x = 0;
  ran_b = 0;
#pragma omp task depend(out : x) detach(ev) shared(x)
  x = 1;
  /* A's body has run (a team of one runs it at once) but A is not complete */
#pragma omp task depend(in : x) shared(x, ran_b)
  {
    CHECK(x == 1);
    __atomic_store_n(&ran_b, 1, __ATOMIC_SEQ_CST);
  }
  seen_before_fulfill = __atomic_load_n(&ran_b, __ATOMIC_SEQ_CST);
  omp_fulfill_event(ev);
#pragma omp taskwait
  CHECK(seen_before_fulfill == 0); /* B waited for A's completion */
  CHECK(ran_b == 1);
}

/* Chains of at-once tasks: each sees its predecessor's write, in program order. */
static void chain(int n) {
  y = 0;
  for (int i = 0; i < n; i++) {
#pragma omp task depend(inout : y) firstprivate(i) shared(y)
    {
      CHECK(y == i);
      y = i + 1;
      /* nested children with their own chain, inside the task */
      int z = 0;
      for (int k = 0; k < 3; k++) {
#pragma omp task depend(inout : z) firstprivate(k) shared(z)
        {
          CHECK(z == k);
          z++;
        }
      }
#pragma omp taskwait
      CHECK(z == 3);
    }
  }
#pragma omp taskwait
  CHECK(y == n);
}

int main(void) {
  /* team of one */
#pragma omp parallel num_threads(1)
  {
    detached_then_dependent();
    chain(100);
  }
  /* final tasks: their children run at once */
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task final(1)
    chain(50);
#pragma omp taskwait
  }
  /* a team of two: a deferred, slow writer, then if(0) readers that must wait for it */
  for (int r = 0; r < 20; r++) {
    int v = 0;
#pragma omp parallel num_threads(2) shared(v)
#pragma omp single
    {
#pragma omp task depend(out : v) shared(v)
      {
        volatile long s = 0;
        for (long i = 0; i < 200000; i++) s += i;
        v = 7;
      }
#pragma omp task depend(in : v) if(0) shared(v)
      CHECK(v == 7);
      /* every sibling is complete now: at-once tasks skip the table, still ordered */
#pragma omp task depend(inout : v) if(0) shared(v)
      v++;
#pragma omp task depend(in : v) shared(v)
      CHECK(v == 8);
#pragma omp taskwait
      CHECK(v == 8);
    }
  }
  printf("ok\n");
  return 0;
}
