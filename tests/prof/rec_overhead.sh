#!/usr/bin/env bash
# tomp-prof recording overhead (a measurement, not a test: run by hand, numbers go into
# docs/tomp-prof.md).  For each program: REPS runs without the tool and REPS runs under
# `tomp-prof record` at the default 200 Hz, interleaved; prints the median wall time and the
# median CPU time (user + system, less sensitive to other load on the machine) of each, the
# slowdowns, and the handler cost the tool measured itself (TOMP_PROF_STATS=1).
#   tests/prof/rec_overhead.sh [REPS]        (default 7; OMP_NUM_THREADS default 2)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REPS=${1:-7}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
make -s -C "$ROOT" -j2 >/dev/null
W=$(mktemp -d /tmp/tomp-prof-overhead.XXXXXX)
trap 'rm -rf "$W"' EXIT
for p in mandelbrot task_sort; do gcc -fopenmp -O2 "$ROOT/examples/$p.c" -o "$W/$p" -lm; done
gcc -fopenmp -O2 "$ROOT/tests/prof/rec_overhead_tasks.c" -o "$W/tasks"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
pct() { echo "($2 - $1) * 100 / $1" | bc -l; }
for p in mandelbrot task_sort tasks; do
  : >"$W/plain"
  : >"$W/prof"
  for ((i = 0; i < REPS; i++)); do
    LD_LIBRARY_PATH="$ROOT/build/lib" /usr/bin/time -f '%e %U %S' -a -o "$W/plain" "$W/$p" >/dev/null
    TOMP_PROF_STATS=1 /usr/bin/time -f '%e %U %S' -a -o "$W/prof" \
      "$ROOT/build/tomp-prof" record -o "$W/d" -- "$W/$p" >/dev/null 2>"$W/err"
    rm -rf "$W/d"
  done
  a=$(awk '{ print $1 }' "$W/plain" | median)
  b=$(awk '{ print $1 }' "$W/prof" | median)
  ca=$(awk '{ print $2 + $3 }' "$W/plain" | median)
  cb=$(awk '{ print $2 + $3 }' "$W/prof" | median)
  printf '%-10s wall %.2f -> %.2f s (%+.1f%%), cpu %.2f -> %.2f s (%+.1f%%)\n' "$p" "$a" "$b" \
    "$(pct "$a" "$b")" "$ca" "$cb" "$(pct "$ca" "$cb")"
  grep -h 'handler time\|task_create' "$W/err" | sed 's/^/           last run: /'
done
