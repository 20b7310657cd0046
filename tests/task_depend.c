/* Task dependences: out -> in (many readers) -> inout ordering, mutexinoutset mutual
 * exclusion and ordering against in/out, depobj (inout, in, mutexinoutset, update), the
 * same address listed twice, dependences on undeferred tasks, and taskwait depend. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static void busy(int n) {
  volatile int s = 0;
  for (int i = 0; i < n; i++) s += i;
}

static int x, readers, inside, maxinside, mcount, y, z;

static void rounds(void) {
  for (int r = 0; r < 50; r++) {
    int base = r * 10;
#pragma omp task depend(out : x) firstprivate(base)
    {
      busy(2000);
      x = base + 1;
      __atomic_store_n(&readers, 0, __ATOMIC_SEQ_CST);
    }
    for (int k = 0; k < 6; k++) {
#pragma omp task depend(in : x) firstprivate(base)
      {
        CHECK(x == base + 1);
        busy(500);
        __atomic_add_fetch(&readers, 1, __ATOMIC_SEQ_CST);
      }
    }
#pragma omp task depend(inout : x) firstprivate(base)
    {
      CHECK(__atomic_load_n(&readers, __ATOMIC_SEQ_CST) == 6);
      CHECK(x == base + 1);
      x = base + 2;
    }
    /* mutexinoutset members exclude each other and follow the inout */
    for (int k = 0; k < 5; k++) {
#pragma omp task depend(mutexinoutset : x) firstprivate(base)
      {
        CHECK(x >= base + 2);
        int in = __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
        if (in > maxinside) maxinside = in;
        CHECK(in == 1);
        busy(1000);
        x++;
        mcount++;
        __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
      }
    }
#pragma omp task depend(in : x) firstprivate(base)
    CHECK(x == base + 7);
  }
}

int main(void) {
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    rounds();
  }
  CHECK(x == 49 * 10 + 7);
  CHECK(mcount == 250);
  CHECK(maxinside == 1);

  /* mutexinoutset on two addresses; tasks sharing either must not overlap on it */
  int a = 0, b = 0, ina = 0, inb = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    for (int i = 0; i < 300; i++) {
      if (i % 3 == 0) {
#pragma omp task depend(mutexinoutset : a, b) shared(a, b, ina, inb)
        {
          CHECK(__atomic_add_fetch(&ina, 1, __ATOMIC_SEQ_CST) == 1);
          CHECK(__atomic_add_fetch(&inb, 1, __ATOMIC_SEQ_CST) == 1);
          busy(300);
          a++, b++;
          __atomic_sub_fetch(&ina, 1, __ATOMIC_SEQ_CST);
          __atomic_sub_fetch(&inb, 1, __ATOMIC_SEQ_CST);
        }
      } else if (i % 3 == 1) {
#pragma omp task depend(mutexinoutset : a) shared(a, ina)
        {
          CHECK(__atomic_add_fetch(&ina, 1, __ATOMIC_SEQ_CST) == 1);
          busy(300);
          a++;
          __atomic_sub_fetch(&ina, 1, __ATOMIC_SEQ_CST);
        }
      } else {
#pragma omp task depend(mutexinoutset : b) shared(b, inb)
        {
          CHECK(__atomic_add_fetch(&inb, 1, __ATOMIC_SEQ_CST) == 1);
          busy(300);
          b++;
          __atomic_sub_fetch(&inb, 1, __ATOMIC_SEQ_CST);
        }
      }
    }
  }
  CHECK(a == 200 && b == 200);

  /* depobj */
  omp_depend_t dout, din, dmut;
  int v = 0, seen = 0, mx = 0;
#pragma omp depobj(dout) depend(inout : v)
#pragma omp depobj(din) depend(in : v)
#pragma omp depobj(dmut) depend(mutexinoutset : v)
#pragma omp parallel num_threads(4)
  {
#pragma omp masked
    for (int r = 0; r < 40; r++) {
#pragma omp task depend(depobj : dout) shared(v) firstprivate(r)
      {
        busy(1000);
        CHECK(v == r * 4);
        v++;
      }
#pragma omp task depend(depobj : din) shared(v, seen) firstprivate(r)
      {
        CHECK(v == r * 4 + 1);
        __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
      }
#pragma omp task depend(depobj : din) shared(v, seen) firstprivate(r)
      {
        CHECK(v == r * 4 + 1);
        __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
      }
      for (int k = 0; k < 3; k++) {
#pragma omp task depend(depobj : dmut) shared(v, mx) firstprivate(r)
        {
          CHECK(__atomic_add_fetch(&mx, 1, __ATOMIC_SEQ_CST) == 1);
          CHECK(v >= r * 4 + 1 && v <= r * 4 + 3);
          busy(200);
          v++;
          __atomic_sub_fetch(&mx, 1, __ATOMIC_SEQ_CST);
        }
      }
    }
  }
  CHECK(v == 160 && seen == 80);
#pragma omp depobj(dmut) update(inout)
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
#pragma omp task depend(depobj : dmut) shared(v)
      {
        busy(20000);
        v = 1000;
      }
#pragma omp task depend(in : v) shared(v)
      CHECK(v == 1000);
    }
  }
#pragma omp depobj(dout) destroy
#pragma omp depobj(din) destroy
#pragma omp depobj(dmut) destroy

  /* the same address twice in one task, and an undeferred task with dependences */
  y = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp masked
    {
#pragma omp task depend(in : y) depend(inout : y)
      {
        busy(20000);
        y = 1;
      }
#pragma omp task depend(in : y) depend(out : z)
      {
        CHECK(y == 1);
        z = 7;
      }
#pragma omp task if (0) depend(in : z)
      CHECK(z == 7 && y == 1);
      CHECK(z == 7);
      /* taskwait depend waits for the named dependences only */
#pragma omp task depend(out : y)
      {
        busy(20000);
        y = 2;
      }
#pragma omp taskwait depend(in : y)
      CHECK(y == 2);
#pragma omp task depend(inout : z)
      {
        busy(10000);
        z = 8;
      }
#pragma omp task depend(inout : y)
      {
        busy(10000);
        y = 3;
      }
#pragma omp taskwait depend(inout : z)
      CHECK(z == 8);
#pragma omp taskwait
      CHECK(y == 3);
    }
  }
  puts("ok");
  return 0;
}
