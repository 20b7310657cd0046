/* The pre-OpenMP-3.0 lock ABI (omp_*lock*@OMP_1.0) that old binaries bind to: a 4-byte simple
 * lock and an 8-byte nest lock owned by the thread.  The program binds those versions
 * explicitly with .symver. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

typedef struct { int x; } lock25_t;
typedef struct { int a, b; } nest25_t;
void old_init_lock(lock25_t *);
void old_set_lock(lock25_t *);
void old_unset_lock(lock25_t *);
int old_test_lock(lock25_t *);
void old_destroy_lock(lock25_t *);
void old_init_nest(nest25_t *);
void old_set_nest(nest25_t *);
void old_unset_nest(nest25_t *);
int old_test_nest(nest25_t *);
void old_destroy_nest(nest25_t *);
__asm__(".symver old_init_lock, omp_init_lock@OMP_1.0");
__asm__(".symver old_set_lock, omp_set_lock@OMP_1.0");
__asm__(".symver old_unset_lock, omp_unset_lock@OMP_1.0");
__asm__(".symver old_test_lock, omp_test_lock@OMP_1.0");
__asm__(".symver old_destroy_lock, omp_destroy_lock@OMP_1.0");
__asm__(".symver old_init_nest, omp_init_nest_lock@OMP_1.0");
__asm__(".symver old_set_nest, omp_set_nest_lock@OMP_1.0");
__asm__(".symver old_unset_nest, omp_unset_nest_lock@OMP_1.0");
__asm__(".symver old_test_nest, omp_test_nest_lock@OMP_1.0");
__asm__(".symver old_destroy_nest, omp_destroy_nest_lock@OMP_1.0");

static volatile long counter, counter2;

int main(void) {
  /* guard words around the 8-byte nest lock must stay untouched */
  struct { long pre; nest25_t n; long post; } g = {0x1111, {0, 0}, 0x2222};
  lock25_t l;
  old_init_lock(&l);
  old_init_nest(&g.n);
#pragma omp parallel num_threads(4)
  for (int i = 0; i < 20000; i++) {
    old_set_lock(&l);
    counter = counter + 1;
    old_unset_lock(&l);
    old_set_nest(&g.n);
    old_set_nest(&g.n);
    counter2 = counter2 + 1;
    old_unset_nest(&g.n);
    old_unset_nest(&g.n);
  }
  CHECK(counter == 4 * 20000 && counter2 == 4 * 20000);
  CHECK(old_test_lock(&l) == 1);
  CHECK(old_test_lock(&l) == 0);
  old_unset_lock(&l);
  CHECK(old_test_nest(&g.n) == 1);
  CHECK(old_test_nest(&g.n) == 2);
  int other = -1;
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) other = old_test_nest(&g.n);
  CHECK(other == 0);
  old_unset_nest(&g.n);
  old_unset_nest(&g.n);
  old_destroy_nest(&g.n);
  old_destroy_lock(&l);
  CHECK(g.pre == 0x1111 && g.post == 0x2222);
  puts("ok");
  return 0;
}
