#!/bin/bash
# What the end of a parallel region costs with a tool attached: `ompbench parallel` with the
# all-callbacks no-op tool (bench/null-tool.c -DALL_CALLBACKS) on several runtimes, per region:
# context switches and CPU time (perf stat), futex / sched_yield / nanosleep calls (strace -f
# -c), and the wall time per region (ompbench's median batch).  Counts are differences of two
# fixed repetition counts (start-up and exit cancel out); rounds alternate the runtimes.
#
#   bench/ompt-join.sh [--threads T] [--rounds R] [--no-tool] NAME=LIB [NAME=LIB ...]
#
# LIB: a libtomp.so (e.g. build/libtomp.so and a copy of main's, for an A/B) or LLVM's
# /usr/lib/llvm-14/lib/libomp.so.5.  Default: 4 threads (oversubscribing a 2-CPU machine),
# 3 rounds, medians printed; --no-tool adds each runtime without a tool.  Wall times need a
# quiet machine; the counts move less with load, but a busy machine changes them too.
# docs/benchmarks.md, "OMPT rows", has a run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=4 R=3 NOTOOL=0 N1=2000 N2=12000
while [ $# -gt 0 ]; do
  case $1 in
    --threads) T=$2; shift ;;
    --rounds) R=$2; shift ;;
    --no-tool) NOTOOL=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "ompt-join.sh: unknown argument $1" >&2; exit 64 ;;
    *) break ;;
  esac
  shift
done
[ $# -gt 0 ] || { sed -n '2,15p' "$0"; exit 64; }
for tool in perf strace; do
  command -v $tool >/dev/null || { echo "ompt-join.sh: $tool missing (apt-get install linux-perf strace)" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
gcc -fopenmp -O2 -Wl,-z,lazy -o "$TMP/ompbench" "$ROOT/bench/ompbench.c" -ldl &&
  gcc -O2 -fPIC -shared -I"$ROOT/include" -DALL_CALLBACKS -o "$TMP/all-tool.so" \
    "$ROOT/bench/null-tool.c" || exit 1
CFGS=()
for spec in "$@"; do
  name=${spec%%=*} lib=${spec#*=}
  [ -f "$lib" ] || { echo "ompt-join.sh: $lib missing" >&2; exit 1; }
  mkdir -p "$TMP/rt/$name"
  ln -sfn "$(readlink -f "$lib")" "$TMP/rt/$name/libgomp.so.1"
  CFGS+=("$name+tool")
  [ $NOTOOL = 1 ] && CFGS+=("$name")
done

# one measurement of configuration $1: "ctxsw cpu_us futex yield nanosleep wall_ns" per region
measure() {
  local name=${1%+tool} env=(LD_LIBRARY_PATH=$TMP/rt/${1%+tool})
  [ "$1" != "$name" ] && env+=(OMP_TOOL_LIBRARIES=$TMP/all-tool.so)
  local run=("$TMP/ompbench" -T "$T")
  perfc() {
    env "${env[@]}" perf stat -x, -e context-switches,task-clock "${run[@]}" -n "$1" parallel \
      2>&1 >/dev/null | awk -F, '/context-switches/ {c = $1} /task-clock/ {t = $1} END {print c, t}'
  }
  sysc() {
    env "${env[@]}" strace -f -qq -c -e trace=futex,sched_yield,nanosleep,clock_nanosleep \
      "${run[@]}" -n "$1" parallel 2>&1 >/dev/null |
      awk '$NF == "futex" {f = $4} $NF == "sched_yield" {y = $4} $NF ~ /nanosleep/ {n += $4}
           END {print f + 0, y + 0, n + 0}'
  }
  local c1 t1 c2 t2 f1 y1 s1 f2 y2 s2 wall
  read -r c1 t1 < <(perfc $N1)
  read -r c2 t2 < <(perfc $N2)
  read -r f1 y1 s1 < <(sysc $((N1 / 10)))
  read -r f2 y2 s2 < <(sysc $((N2 / 10)))
  wall=$(env "${env[@]}" "${run[@]}" -t 0.3 parallel 2>/dev/null | sed -n 's/.*ns_per_op=\([0-9.]*\).*/\1/p')
  awk -v c1="$c1" -v c2="$c2" -v t1="$t1" -v t2="$t2" -v f1="$f1" -v f2="$f2" -v y1="$y1" \
    -v y2="$y2" -v s1="$s1" -v s2="$s2" -v d=$((N2 - N1)) -v ds=$(((N2 - N1) / 10)) -v w="$wall" \
    'BEGIN {printf "%.2f %.1f %.2f %.2f %.2f %.0f\n", (c2 - c1) / d, (t2 - t1) / d * 1000,
            (f2 - f1) / ds, (y2 - y1) / ds, (s2 - s1) / ds, w}'
}

for ((r = 0; r < R; r++)); do
  n=${#CFGS[@]}
  for ((k = 0; k < n; k++)); do
    c=${CFGS[$(((k + r) % n))]}
    echo "$c $(measure "$c")" >>"$TMP/all.txt"
  done
done
echo "ompbench parallel, $T threads, $R rounds ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)); medians per region:"
printf '%-22s %8s %8s %8s %8s %8s %10s\n' config ctxsw cpu_us futex yield nsleep wall_ns
for c in "${CFGS[@]}"; do
  printf '%-22s' "$c"
  for col in 2 3 4 5 6 7; do
    awk -v c="$c" -v col=$col '$1 == c {print $col}' "$TMP/all.txt" | sort -g |
      awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                              printf (col == 7 ? " %10.0f" : " %8.2f"), m}' col=$col
  done
  echo
done
