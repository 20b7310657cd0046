/* Dependences as clang passes them (kmp_depend_info arrays): in/out/inout chains, a
 * mutexinoutset group (members exclusive, in any order, between the tasks before and after),
 * an if(0) task with dependences (__kmpc_omp_wait_deps, then the body in place), taskwait
 * depend, array sections and depobj (clang flattens both into the list), and detach: a
 * detached task's dependents wait for omp_fulfill_event; also in a team of one. */
#include <omp.h>
#include <stdio.h>

#include "../check.h"

#define N 200

static void chains(void) {
  int a = 0, b = 0, log[N], n = 0;
  for (int i = 0; i < N; i++) {
#pragma omp task depend(inout : a) shared(a, log, n)
    {
      log[n++] = a;
      a++;
    }
  }
#pragma omp task depend(in : a) depend(out : b) shared(a, b)
  b = a * 2;
#pragma omp taskwait depend(in : b)
  CHECK(b == 2 * N);
#pragma omp taskwait
  for (int i = 0; i < N; i++)
    CHECKF(log[i] == i, "chain step %d saw %d", i, log[i]);

  /* mutexinoutset: between a writer before and a reader after, members one at a time */
  int m = 0, inside = 0, bad = 0, seen = -1;
#pragma omp task depend(out : m) shared(m)
  m = 1000;
  for (int i = 0; i < 20; i++) {
#pragma omp task depend(mutexinoutset : m) shared(m, inside, bad)
    {
      if (__atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST) != 0) bad = 1;
      m += 1;
      __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
    }
  }
#pragma omp task depend(in : m) shared(m, seen)
  seen = m;
#pragma omp taskwait
  CHECKF(!bad && seen == 1020, "bad %d seen %d", bad, seen);

  /* if(0) with dependences waits for its predecessor */
  int c = 0;
#pragma omp task depend(out : c) shared(c)
  c = 5;
#pragma omp task if (0) depend(inout : c) shared(c)
  c *= 3;
  CHECK(c == 15);

  /* array sections and depobj */
  int arr[4] = {0}, r = 0;
  omp_depend_t obj;
#pragma omp depobj(obj) depend(inout : arr[1])
#pragma omp task depend(out : arr [1:1]) shared(arr)
  arr[1] = 7;
#pragma omp task depend(depobj : obj) shared(arr)
  arr[1] += 1;
#pragma omp task depend(in : arr[1]) shared(arr, r)
  r = arr[1];
#pragma omp taskwait
#pragma omp depobj(obj) destroy
  CHECK(r == 8);
}

static void detached(void) {
  int d = 0, after = 0;
  omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp task detach(ev) depend(out : d) shared(d)
  d = 1;
#pragma omp task depend(in : d) shared(d, after)
  after = d + 1;
  /* the dependent cannot have run: the event is not fulfilled */
  for (int i = 0; i < 100; i++) {
#pragma omp taskyield
  }
  CHECK(__atomic_load_n(&after, __ATOMIC_SEQ_CST) == 0);
  omp_fulfill_event(ev);
#pragma omp taskwait
  CHECK(after == 2);
}

int main(void) {
  chains();
  /* a team of one: tasks whose dependences are met run at once, skipping the table; a
   * detached predecessor is not complete, so its dependent must still wait */
#pragma omp parallel num_threads(1)
  {
    chains();
    detached();
  }
#pragma omp parallel num_threads(4)
  if (omp_get_thread_num() == 0) {
    chains();
    detached();
  }
  printf("ok\n");
  return 0;
}
