#!/bin/bash
# What OMPD costs: instructions per operation (callgrind, 1 thread, user space; the
# difference of an -n N2 and an -n N1 run of bench/ompbench.c, as bench/callgrind.sh does),
# for tomp with OMP_DEBUG unset and with OMP_DEBUG=enabled (OMPD's observer listening: the
# observed paths, frames, and an empty breakpoint call per region, implicit task and task),
# and, given BASE_LIB (a libtomp.so built without the change to compare with), for that one.
#
#   [BASE_LIB=path/libtomp.so] bench/ompd-cost.sh [tests...]
#   (default tests: parallel barrier single critical lock task_master taskwait task_tree)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
N1=100 N2=600
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(parallel barrier single critical lock task_master taskwait task_tree)
command -v valgrind >/dev/null || { echo "ompd-cost.sh: valgrind not installed" >&2; exit 1; }
make -s -j2 >/dev/null || { echo "ompd-cost.sh: build failed" >&2; exit 1; }
B=$ROOT/build/bench
mkdir -p "$B/ompd-rt/new" "$B/ompd-rt/base"
if [ ! -x "$B/ompbench" ] || [ bench/ompbench.c -nt "$B/ompbench" ]; then
  gcc -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o "$B/ompbench" bench/ompbench.c -ldl || exit 1
fi
ln -sfn "$ROOT/build/libtomp.so" "$B/ompd-rt/new/libgomp.so.1"
[ -n "${BASE_LIB:-}" ] && ln -sfn "$(readlink -f "$BASE_LIB")" "$B/ompd-rt/base/libgomp.so.1"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ir() { # libdir test n env... -> total Ir
  local d=$1 t=$2 n=$3
  shift 3
  env -u OMP_DEBUG "$@" LD_LIBRARY_PATH="$d" OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1 \
    timeout 300 valgrind --tool=callgrind --callgrind-out-file="$TMP/cg" \
    "$B/ompbench" -T 1 -n "$n" "$t" >/dev/null 2>&1 || return
  sed -n 's/^summary: *//p' "$TMP/cg"
}
per_op() { # libdir test env...
  local a b
  a=$(ir "$1" "$2" $N1 "${@:3}") b=$(ir "$1" "$2" $N2 "${@:3}")
  [ -n "$a" ] && [ -n "$b" ] || { echo n/a; return; }
  awk -v a="$a" -v b="$b" -v d=$((N2 - N1)) 'BEGIN {printf "%.0f", (b - a) / d}'
}
echo "instructions per op, 1 thread, callgrind, N=$N1..$N2"
printf '%-12s %10s %10s %14s %8s\n' test base unset "OMP_DEBUG=en" "+%"
for t in "${TESTS[@]}"; do
  b=-
  [ -n "${BASE_LIB:-}" ] && b=$(per_op "$B/ompd-rt/base" "$t")
  u=$(per_op "$B/ompd-rt/new" "$t")
  e=$(per_op "$B/ompd-rt/new" "$t" OMP_DEBUG=enabled)
  printf '%-12s %10s %10s %14s' "$t" "$b" "$u" "$e"
  awk -v u="$u" -v e="$e" 'BEGIN {if (u+0 > 0 && e+0 > 0) printf " %7.1f\n", 100*(e-u)/u; else print "       -"}'
done
