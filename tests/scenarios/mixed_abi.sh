#!/usr/bin/env bash
# Both ABIs in one process: a clang-built program (LLVM's __kmpc_* ABI, binds libomp.so.5)
# calls a gcc-built shared library (GCC's GOMP_* ABI, binds libgomp.so.1) outside and inside
# its own parallel regions (tests/kmp/mixed).  With LD_LIBRARY_PATH on tomp's build both
# names are tomp: the loader must map one library, and the program checks one runtime's
# answers (shared ICVs, nesting levels, results) and that one runtime file is mapped.  Validated where one runtime can serve both
# ABIs in the same way: LLVM's libomp, which also exports GOMP_*, under both names.
set -u
SANLIB=${SANLIB:-}
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/mixed_abi
S=tests/kmp/mixed
rm -rf "$W"; mkdir -p "$W"
command -v clang-14 >/dev/null || { echo "clang-14 is not installed"; exit 77; }
gcc -fopenmp -O2 -fPIC -shared "$S/gcclib.c" -o "$W/libgcclib.so" || exit 1
clang-14 -fopenmp -O2 "$S/main.c" -L"$W" -lgcclib -Wl,-rpath,"$W" -o "$W/main" || exit 1
clang-14 -fopenmp -O2 "$S/critical.c" -L"$W" -lgcclib -Wl,-rpath,"$W" -o "$W/critical" || exit 1
readelf -d "$W/libgcclib.so" | grep -q 'libgomp.so.1' || { echo "the library does not need libgomp.so.1"; exit 1; }
readelf -d "$W/main" | grep -q 'libomp.so.5' || { echo "the program does not need libomp.so.5"; exit 1; }

run() { # libdir [program]: run the program (main checks that one runtime file is mapped)
  env LD_LIBRARY_PATH="$1" ${SANLIB:+LD_PRELOAD="$SANLIB"} timeout -k 5 60 "$W/${2:-main}" && return 0
  return 1
}
fail=0
echo "== tomp"
run "$B/lib" || { echo "FAIL on tomp"; fail=1; }
echo "== tomp: critical sections of the same name in both ABIs exclude each other"
run "$B/lib" critical || { echo "FAIL on tomp"; fail=1; }
echo "== libomp serving both ABIs (validation)"
mkdir -p "$W/llvm"
ln -sf /usr/lib/llvm-14/lib/libomp.so.5 "$W/llvm/libgomp.so.1"
ln -sf /usr/lib/llvm-14/lib/libomp.so.5 "$W/llvm/libomp.so.5"
if [ -z "${SANLIB:-}" ] && ! run "$W/llvm"; then echo "test invalid: libomp fails it"; fail=1; fi
# libomp 14 gives gcc's unnamed critical and clang's different locks (reported, not counted)
if [ -z "${SANLIB:-}" ]; then
  run "$W/llvm" critical >"$W/critical.libomp.log" 2>&1 && echo "libomp: critical passes too" ||
    echo "libomp: critical fails as expected: $(tail -1 "$W/critical.libomp.log")"
fi
exit $fail
