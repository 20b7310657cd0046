#!/usr/bin/env bash
# Oversubscription pushed further than tests/oversub_mixed.c: the same program confined to
# ONE CPU (taskset), under both wait policies, then many tiny regions
# of 8 threads on one CPU.  Waiting threads must give the CPU to those they wait for, or
# this takes minutes instead of seconds (the per-run timeout catches that).
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/oversubscribe
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$W"; mkdir -p "$W"
command -v taskset >/dev/null || { echo "taskset (util-linux) is missing"; exit 1; }
fails=0
gcc -fopenmp -O2 "$ROOT/tests/oversub_mixed.c" -o "$W/oversub" || exit 1
gcc -fopenmp -O2 -x c - -o "$W/tiny" <<'C' || exit 1
#include <omp.h>
#include <stdio.h>
int main(void) {
  long n = 0;
  for (int r = 0; r < 3000; r++) {
#pragma omp parallel num_threads(8)
    {
#pragma omp atomic
      n++;
#pragma omp barrier
    }
  }
  if (n != 3000L * 8) { printf("count %ld\n", n); return 1; }
  return 0;
}
C
run() { # name timeout env... cmd
  local name=$1 t=$2; shift 2
  local s=$(date +%s)
  if env LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} timeout -k 5 "$t" env "$@" >"$W/$name.log" 2>&1; then
    echo "ok   $name ($(( $(date +%s) - s ))s)"
  else
    echo "FAIL $name (exit $?):"; tail -5 "$W/$name.log" | sed 's/^/     /'; fails=$((fails + 1))
  fi
}
run one-cpu-active 120 OMP_WAIT_POLICY=active taskset -c 0 "$W/oversub"
run one-cpu-passive 120 OMP_WAIT_POLICY=passive taskset -c 0 "$W/oversub"
run two-cpus-default 120 "$W/oversub"
run tiny-regions-one-cpu 120 OMP_WAIT_POLICY=active taskset -c 0 "$W/tiny"
echo "oversubscribe: $fails failure(s)"
[ $fails -eq 0 ]
