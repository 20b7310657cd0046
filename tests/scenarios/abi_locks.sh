#!/usr/bin/env bash
# The lock routines' symbol versions match GCC's libgomp exactly: every omp_*lock* name with
# its default @@OMP_3.0 version and its hidden OMP_1.0 compatibility copy, C and Fortran; plus
# tomp's two additions (the hinted initialisers, OMP_5.0).
set -eu
ref=/usr/lib/x86_64-linux-gnu/libgomp.so.1
lib=$TOMP_BUILD/libtomp.so
# GCC's nodes only: LLVM's `VERSION` node (the clang ABI, src/kmp) is abi_kmp's to check
syms() { objdump -T "$1" | awk '$NF ~ /^omp_.*lock/ && $(NF-1) !~ /VERSION/ {print $(NF-1), $NF}' | sort; }
syms "$lib" >"$TEST_OUT/abi_locks.tomp"
if [ -e "$ref" ]; then
  syms "$ref" >"$TEST_OUT/abi_locks.libgomp"
  grep -v with_hint "$TEST_OUT/abi_locks.tomp" | diff "$TEST_OUT/abi_locks.libgomp" -
  [ "$(grep -c '(OMP_1.0)' "$TEST_OUT/abi_locks.libgomp")" = 20 ]
fi
[ "$(grep -c '(OMP_1.0)' "$TEST_OUT/abi_locks.tomp")" = 20 ]
grep -qx 'OMP_5.0 omp_init_lock_with_hint' "$TEST_OUT/abi_locks.tomp"
grep -qx 'OMP_5.0 omp_init_nest_lock_with_hint' "$TEST_OUT/abi_locks.tomp"
echo ok
