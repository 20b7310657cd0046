#!/bin/bash
# Deterministic mode: instructions per operation, counted by callgrind, for fork/join
# (`parallel`) and `barrier` on 1 and 2 threads, on tomp, libgomp and libomp; then tomp's OMPT
# cost: no tool (OMP_TOOL=disabled) vs a tool with no callbacks vs a tool with empty
# parallel/implicit-task/sync-region callbacks.
#
#   bench/callgrind.sh [--quick] [--runs R] [--annotate DIR]
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
RUNS=3 N1=200 N2=1200 ANN=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) RUNS=1 N1=100 N2=600 ;;
    --runs) RUNS=$2; shift ;;
    --annotate) ANN=$2; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "callgrind.sh: unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done
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
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -o "$B/null-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -DEMPTY_CALLBACKS -o "$B/empty-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -o "$B/passive-shim.so" bench/passive-shim.c || exit 1
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=$GOMP_LIB [libomp]=$KMP_LIB)
for rt in tomp libgomp libomp; do
  mkdir -p "$B/rt/$rt" && ln -sfn "${LIBOF[$rt]}" "$B/rt/$rt/libgomp.so.1"
done
REAL_TOMP=$(readlink -f "$TOMP_LIB")
SPIN_OFFS=$(nm "$TOMP_LIB" 2>/dev/null |
  awk '$3=="tomp_spin_count"||$3=="tomp_spin_count_oversub"{printf "%s%s", s, $1; s=","}')
[ -n "$ANN" ] && mkdir -p "$ANN"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ir_of() { # rt test threads n extra-env... -> total Ir of one run (empty on failure)
  local rt=$1 t=$2 T=$3 n=$4 out=$TMP/cg.out
  shift 4
  local pre=()
  [ "$rt" = tomp ] && [ -n "$SPIN_OFFS" ] &&
    pre=(LD_PRELOAD="$B/passive-shim.so" TOMP_BENCH_LIB="$REAL_TOMP" TOMP_BENCH_SPIN_OFFSETS="$SPIN_OFFS")
  rm -f "$out"
  env -u LD_PRELOAD -u OMP_TOOL -u OMP_TOOL_LIBRARIES "${pre[@]}" "$@" \
    LD_LIBRARY_PATH="$B/rt/$rt" OMP_WAIT_POLICY=passive OMP_NUM_THREADS="$T" \
    timeout 300 valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$out" \
    "$B/ompbench" -T "$T" -n "$n" "$t" >"$TMP/stdout" 2>"$TMP/stderr" || return
  grep -q "bound=$(readlink -f "${LIBOF[$rt]}") " "$TMP/stdout" || return
  [ -n "$ANN" ] && [ "$n" = "$N2" ] && cp "$out" "$ANN/$rt-$t-$T${TAG:+-$TAG}.cg"
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
  "median of $RUNS, N=$N1..$N2"
declare -A BASE=()
printf '\n%-10s %2s %10s %10s %10s %9s %9s\n' test T tomp libgomp libomp /libgomp /libomp
for t in parallel barrier; do
  for T in 1 2; do
    declare -A V=()
    for rt in tomp libgomp libomp; do
      V[$rt]=$(TAG=disabled per_op $rt $t $T OMP_TOOL=disabled)
      BASE[$rt-$t-$T]=${V[$rt]}
    done
    printf '%-10s %2s %10s %10s %10s' $t $T "${V[tomp]}" "${V[libgomp]}" "${V[libomp]}"
    for r in libgomp libomp; do
      awk -v a="${V[tomp]}" -v b="${V[$r]}" \
        'BEGIN {if (a+0 > 0 && b+0 > 0) printf " %9.2f", a / b; else printf " %9s", "-"}'
    done
    echo
  done
done

echo
echo "OMPT cost (instructions per op; tomp and, for reference, libomp):"
printf '%-10s %2s %-8s %12s %12s %12s %14s\n' test T runtime "OMP_TOOL=dis" "null tool" "empty cbs" "null/empty +%"
for t in parallel barrier; do
  for T in 1 2; do
    for rt in tomp libomp; do
      d=${BASE[$rt-$t-$T]}
      z=$(TAG=nulltool per_op $rt $t $T OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$B/null-tool.so")
      e=$(TAG=emptycb per_op $rt $t $T OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$B/empty-tool.so")
      printf '%-10s %2s %-8s %12s %12s %12s' $t $T $rt "$d" "$z" "$e"
      awk -v d="$d" -v z="$z" -v e="$e" 'BEGIN {if (d+0 > 0 && z+0 > 0 && e+0 > 0)
        printf " %6.1f/%-7.1f\n", 100*(z-d)/d, 100*(e-d)/d; else print "      -"}'
    done
  done
done
