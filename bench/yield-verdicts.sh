#!/bin/bash
# Why does an oversubscribed team leave its yields for futex sleeps?  (issue 19: EPCC
# syncbench at 4 threads on 2 CPUs runs whole tests "asleep" now and then; docs/benchmarks.md,
# "EPCC at 4 threads".)  Runs epcc-syncbench at T threads on each tomp build given, alternating,
# under bench/yield-shim.c, and prints one line per run:
#
#   BUILD PARALLEL=4.1/0 FOR=3.9/2 ... | slow yields 35, others 2 (kworker/0:1 x1, cc1 x2)
#
# per test the overhead in microseconds and the futex waits the test made (a test run asleep
# makes thousands; one that yields makes a handful), then the run's slow yields (0.5 ms or
# more off the CPU), how many of them the load showed another thread runnable right after
# (the runtime's "another program had the CPU", wait.c's others_runnable), and those threads'
# names (every thread of the machine in state R that was not ours at such a moment, with how
# many of those moments found it).
#
#   bench/yield-verdicts.sh [--runs N] [--threads T] [--ours] [DIR...]
#
# DIR: a tomp build directory (DIR/libtomp.so is loaded as libgomp.so.1); default build.
# --ours: the load shows only this process's runnable threads (a machine that runs nothing
# but us, whatever its real load): then an "others" is one of our threads counted at one look
# and not at the next.  Needs epcc-syncbench in the apps cache (bench/apps.sh epcc-syncbench
# builds it).  Counts, not times, say what happened; times taken while others load the
# machine are "under load".
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=6 THREADS=4 OURS=0 DIRS=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --ours) OURS=1 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    -*) echo "yield-verdicts.sh: unknown option $1" >&2; exit 64 ;;
    *) DIRS+=("$1") ;;
  esac
  shift
done
[ ${#DIRS[@]} -gt 0 ] || DIRS=("$ROOT/build")
EPCC=${TOMP_APPS_CACHE:-$HOME/.cache/tomp-apps}/bin/epcc-syncbench
[ -x "$EPCC" ] || { echo "yield-verdicts.sh: no $EPCC (bench/apps.sh epcc-syncbench builds it)" >&2; exit 1; }
W=$ROOT/build/bench/yield-verdicts
mkdir -p "$W" || exit 1
gcc -O2 -Wall -Wextra -fPIC -shared "$ROOT/bench/yield-shim.c" -o "$W/yield-shim.so" -ldl -lpthread ||
  exit 1
for d in "${DIRS[@]}"; do # each build as a libgomp.so.1 of its own
  [ -f "$d/libtomp.so" ] || { echo "yield-verdicts.sh: no $d/libtomp.so" >&2; exit 1; }
done
for ((i = 1; i <= RUNS; i++)); do
  n=0
  for d in "${DIRS[@]}"; do
    n=$((n + 1))
    lib=$W/lib$n && mkdir -p "$lib" && ln -sf "$(cd "$d" && pwd)/libtomp.so" "$lib/libgomp.so.1"
    env $([ $OURS = 1 ] && echo YIELD_SHIM_OURS=1) OMP_NUM_THREADS="$THREADS" \
      LD_LIBRARY_PATH="$lib" LD_PRELOAD="$W/yield-shim.so" \
      timeout 120 "$EPCC" --outer-repetitions 3 --test-time 1000 >"$W/out" 2>"$W/err"
    rc=$?
    printf '%s ' "$d"
    [ $rc = 0 ] || { echo "FAILED (exit $rc): $(tail -1 "$W/err")"; continue; }
    awk 'FNR == NR { if (/overhead =/) { n = $0; sub(/ overhead.*/, "", n); gsub(/ /, "_", n);
                       us[n] = $(NF-3) } next }
         /^YV / { for (f = 2; f <= NF; f++) { split($f, kv, "="); v[kv[1]] = substr($f, length(kv[1]) + 2) }
                  n = v["test"]; gsub(/ /, "_", n); printf "%s=%.1f/%s ", n, us[n], v["futex"]
                  slow += v["slow"]; oth += v["others"]
                  if (v["names"] != "-") { k = split(v["names"], nm, ","); for (j = 1; j <= k; j++) seen[nm[j]]++ } }
         END { printf "| slow yields %d, others %d (", slow, oth; sep = ""
               for (x in seen) { printf "%s%s x%d", sep, x, seen[x]; sep = ", " }
               print sep == "" ? "-)" : ")" }' \
      "$W/out" "$W/err"
  done
done
