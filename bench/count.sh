#!/bin/bash
# Cache-line costs of tomp's barrier, fork/join, task steal and task, counted by the counting
# build (make COUNT=1, src/core/count.h) at 2..64 threads: per operation, the atomic
# read-modify-writes, the lines written with plain stores that another thread reads next,
# the futex wakes, and apart from those the waiting's own costs (per poll or sleep).
#
#   bench/count.sh [--threads 2,4,...] [--runs R]
#
# Each point runs bench/count.c with K1 and K2 operations and divides the difference of the
# counts by the difference of the episodes the library counted (barriers released, forks,
# successful steals, tasks completed): start-up, the first fork and exit cancel out.  Counts,
# not times: a loaded machine changes only the waiting column (and with a producer of tasks,
# how many of them are stolen).  Threads beyond the CPUs are fine here; they only wait more.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
THREADS=2,4,8,16,32,64 RUNS=3
while [ $# -gt 0 ]; do
  case $1 in
    --threads) THREADS=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "count.sh: unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done
nice make -s -j2 COUNT=1 build-count/libtomp.so build-count/lib/libgomp.so.1 >/dev/null || exit 1
B=$ROOT/build-count/bench
mkdir -p "$B"
if [ ! -x "$B/count" ] || [ bench/count.c -nt "$B/count" ]; then
  gcc -fopenmp -O2 -Wall -Wextra -o "$B/count" bench/count.c || exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

counts() { # mode N K op -> "episodes rmw write wake wait" of op (empty on failure)
  LD_LIBRARY_PATH=$ROOT/build-count/lib timeout 300 "$B/count" "$1" "$2" "$3" \
    >/dev/null 2>"$TMP/err" || { echo "count.sh: $1 N=$2 K=$3 failed: $(head -2 "$TMP/err")" >&2; return; }
  sed -n "s/^tomp-count: $4 episodes=\([0-9]*\) rmw=\([0-9]*\) write=\([0-9]*\) wake=\([0-9]*\) wait=\([0-9]*\)$/\1 \2 \3 \4 \5/p" "$TMP/err"
}

per_op() { # mode N K1 K2 op -> "rmw write wake wait" per episode, medians over RUNS
  local i a b
  for i in $(seq "$RUNS"); do
    a=$(counts "$1" "$2" "$3" "$5") b=$(counts "$1" "$2" "$4" "$5")
    [ -n "$a" ] && [ -n "$b" ] || continue
    echo "$a $b"
  done | awk '{de = $6 - $1; if (de <= 0) next
               r[NR] = ($7 - $2) / de; w[NR] = ($8 - $3) / de; k[NR] = ($9 - $4) / de; s[NR] = ($10 - $5) / de; n = NR}
    function med(a,   m, i, j, t) {m = n; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) {t = a[i]; a[i] = a[j]; a[j] = t}
                                 return a[int((m + 1) / 2)]}
    END {if (!n) {print "n/a n/a n/a n/a"; exit}
         printf "%.2f %.2f %.2f %.2f\n", med(r), med(w), med(k), med(s)}'
}

echo "tomp counting build ($(git rev-parse --short HEAD)), per operation: atomic RMWs / lines" \
  "written / futex wakes | waiting's own RMWs+sleeps; median of $RUNS"
printf '%4s | %-24s | %-24s | %-24s | %-12s\n' N "barrier" "fork/join" "steal (per stolen task)" "task"
for N in ${THREADS//,/ }; do
  bar=$(per_op barrier "$N" 200 1200 barrier)
  fj=$(per_op forkjoin "$N" 100 600 forkjoin)
  st=$(per_op steal "$N" 500 2500 steal)
  tk=$(per_op steal "$N" 500 2500 task)
  fmt() { set -- $1; printf '%6s %6s %5s | %6s' "$1" "$2" "$3" "$4"; }
  printf '%4s | %s | %s | %s | %6s\n' "$N" "$(fmt "$bar")" "$(fmt "$fj")" "$(fmt "$st")" "$(set -- $tk; echo "$1")"
done
