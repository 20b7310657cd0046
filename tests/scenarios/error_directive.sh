#!/usr/bin/env bash
# The error directive at(execution): severity(warning) prints the message and continues,
# severity(fatal) (also the default) prints it and exits with a failure status; a directive
# without message still says which directive it was.  The messages are libgomp's, byte for
# byte (GCC's tests and users' scripts match them): checked on tomp and on the system libgomp.
set -u
src=$TEST_OUT/error_directive_scn.c
cat >"$src" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int mode = atoi(argv[1]);
  printf("before\n");
  if (mode == 0) {
#pragma omp error at(execution) severity(warning) message("careful now")
#pragma omp error at(execution) severity(warning)
    printf("after\n");
    return 0;
  }
  if (mode == 1) {
#pragma omp error at(execution) severity(fatal) message("fatal stop")
  } else {
#pragma omp error at(execution) message("default stop")
  }
  printf("not reached\n");
  return 0;
}
C
exe=$TEST_OUT/error_directive_scn
gcc -fopenmp -O2 "$src" -o "$exe" || exit 1
fail() { echo "FAIL ($which): $*"; cat "$TEST_OUT/err.out" "$TEST_OUT/err.err"; exit 1; }
# stderr, exactly
printf '\nlibgomp: error directive encountered: careful now\n\nlibgomp: error directive encountered\n' >"$TEST_OUT/err.want0"
printf '\nlibgomp: fatal error: error directive encountered: fatal stop\n' >"$TEST_OUT/err.want1"
printf '\nlibgomp: fatal error: error directive encountered: default stop\n' >"$TEST_OUT/err.want2"

check() { # LIBDIR (empty: the system libgomp)
  which=${1:-libgomp}
  run() {
    if [ -n "$1" ]; then
      env LD_LIBRARY_PATH="$1" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$exe" "$2"
    else
      "$exe" "$2"
    fi >"$TEST_OUT/err.out" 2>"$TEST_OUT/err.err"
  }
  run "$1" 0 || fail "warning must not stop the program"
  grep -qx 'after' "$TEST_OUT/err.out" || fail "program did not continue"
  cmp -s "$TEST_OUT/err.err" "$TEST_OUT/err.want0" || fail "warning text"

  run "$1" 1 && fail "fatal must exit with failure"
  grep -q 'not reached' "$TEST_OUT/err.out" && fail "fatal continued"
  grep -qx 'before' "$TEST_OUT/err.out" || fail "output before the error was lost"
  cmp -s "$TEST_OUT/err.err" "$TEST_OUT/err.want1" || fail "fatal text"

  run "$1" 2 && fail "default severity is fatal"
  cmp -s "$TEST_OUT/err.err" "$TEST_OUT/err.want2" || fail "default text"
}
check "$TOMP_BUILD/lib"
[ -z "$SANLIB" ] && check ""
echo ok
