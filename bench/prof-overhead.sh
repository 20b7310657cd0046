#!/usr/bin/env bash
# tomp-prof's cost on real work (a measurement, not a test; numbers go into docs/tomp-prof.md
# and the README).  Each program runs REPS times without the tool and REPS times under
# `tomp-prof record` at the default 200 Hz, interleaved (plain, profiled, plain, ...) so that
# load from other processes hits both alike; prints the median wall time and the median CPU
# time (user + system) of each, the slowdowns, and the tool's own cost figures
# (TOMP_PROF_STATS=1: handler time per sample, time per task_create).
#   bench/prof-overhead.sh [REPS] [PROGRAM...]      (default 7 reps; OMP_NUM_THREADS default 2)
# Programs: the bench kernels (matmul jacobi sort irregular task_tree, bench/kernels.c), the
# examples (mandelbrot task_sort) and `tasks` (bench/prof-overhead-tasks.c: tiny tasks, the
# tool's worst case).  Default: the four kernels and the examples.  KREPS (default 48): the
# kernels' repetitions per run (0.7-2 s on this machine, so the tool's fixed start-up and write-out cost of
# 20-30 ms does not dominate).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPS=${1:-7}
shift || true
PROGS=${*:-matmul jacobi sort irregular mandelbrot task_sort}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
make -s -C "$ROOT" -j2 >/dev/null
W=$(mktemp -d /tmp/tomp-prof-overhead.XXXXXX)
trap 'rm -rf "$W"' EXIT
for p in mandelbrot task_sort; do gcc -fopenmp -O2 "$ROOT/examples/$p.c" -o "$W/$p" -lm; done
gcc -fopenmp -O2 "$ROOT/bench/prof-overhead-tasks.c" -o "$W/tasks"
gcc -fopenmp -O2 "$ROOT/bench/kernels.c" -o "$W/kernels" -lm
cmd() { # the command line of program $1
  case $1 in
    matmul | jacobi | sort | irregular | task_tree) echo "$W/kernels -T $OMP_NUM_THREADS -n ${KREPS:-48} $1" ;;
    *) echo "$W/$1" ;;
  esac
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f", (b - a) * 100 / a }'; }
echo "tomp-prof overhead, $(date -u +%F), $REPS interleaved runs each, $OMP_NUM_THREADS threads, 200 Hz; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| program | wall plain (s) | wall profiled (s) | wall | cpu plain (s) | cpu profiled (s) | cpu |\n|---|--:|--:|--:|--:|--:|--:|\n'
for p in $PROGS; do
  : >"$W/plain"
  : >"$W/prof"
  c=$(cmd "$p")
  for ((i = 0; i < REPS; i++)); do
    LD_LIBRARY_PATH="$ROOT/build/lib" /usr/bin/time -f '%e %U %S' -a -o "$W/plain" $c >/dev/null
    TOMP_PROF_STATS=1 /usr/bin/time -f '%e %U %S' -a -o "$W/prof" \
      "$ROOT/build/tomp-prof" record -o "$W/d" -- $c >/dev/null 2>"$W/err.$p"
    rm -rf "$W/d"
  done
  a=$(awk '{ print $1 }' "$W/plain" | median)
  b=$(awk '{ print $1 }' "$W/prof" | median)
  ca=$(awk '{ print $2 + $3 }' "$W/plain" | median)
  cb=$(awk '{ print $2 + $3 }' "$W/prof" | median)
  printf '| %s | %.3f | %.3f | %s%% | %.3f | %.3f | %s%% |\n' "$p" "$a" "$b" "$(pct "$a" "$b")" \
    "$ca" "$cb" "$(pct "$ca" "$cb")"
done
echo
echo "the tool's own figures (last profiled run of each program):"
for p in $PROGS; do
  grep -h 'handler time\|handler CPU time\|task_create' "$W/err.$p" | sed "s/^/  $p: /" || true
done
