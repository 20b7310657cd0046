/* omp_all_memory as gcc 13 and later pass it: a NULL address among the out/inout entries
 * of GOMP_task's depend array (both array forms), in a depend object of kind inout, and in
 * GOMP_taskwait_depend.  gcc 12 (the compiler here) rejects omp_all_memory, so the test
 * builds the arrays itself.  Such a task follows every earlier sibling with dependences and
 * precedes every later one; siblings without dependences are not ordered by it.
 * test-gcc-only: it calls GOMP_task with gcc 13's depend arrays directly
 * test-libgomp-fails: the system libgomp (GCC 12) takes the NULL address as an ordinary one */
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
void GOMP_taskwait_depend(void **depend);

#define FLAG_DEPEND 8u
#define DEPEND_INOUT 3

static int x, y, z; /* dependence addresses only */
static int a_done, b_done, all_done, late_ok, nodep_ran;

typedef struct {
  int which;
} arg_t;

static void slow(int *flag) {
  usleep(30000); /* long enough that an unordered successor would start first */
  __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}

static void body(void *p) {
  arg_t *a = p;
  switch (a->which) {
  case 0:
    slow(&a_done);
    break;
  case 1:
    slow(&b_done);
    break;
  case 2: /* the all-memory task */
    CHECK(__atomic_load_n(&a_done, __ATOMIC_SEQ_CST) == 1);
    CHECK(__atomic_load_n(&b_done, __ATOMIC_SEQ_CST) == 1);
    usleep(20000);
    __atomic_store_n(&all_done, 1, __ATOMIC_SEQ_CST);
    break;
  case 3: /* a later sibling with a dependence on an unrelated address */
    if (__atomic_load_n(&all_done, __ATOMIC_SEQ_CST) == 1)
      __atomic_add_fetch(&late_ok, 1, __ATOMIC_SEQ_CST);
    break;
  case 4:
    __atomic_store_n(&nodep_ran, 1, __ATOMIC_SEQ_CST);
    break;
  }
}

static void spawn(int which, void **depend) {
  arg_t a = {which};
  GOMP_task(body, &a, NULL, sizeof a, __alignof__(arg_t), true, depend ? FLAG_DEPEND : 0, depend, 0,
            NULL);
}

static void reset(void) {
  a_done = b_done = all_done = late_ok = nodep_ran = 0;
}

int main(void) {
  omp_set_num_threads(4);
  for (int form = 0; form < 3; form++) {
    reset();
#pragma omp parallel
#pragma omp single
    {
      void *dx[] = {(void *)1, (void *)1, &x};                    /* out: x */
      void *dy[] = {(void *)1, (void *)0, &y};                    /* in: y */
      void *dz[] = {(void *)1, (void *)0, &z};                    /* in: z */
      void *dep_obj[2] = {NULL, (void *)(uintptr_t)DEPEND_INOUT}; /* depobj: inout omp_all_memory */
      void *dall_old[] = {(void *)1, (void *)1, NULL};            /* out: omp_all_memory */
      void *dall_new[] = {(void *)0, (void *)2, (void *)1, (void *)0, (void *)0, NULL, dep_obj};
      void *dall_obj[] = {(void *)0, (void *)1, (void *)0, (void *)0, (void *)0, dep_obj};
      void **dall = form == 0 ? dall_old : form == 1 ? dall_new : dall_obj;
      spawn(0, dx);
      spawn(1, dy);
      spawn(2, dall);
      spawn(3, dz);
      spawn(3, dx);
      spawn(4, NULL); /* no dependences: may run at any time */
    }
    CHECK(a_done && b_done && all_done);
    CHECK(late_ok == 2);
    CHECK(nodep_ran);
  }

  /* taskwait depend(inout: omp_all_memory): waits for every earlier sibling with
   * dependences, not for one without */
  reset();
#pragma omp parallel
#pragma omp single
  {
    void *dx[] = {(void *)1, (void *)1, &x};
    void *dy[] = {(void *)1, (void *)0, &y};
    void *dwait[] = {(void *)1, (void *)1, NULL};
    spawn(0, dx);
    spawn(1, dy);
    GOMP_taskwait_depend(dwait);
    CHECK(__atomic_load_n(&a_done, __ATOMIC_SEQ_CST) == 1);
    CHECK(__atomic_load_n(&b_done, __ATOMIC_SEQ_CST) == 1);
  }
  printf("ok\n");
  return 0;
}
