/* GCC's task-reduction entry points called directly, on arrays in libgomp's layout (d[0]
 * items, d[1] block size, d[2] alignment in / base out, d[3] allocator, d[4] next array, d[5],
 * d[6] runtime's, then address / offset / runtime word per item), for what gcc never emits
 * in the shape a program builds: a registration nested in another one, in a team of two.
 * (A chain of arrays through d[4] is not exercised: libgomp 12 crashes on one, so gcc
 * cannot rely on it.)  Checks the contracts gcc's code relies on: d[2] is the base of zeroed,
 * aligned blocks; GOMP_task_reduction_remap maps an original (of this or the enclosing
 * registration) and a pointer into another thread's block to the caller's private copy and
 * reports the original for the first cntorig pointers, in the encountering thread and in a
 * task run by any thread.
 * test-gcc-only: calls GCC's GOMP_* task-reduction entry points directly
 */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

void GOMP_taskgroup_reduction_register(uintptr_t *data);
void GOMP_taskgroup_reduction_unregister(uintptr_t *data);
void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs);

static void header(uintptr_t *d, uintptr_t nitems, uintptr_t size, uintptr_t align,
                   uintptr_t *next) {
  d[0] = nitems;
  d[1] = size;
  d[2] = align;
  d[3] = (uintptr_t)-1;
  d[4] = (uintptr_t)next;
  d[5] = d[6] = 0;
}

static void item(uintptr_t *d, int i, void *orig, uintptr_t off) {
  d[7 + 3 * i] = (uintptr_t)orig;
  d[7 + 3 * i + 1] = off;
  d[7 + 3 * i + 2] = 0;
}

static int zeroed(const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++)
    if (c[i]) return 0;
  return 1;
}

/* x: the outer registration's item; y, z: the inner one's */
static long x, y, z;

static void check_remap(uintptr_t *a, uintptr_t *b, int other) {
  int me = omp_get_thread_num();
  void *p[6] = {&x, &y, (char *)b[2] + other * 16 + 8};
  GOMP_task_reduction_remap(3, 2, p);
  CHECKF(p[0] == (void *)(a[2] + me * 16), "x: %p, thread %d", p[0], me);
  CHECKF(p[1] == (void *)(b[2] + me * 16), "y: %p, thread %d", p[1], me);
  CHECKF(p[2] == (void *)(b[2] + me * 16 + 8), "z: %p, thread %d", p[2], me);
  CHECK(p[3] == &x && p[4] == &y);
  /* a private pointer with cntorig: the original is reported too */
  void *q[2] = {(char *)b[2] + other * 16 + 8};
  GOMP_task_reduction_remap(1, 1, q);
  CHECK(q[0] == (void *)(b[2] + me * 16 + 8) && q[1] == &z);
}

int main(void) {
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
    int other = omp_get_num_threads() - 1 - omp_get_thread_num();
    uintptr_t a[7 + 3], b[7 + 6];
#pragma omp taskgroup
    {
      header(a, 1, 16, 64, NULL);
      item(a, 0, &x, 0);
      GOMP_taskgroup_reduction_register(a);
      CHECKF(a[2] % 64 == 0 && a[2] != 64, "base %#lx", (unsigned long)a[2]);
      CHECK(zeroed((void *)a[2], 16 * (size_t)omp_get_num_threads()));
#pragma omp taskgroup
      {
        header(b, 2, 16, 16, NULL);
        item(b, 0, &y, 0);
        item(b, 1, &z, 8);
        GOMP_taskgroup_reduction_register(b);
        CHECKF(b[2] % 16 == 0 && b[2] != 16, "base %#lx", (unsigned long)b[2]);
        CHECK(zeroed((void *)b[2], 16 * (size_t)omp_get_num_threads()));
        check_remap(a, b, other);
        for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(other) shared(a, b)
          check_remap(a, b, other);
        }
      }
      GOMP_taskgroup_reduction_unregister(b);
    }
    GOMP_taskgroup_reduction_unregister(a);
    bad += omp_get_num_threads() != 2;
  }
  if (bad) printf("note: the team had fewer than 2 threads\n");
  printf("task_reduction_abi: ok\n");
  return 0;
}
