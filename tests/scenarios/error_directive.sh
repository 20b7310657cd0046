#!/usr/bin/env bash
# The error directive at(execution): severity(warning) prints the message and continues,
# severity(fatal) (also the default) prints it and exits with a failure status; a directive
# without message still says which directive it was.
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
run() { env LD_LIBRARY_PATH=$TOMP_BUILD/lib ${SANLIB:+LD_PRELOAD="$SANLIB"} "$exe" "$1" >"$TEST_OUT/err.out" 2>"$TEST_OUT/err.err"; }
fail() { echo "FAIL: $*"; cat "$TEST_OUT/err.out" "$TEST_OUT/err.err"; exit 1; }

run 0 || fail "warning must not stop the program"
grep -qx 'after' "$TEST_OUT/err.out" || fail "program did not continue"
grep -qx 'tomp: error directive encountered: careful now' "$TEST_OUT/err.err" || fail "warning text"
grep -qx 'tomp: error directive encountered' "$TEST_OUT/err.err" || fail "message-less warning"

run 1 && fail "fatal must exit with failure"
grep -q 'not reached' "$TEST_OUT/err.out" && fail "fatal continued"
grep -qx 'before' "$TEST_OUT/err.out" || fail "output before the error was lost"
grep -qx 'tomp: error directive encountered: fatal stop' "$TEST_OUT/err.err" || fail "fatal text"

run 2 && fail "default severity is fatal"
grep -qx 'tomp: error directive encountered: default stop' "$TEST_OUT/err.err" || fail "default text"
echo ok
