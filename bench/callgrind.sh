#!/bin/bash
# Deterministic mode: instructions per operation, counted by callgrind, for fork/join
# (`parallel`) and `barrier` (or the tests named) on 1 and 2 threads, on tomp, libgomp and
# libomp; then the OMPT cost on tomp and libomp: no tool (OMP_TOOL=disabled) vs a tool with no
# callbacks vs a tool with empty parallel/implicit-task/sync-region callbacks vs one with every
# callback registered empty (bench/null-tool.c -DALL_CALLBACKS, as bench/run.sh's +alltool).
#
#   bench/callgrind.sh [--quick] [--runs R] [--annotate DIR] [--clang] [--no-ompt] [tests...]
#
# tests: any of `ompbench -l` (default: parallel barrier), at 1 and 2 threads.  --clang: the
# suite built with clang-14 (LLVM's __kmpc_* ABI), on tomp (as libomp.so.5) and LLVM's libomp
# only.  --no-ompt: the first table only.
#
# Instruction counts do not care how busy the machine is, so this is the mode to use for
# before/after comparisons of a change on the hot path.  How:
#  * every measurement runs ompbench -n N1 and -n N2 (fixed repetition counts) under
#    callgrind and reports (Ir(N2) - Ir(N1)) / (N2 - N1): start-up, pool creation and exit
#    cancel out.  The count is the sum over all threads (what the machine executes per op);
#    it excludes the kernel (a futex system call counts as one instruction).
#  * nobody may spin (a spinning waiter's count depends on the scheduler): OMP_WAIT_POLICY=
#    passive for all runtimes, and for tomp builds that do not parse it yet, passive-shim.so
#    zeroes tomp's spin budgets (see that file).  Waking a sleeper can still race with it
#    going to sleep, so 2-thread counts vary by a few percent; each point is the median of
#    R runs (default 3; --quick: 1).  1-thread counts are exact.
#  * --annotate DIR keeps the callgrind files of the N2 runs there (callgrind_annotate them).
#  * TOMP_BUILD (default build) or TOMP_LIB (any libtomp.so) selects the tomp measured.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
RUNS=3 N1=200 N2=1200 ANN="" CLANG=0 OMPT=1
TESTS=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) RUNS=1 N1=100 N2=600 ;;
    --runs) RUNS=$2; shift ;;
    --annotate) ANN=$2; shift ;;
    --clang) CLANG=1 ;;
    --no-ompt) OMPT=0 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    -*) echo "callgrind.sh: unknown argument $1" >&2; exit 64 ;;
    *) TESTS+=("$1") ;;
  esac
  shift
done
[ ${#TESTS[@]} -eq 0 ] && TESTS=(parallel barrier)
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind not installed" >&2; exit 1; }

TOMP_BUILD=${TOMP_BUILD:-build}
TOMP_LIB=${TOMP_LIB:-$ROOT/$TOMP_BUILD/libtomp.so}
GOMP_LIB=/usr/lib/x86_64-linux-gnu/libgomp.so.1
KMP_LIB=/usr/lib/llvm-14/lib/libomp.so.5
B=$ROOT/build/bench
[ -f "$TOMP_LIB" ] || { echo "callgrind.sh: $TOMP_LIB missing: run make first" >&2; exit 1; }
mkdir -p "$B"
if [ ! -x "$B/ompbench" ] || [ bench/ompbench.c -nt "$B/ompbench" ]; then
  gcc -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o "$B/ompbench" bench/ompbench.c -ldl || exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The runtime directories are this run's own: another script's run (bench/run.sh, another
# build's callgrind.sh) cannot repoint them under it.
BIN=$B/ompbench RTS=(tomp libgomp libomp) SONAME=libgomp.so.1 RTDIR=$TMP/rt
if [ $CLANG = 1 ]; then # as bench/run.sh builds and runs it
  if [ ! -x "$B/ompbench-clang" ] || [ bench/ompbench.c -nt "$B/ompbench-clang" ]; then
    clang-14 -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o "$B/ompbench-clang" bench/ompbench.c \
      -ldl -latomic || exit 1
  fi
  BIN=$B/ompbench-clang RTS=(tomp libomp) SONAME=libomp.so.5
fi
for t in "${TESTS[@]}"; do
  "$BIN" -l | grep -q "^$t " || { echo "callgrind.sh: unknown test $t (ompbench -l)" >&2; exit 64; }
done
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -o "$B/null-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -DEMPTY_CALLBACKS -o "$B/empty-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -DALL_CALLBACKS -o "$B/all-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -o "$B/passive-shim.so" bench/passive-shim.c || exit 1
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=$GOMP_LIB [libomp]=$KMP_LIB)
for rt in "${RTS[@]}"; do
  mkdir -p "$RTDIR/$rt" && ln -sfn "${LIBOF[$rt]}" "$RTDIR/$rt/$SONAME"
done
REAL_TOMP=$(readlink -f "$TOMP_LIB")
SPIN_OFFS=$(nm "$TOMP_LIB" 2>/dev/null |
  awk '$3=="tomp_spin_count"||$3=="tomp_spin_count_oversub"{printf "%s%s", s, $1; s=","}')
[ -n "$ANN" ] && mkdir -p "$ANN"

ir_of() { # rt test threads n extra-env... -> total Ir of one run (empty on failure)
  local rt=$1 t=$2 T=$3 n=$4 out=$TMP/cg.out
  shift 4
  local pre=()
  [ "$rt" = tomp ] && [ -n "$SPIN_OFFS" ] &&
    pre=(LD_PRELOAD="$B/passive-shim.so" TOMP_BENCH_LIB="$REAL_TOMP" TOMP_BENCH_SPIN_OFFSETS="$SPIN_OFFS")
  rm -f "$out"
  env -u LD_PRELOAD -u OMP_TOOL -u OMP_TOOL_LIBRARIES "${pre[@]}" "$@" \
    LD_LIBRARY_PATH="$RTDIR/$rt" OMP_WAIT_POLICY=passive OMP_NUM_THREADS="$T" \
    timeout 300 valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$out" \
    "$BIN" -T "$T" -n "$n" "$t" >"$TMP/stdout" 2>"$TMP/stderr" || return
  grep -q "bound=$(readlink -f "${LIBOF[$rt]}") " "$TMP/stdout" || return
  [ -n "$ANN" ] && [ "$n" = "$N2" ] && cp "$out" "$ANN/$rt-$t-$T${TAG:+-$TAG}$([ $CLANG = 1 ] && echo -clang).cg"
  sed -n 's/^summary: *//p' "$out"
}

median() { sort -n | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]}'; }

per_op() { # rt test threads extra-env... -> instructions per op (or n/a)
  local a b i
  a=$(for i in $(seq "$RUNS"); do ir_of "$1" "$2" "$3" "$N1" "${@:4}"; done | median)
  b=$(for i in $(seq "$RUNS"); do ir_of "$1" "$2" "$3" "$N2" "${@:4}"; done | median)
  if [ -z "$a" ] || [ -z "$b" ]; then echo n/a; return; fi
  awk -v a="$a" -v b="$b" -v d=$((N2 - N1)) 'BEGIN {printf "%.0f", (b - a) / d}'
}

echo "callgrind: instructions per op (all threads, user space), OMP_WAIT_POLICY=passive," \
  "median of $RUNS, N=$N1..$N2, $([ $CLANG = 1 ] && echo "clang-14" || echo gcc) binary"
declare -A BASE=()
if [ $CLANG = 1 ]; then
  printf '\n%-14s %2s %10s %10s %9s\n' test T tomp libomp /libomp
else
  printf '\n%-14s %2s %10s %10s %10s %9s %9s\n' test T tomp libgomp libomp /libgomp /libomp
fi
for t in "${TESTS[@]}"; do
  for T in 1 2; do
    declare -A V=()
    for rt in "${RTS[@]}"; do
      V[$rt]=$(TAG=disabled per_op $rt $t $T OMP_TOOL=disabled)
      BASE[$rt-$t-$T]=${V[$rt]}
    done
    printf '%-14s %2s' $t $T
    for rt in "${RTS[@]}"; do printf ' %10s' "${V[$rt]}"; done
    for r in "${RTS[@]:1}"; do
      awk -v a="${V[tomp]}" -v b="${V[$r]}" \
        'BEGIN {if (a+0 > 0 && b+0 > 0) printf " %9.2f", a / b; else printf " %9s", "-"}'
    done
    echo
  done
done
[ $OMPT = 1 ] || exit 0

echo
echo "OMPT cost (instructions per op; tomp and, for reference, libomp):"
printf '%-14s %2s %-8s %12s %12s %12s %12s %20s\n' test T runtime "OMP_TOOL=dis" "null tool" "empty cbs" \
  "all cbs" "null/empty/all +%"
for t in "${TESTS[@]}"; do
  for T in 1 2; do
    for rt in tomp libomp; do
      d=${BASE[$rt-$t-$T]}
      z=$(TAG=nulltool per_op $rt $t $T OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$B/null-tool.so")
      e=$(TAG=emptycb per_op $rt $t $T OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$B/empty-tool.so")
      a=$(TAG=allcb per_op $rt $t $T OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$B/all-tool.so")
      printf '%-14s %2s %-8s %12s %12s %12s %12s' $t $T $rt "$d" "$z" "$e" "$a"
      awk -v d="$d" -v z="$z" -v e="$e" -v a="$a" 'BEGIN {if (d+0 > 0 && z+0 > 0 && e+0 > 0 && a+0 > 0)
        printf " %6.1f/%.1f/%.1f\n", 100*(z-d)/d, 100*(e-d)/d, 100*(a-d)/d; else print "      -"}'
    done
  done
done
