#!/usr/bin/env bash
# The README's three ways to run a clang-built program on tomp: LD_LIBRARY_PATH on the build's
# lib/ (libomp.so.5 is tomp), a run path given at link time, and a run path on an installed
# tomp (make install's lib/tomp/libomp.so.5).  In each, the program itself checks that tomp
# serves it and that LLVM's libomp is not mapped.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/clang_link_modes
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$W"; mkdir -p "$W"
command -v clang-14 >/dev/null || { echo "clang-14 is not installed"; exit 77; }
case "$(basename "$B")" in
  build-tsan) SAN=tsan ;; build-asan) SAN=asan ;; *) SAN= ;;
esac
SANLIB=${SANLIB:-}
cat >"$W/app.c" <<'C'
#include <omp.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  int tomp = 0, llvm = 0;
  while (f && fgets(line, sizeof line, f)) {
    tomp |= strstr(line, "libtomp.so") != NULL;
    llvm |= strstr(line, "llvm-14/lib/libomp") != NULL;
  }
  printf("threads=%d tomp=%d llvm=%d\n", n, tomp, llvm);
  return !(n >= 1 && tomp && !llvm);
}
C
fail=0
check() { # what cmd...
  local what=$1; shift
  if out=$(env ${SANLIB:+LD_PRELOAD="$SANLIB"} "$@" 2>&1); then echo "ok   $what: $out"
  else echo "FAIL $what: $out"; fail=1; fi
}
clang-14 -fopenmp -O2 "$W/app.c" -o "$W/plain" || exit 1
check "LD_LIBRARY_PATH" env LD_LIBRARY_PATH="$B/lib" "$W/plain"
clang-14 -fopenmp -O2 "$W/app.c" -Wl,-rpath,"$B/lib" -o "$W/rpath" || exit 1
check "-Wl,-rpath at link time" "$W/rpath"
make -C "$ROOT" --no-print-directory install PREFIX="$W/prefix" SAN="$SAN" >"$W/make.log" 2>&1 ||
  { cat "$W/make.log"; exit 1; }
[ -L "$W/prefix/lib/tomp/libomp.so.5" ] || { echo "FAIL: make install did not install lib/tomp/libomp.so.5"; fail=1; }
clang-14 -fopenmp -O2 "$W/app.c" -Wl,-rpath,"$W/prefix/lib/tomp" -o "$W/installed" || exit 1
check "installed, run path on lib/tomp" "$W/installed"
exit $fail
