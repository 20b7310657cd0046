#!/bin/bash
# Memory of tomp, libgomp and libomp (the same gcc -fopenmp binary, bench/memory.c, on each
# through LD_LIBRARY_PATH, as bench/run.sh does): resident memory of an idle team of 32
# threads and per thread, and the peak for one million tasks from one producer.
#
#   bench/memory.sh [--threads N] [--tasks M] [--runs R]
#
# Figures from /proc/self/status (KiB): "base" is the process before its first region;
# idle team: VmRSS after the region (its workers parked), the growth per worker (resident, and
# address space: mostly each thread's stack reservation); tasks: VmHWM (the peak resident
# size) over the base, and the most tasks the producer ever saw created but not finished
# (each runtime bounds it by its own cut-off).  Medians of R runs (default 3).  Memory does
# not depend on the load of the machine, only on the pages the runtime touches.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
T=32 M=1000000 RUNS=3
while [ $# -gt 0 ]; do
  case $1 in
    --threads) T=$2; shift ;;
    --tasks) M=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "memory.sh: unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done
TOMP_BUILD=${TOMP_BUILD:-build}
TOMP_LIB=${TOMP_LIB:-$ROOT/$TOMP_BUILD/libtomp.so}
[ -f "$TOMP_LIB" ] || { echo "memory.sh: $TOMP_LIB missing: run make first" >&2; exit 1; }
B=$ROOT/build/bench
mkdir -p "$B"
if [ ! -x "$B/memory" ] || [ bench/memory.c -nt "$B/memory" ]; then
  gcc -fopenmp -O2 -Wall -Wextra -o "$B/memory" bench/memory.c || exit 1
fi
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=/usr/lib/x86_64-linux-gnu/libgomp.so.1
  [libomp]=/usr/lib/llvm-14/lib/libomp.so.5)
for rt in tomp libgomp libomp; do
  mkdir -p "$B/rt/$rt" && ln -sfn "${LIBOF[$rt]}" "$B/rt/$rt/libgomp.so.1"
done

field() { sed -n "s/.*\<$1 \([0-9-]*\).*/\1/p" | head -1; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "n/a"}'; }
run() { # rt args... -> the program's output (empty on failure)
  local rt=$1
  shift
  env -u LD_PRELOAD LD_LIBRARY_PATH="$B/rt/$rt" OMP_WAIT_POLICY=passive timeout 300 "$B/memory" "$@" ||
    echo "memory.sh: $rt $* failed" >&2
}

echo "memory: KiB from /proc/self/status, median of $RUNS runs; $(date -u '+%Y-%m-%d %H:%M UTC'), tomp $(git rev-parse --short HEAD)"
printf '%-8s | %8s %12s %14s %14s | %12s %14s\n' runtime "base" "idle team $T" "per worker" "addr/worker" \
  "tasks peak" "most pending"
for rt in tomp libgomp libomp; do
  declare -a idle=() tasks=()
  for i in $(seq "$RUNS"); do idle+=("$(run $rt idle "$T")"); tasks+=("$(run $rt tasks "$T" "$M" | tr '\n' ' ')"); done
  base=$(for o in "${idle[@]}"; do echo "$o" | field base_rss; done | median)
  rss=$(for o in "${idle[@]}"; do echo "$o" | awk '{for (i = 1; i < NF; i++) v[$i] = $(i+1); print v["rss"] - v["base_rss"]}'; done | median)
  vm=$(for o in "${idle[@]}"; do echo "$o" | awk '{for (i = 1; i < NF; i++) v[$i] = $(i+1); print v["vm"] - v["base_vm"]}'; done | median)
  peak=$(for o in "${tasks[@]}"; do echo "$o" | awk '{for (i = 1; i < NF; i++) v[$i] = $(i+1); print v["hwm"] - v["base_rss"]}'; done | median)
  pend=$(for o in "${tasks[@]}"; do echo "$o" | field most_pending; done | median)
  printf '%-8s | %8s %12s %14s %14s | %12s %14s\n' $rt "$base" "+$rss" \
    "$(awk -v r="$rss" -v t="$T" 'BEGIN {printf "%.1f", r / (t - 1)}')" \
    "$(awk -v r="$vm" -v t="$T" 'BEGIN {printf "%.0f", r / (t - 1)}')" "+$peak" "$pend"
done
