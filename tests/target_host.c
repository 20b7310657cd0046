/* target regions on the host (no devices): map clauses, firstprivate copies, target data /
 * update / enter / exit data, thread_limit, teams inside target (GOMP_teams4), and a target
 * region encountered inside a parallel region (it starts a new initial task: level 0).
 * test-gcc-only: clang 14 rejects thread_limit on target */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

struct S {
  int a[5];
  double d;
};

__attribute__((noinline)) static int thread_limit(void) { return omp_get_thread_limit(); }

int main(void) {
  int arr[64];
  for (int i = 0; i < 64; i++) arr[i] = i;
#pragma omp target map(tofrom : arr)
  for (int i = 0; i < 64; i++) arr[i] *= 2;
  for (int i = 0; i < 64; i++) CHECK(arr[i] == 2 * i);

  /* firstprivate: the region works on copies */
  int x = 5;
  double d = 1.5;
  struct S s = {{1, 2, 3, 4, 5}, 2.5};
  int out[3];
#pragma omp target firstprivate(x, d, s) map(from : out)
  {
    x++;
    d *= 2;
    s.a[0] = 100;
    s.d = 0;
    out[0] = x;
    out[1] = (int)d;
    out[2] = s.a[0] + s.a[4];
  }
  CHECK(x == 5 && d == 1.5 && s.a[0] == 1 && s.d == 2.5);
  CHECK(out[0] == 6 && out[1] == 3 && out[2] == 105);

  /* data environments and updates: shared memory, values flow both ways */
  int *p = malloc(100 * sizeof(int));
  for (int i = 0; i < 100; i++) p[i] = 1;
#pragma omp target data map(tofrom : p[0 : 100])
  {
#pragma omp target
    for (int i = 0; i < 100; i++) p[i] += 1;
    for (int i = 0; i < 100; i++) p[i] += 10;
#pragma omp target update to(p[0 : 100])
#pragma omp target
    for (int i = 0; i < 100; i++) p[i] *= 2;
#pragma omp target update from(p[0 : 100])
  }
  for (int i = 0; i < 100; i++) CHECK(p[i] == 24);
#pragma omp target enter data map(to : p[0 : 100])
#pragma omp target
  p[5] = -1;
#pragma omp target exit data map(from : p[0 : 100])
  CHECK(p[5] == -1);
  free(p);

  /* thread_limit on target */
  int tl = 0;
#pragma omp target thread_limit(3) map(from : tl)
  tl = thread_limit();
  CHECK(tl == 3);

  /* teams inside target */
  int seen[8] = {0}, nt[8] = {0};
#pragma omp target teams num_teams(3) map(tofrom : seen, nt)
  {
    seen[omp_get_team_num()]++;
    nt[omp_get_team_num()] = omp_get_num_teams();
  }
  for (int t = 0; t < 3; t++) CHECK(seen[t] == 1 && nt[t] == 3);
  CHECK(seen[3] == 0);
  CHECK(omp_get_num_teams() == 1 && omp_get_team_num() == 0);

  long sum = 0;
#pragma omp target teams distribute parallel for num_teams(2) reduction(+ : sum) map(tofrom : sum)
  for (int i = 1; i <= 1000; i++) sum += i;
  CHECK(sum == 500500);

  /* target inside a parallel region */
  int lvl[2] = {-1, -1}, tn[2] = {-1, -1}, inner[2] = {0, 0}, inpar[2] = {-1, -1};
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    int l, t, n, ip;
#pragma omp target map(from : l, t, n, ip)
    {
      l = omp_get_level();
      t = omp_get_thread_num();
      ip = omp_in_parallel();
      n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
      n += omp_get_level() == 1;
    }
    lvl[me] = l;
    tn[me] = t;
    inner[me] = n;
    inpar[me] = ip;
    CHECK(omp_get_level() == 1 && omp_get_thread_num() == me);
  }
  for (int i = 0; i < 2; i++) {
    CHECK(lvl[i] == 0 && tn[i] == 0 && inpar[i] == 0);
    CHECK(inner[i] >= 1 && inner[i] <= 2);
  }
  /* and the enclosing team still works afterwards, repeatedly */
  for (int r = 0; r < 200; r++) {
    int c = 0;
#pragma omp parallel num_threads(2) reduction(+ : c)
    {
#pragma omp target map(tofrom : c)
      {
#pragma omp parallel num_threads(2) reduction(+ : c)
        c++;
      }
    }
    CHECK(c >= 2 && c <= 4);
  }
  puts("ok");
  return 0;
}
