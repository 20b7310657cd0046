/* The __kmpc_atomic_* routines tomp provides (those LLVM's runtime tests call), called as
 * Intel's compilers do: compare-and-swap of 1, 2, 4 and 8 bytes with and without capture
 * (OpenMP 5.1 `atomic compare`), fixedN_add from every thread of a team at once, and max/min
 * of an x87 long double, also under contention.  tomp lacked them all before (the clang
 * binaries of LLVM's kmp_atomic_* and kmp_taskloop tests could not even load). */
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

#include "../check.h"

bool __kmpc_atomic_bool_1_cas(void *loc, int gtid, int8_t *x, int8_t e, int8_t d);
int16_t __kmpc_atomic_val_2_cas(void *loc, int gtid, int16_t *x, int16_t e, int16_t d);
bool __kmpc_atomic_bool_4_cas_cpt(void *loc, int gtid, int32_t *x, int32_t e, int32_t d,
                                  int32_t *pv);
int64_t __kmpc_atomic_val_8_cas_cpt(void *loc, int gtid, int64_t *x, int64_t e, int64_t d,
                                    int64_t *pv);
int __kmpc_global_thread_num(void *loc);
void __kmpc_atomic_fixed4_add(void *loc, int gtid, int32_t *x, int32_t v);
void __kmpc_atomic_fixed8_add(void *loc, int gtid, int64_t *x, int64_t v);
void __kmpc_atomic_float10_max(void *loc, int gtid, long double *x, long double v);
long double __kmpc_atomic_float10_min_cpt(void *loc, int gtid, long double *x, long double v,
                                          int flag);

int main(void) {
  int8_t c = 1;
  CHECK(!__kmpc_atomic_bool_1_cas(NULL, 0, &c, 2, 5) && c == 1);
  CHECK(__kmpc_atomic_bool_1_cas(NULL, 0, &c, 1, 5) && c == 5);
  int16_t s = 10;
  CHECK(__kmpc_atomic_val_2_cas(NULL, 0, &s, 11, 20) == 10 && s == 10);
  CHECK(__kmpc_atomic_val_2_cas(NULL, 0, &s, 10, 20) == 10 && s == 20);
  int32_t i = 100, iv = 0;
  CHECK(!__kmpc_atomic_bool_4_cas_cpt(NULL, 0, &i, 1, 2, &iv) && i == 100 && iv == 100);
  iv = 0;
  CHECK(__kmpc_atomic_bool_4_cas_cpt(NULL, 0, &i, 100, 200, &iv) && i == 200 && iv == 0);
  int64_t l = 7, lv = 0;
  CHECK(__kmpc_atomic_val_8_cas_cpt(NULL, 0, &l, 8, 9, &lv) == 7 && l == 7 && lv == 7);
  CHECK(__kmpc_atomic_val_8_cas_cpt(NULL, 0, &l, 7, 9, &lv) == 7 && l == 9 && lv == 9);

  int32_t sum4 = 0;
  int64_t sum8 = 0;
  long double big = 0, small = 1e9L;
  enum { T = 4, N = 5000 };
#pragma omp parallel num_threads(T)
  {
    int me = omp_get_thread_num();
    /* each thread its own gtid, as compiled code passes it: libomp's queuing lock for the
     * long double updates keeps per-thread state by gtid (with 0 everywhere it asserted) */
    int g = __kmpc_global_thread_num(NULL);
    for (int k = 1; k <= N; k++) {
      __kmpc_atomic_fixed4_add(NULL, g, &sum4, 1);
      __kmpc_atomic_fixed8_add(NULL, g, &sum8, k);
      __kmpc_atomic_float10_max(NULL, g, &big, (long double)(k * T + me));
      __kmpc_atomic_float10_min_cpt(NULL, g, &small, (long double)(k * T + me), 0);
    }
  }
  CHECKF(sum4 == T * N, "fixed4_add: %d", sum4);
  CHECKF(sum8 == (int64_t)T * N * (N + 1) / 2, "fixed8_add: %lld", (long long)sum8);
  CHECK(big == (long double)(N * T + T - 1) && small == (long double)T);
  long double x = 5;
  CHECK(__kmpc_atomic_float10_min_cpt(NULL, 0, &x, 3, 0) == 5 && x == 3);
  CHECK(__kmpc_atomic_float10_min_cpt(NULL, 0, &x, 4, 1) == 3 && x == 3);
  puts("ok");
  return 0;
}
