#!/usr/bin/env bash
# OMP_ALLOCATOR forms: a predefined allocator by name or number, a memory space with traits
# (the pool and fallback take effect), and bad values (one warning, omp_default_mem_alloc).
set -eu
exe=$TEST_OUT/alloc_env_scn
cat >"$TEST_OUT/alloc_env_scn.c" <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdint.h>
int main(void) {
  omp_allocator_handle_t a = omp_get_default_allocator();
  void *p = omp_alloc(4096, omp_null_allocator);
  void *q = omp_alloc(4096, omp_null_allocator);
  printf("%lu %d %d %d\n", (unsigned long)a, p != NULL, q != NULL, (int)((uintptr_t)p % 256 == 0));
  return 0;
}
C
gcc -fopenmp -O2 "$TEST_OUT/alloc_env_scn.c" -o "$exe"
run() { env OMP_ALLOCATOR="$1" LD_LIBRARY_PATH=$TOMP_BUILD/lib ${SANLIB:+LD_PRELOAD="$SANLIB"} "$exe" 2>"$TEST_OUT/alloc_env.err"; }
[ "$(run omp_large_cap_mem_alloc)" = "2 1 1 1" ] || [ "$(run omp_large_cap_mem_alloc | cut -d' ' -f1-3)" = "2 1 1" ]
[ "$(run ' omp_thread_mem_alloc ' | cut -d' ' -f1)" = 8 ]
[ "$(run 5 | cut -d' ' -f1)" = 5 ]
[ "$(run omp_low_lat_mem_space | cut -d' ' -f1)" = 5 ]
# a 6 KB pool that returns NULL when exhausted, 256-byte aligned: the second block fails
out=$(run 'omp_default_mem_space:pool_size=6144,fallback=null_fb,alignment=256')
set -- $out
[ "$1" -gt 8 ] && [ "$2" = 1 ] && [ "$3" = 0 ] && [ "$4" = 1 ]
[ ! -s "$TEST_OUT/alloc_env.err" ]
for bad in omp_bogus_alloc 'omp_default_mem_space:pool_size=x' 'omp_default_mem_space:colour=red' 99; do
  [ "$(run "$bad" | cut -d' ' -f1-3)" = "1 1 1" ]
  [ "$(grep -c 'OMP_ALLOCATOR' "$TEST_OUT/alloc_env.err")" = 1 ]
done
echo ok
