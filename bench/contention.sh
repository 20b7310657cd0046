#!/bin/bash
# A busy machine: tomp vs libgomp vs libomp while a background load this script starts and
# stops itself keeps CPUs busy (issue 19 item 2).
#
#   bench/contention.sh [--load L[,L...]] [--threads T[,T...]] [--rounds N] [--time S]
#                       [--steps N] [--team N] [--timeout S] [ROW...]
#   bench/contention.sh --report FILE.csv     the tables of an earlier run again
#
# Loads (--load, default none,pinned,all):
#   none    nothing started (the machine as it is: other users' load is recorded)
#   pinned  one busy process pinned to CPU 1 (the last CPU on a 1-CPU machine)
#   all     one busy process pinned to each CPU
# A busy process is a shell loop at the caller's priority; the script measures what it got
# (its CPU seconds over its wall seconds, from /proc/PID/stat) and writes that to the CSV.
#
# Rows (default: loop parallel barrier for team):
#   loop      bench/barrier-loop.c: STEPS (--steps, default 300) time steps of 4 short
#             `parallel for`s over 2048 doubles; seconds (the program's own timer)
#   parallel, barrier, for
#             bench/ompbench.c's `parallel`, `barrier` and `static_64` (a `for` and its
#             barrier), -t S (--time, default 0.2) per run; ns per op
#   team      bench/oversub.c: one region of num_threads(--team, default 10000) with a
#             barrier in it; seconds.  Run once per load and round, not per thread count.
# at each --threads count (default 2,4,32: OMP_NUM_THREADS, threads unbound).
#
# Runs are interleaved: for each round, each load is started, every row runs on every
# runtime (the order of the runtimes rotates per row and round), and the load is stopped;
# so a burst of other users' load hits all three runtimes alike.  Every program checks its
# own result; a failed run is recorded with its reason, never as a time.  The runtimes are
# loaded as bench/run.sh does (a directory holding libgomp.so.1 on LD_LIBRARY_PATH;
# TOMP_LIB / TOMP_BUILD select tomp); OMP_* variables of the caller reach all three.
# TOMP_BASE_LIB=/path/to/libtomp.so adds a fourth runtime, "tomp-base" (e.g. main's build, to
# show a change before and after in the same run); TOMP_VARIANTS="NAME=/path/libtomp.so ..."
# adds one runtime "tomp-NAME" per word (builds of a change's variants, side by side).
#
# Output: bench/results/contention-<date-time>.csv and .md (per load, thread count and row:
# the median of each runtime over the rounds, min-max, and tomp/best = tomp's median over the
# better of libgomp's and libomp's; > 1: tomp is slower).  docs/benchmarks.md, "Contention".
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1

LOADS=none,pinned,all THREADS=2,4,32 ROUNDS=5 TIME=0.2 STEPS=300 TEAM=10000 TIMEOUT=120
REPORT="" ROWS=()
while [ $# -gt 0 ]; do
  case $1 in
    --load) LOADS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --rounds) ROUNDS=$2; shift ;;
    --time) TIME=$2; shift ;;
    --steps) STEPS=$2; shift ;;
    --team) TEAM=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --report) REPORT=$2; shift ;;
    -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
    -*) echo "contention.sh: unknown option $1" >&2; exit 64 ;;
    *) ROWS+=("$1") ;;
  esac
  shift
done
[ ${#ROWS[@]} -eq 0 ] && ROWS=(loop parallel barrier for team)
for n in "$ROUNDS" "$STEPS" "$TEAM" "$TIMEOUT"; do
  case $n in '' | *[!0-9]* | 0) echo "contention.sh: counts must be positive integers" >&2; exit 64 ;; esac
done
for r in "${ROWS[@]}"; do
  case $r in loop | parallel | barrier | for | team) ;;
    *) echo "contention.sh: unknown row $r (loop parallel barrier for team)" >&2; exit 64 ;;
  esac
done
IFS=, read -r -a LLIST <<<"$LOADS"
for l in "${LLIST[@]}"; do
  case $l in none | pinned | all) ;;
    *) echo "contention.sh: unknown load $l (none pinned all)" >&2; exit 64 ;;
  esac
done
IFS=, read -r -a TLIST <<<"$THREADS"

# ---- report: medians per load, threads, row and runtime -----------------------------------
report() {
  {
    echo "# Contention: tomp vs libgomp vs libomp"
    sed -n 's/^# /- /p' "$1"
    echo
    echo "Median over the rounds (min-max); tomp/best: tomp's median over the better of the"
    echo "other two (> 1: tomp is slower). loop and team in seconds, the others in ns per op."
    echo "tomp-base and tomp-NAME, when present, are other tomp builds run in the same rounds"
    echo "(not in best)."
    awk -F, '
      !/^#/ && NR > 1 && $5 ~ /^tomp-/ && !($5 in isx) { isx[$5] = 1; xs[++nx] = $5 }
      !/^#/ && NR > 1 && $6 == "ok" {
        k = $2 SUBSEP $3 SUBSEP $4; rt = $5
        if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
        n = ++cnt[k, rt]; v[k, rt, n] = $7 + 0
      }
      !/^#/ && NR > 1 && $6 != "ok" { fail[$2 SUBSEP $3 SUBSEP $4, $5] = $6 }
      function med(k, rt,    n, i, j, t, a) {
        n = cnt[k, rt]; if (!n) return -1
        for (i = 1; i <= n; i++) a[i] = v[k, rt, i]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        lo[rt] = a[1]; hi[rt] = a[n]
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      }
      function cell(k, rt, m) {
        if (m < 0) return (k SUBSEP rt) in fail ? "FAIL: " fail[k, rt] : "n/a"
        return sprintf("%.4g (%.4g-%.4g)", m, lo[rt], hi[rt])
      }
      END {
        last = ""; xh = ""; xl = ""
        for (j = 1; j <= nx; j++) { xh = xh " " xs[j] " | /best |"; xl = xl "---|---|" }
        for (i = 1; i <= nk; i++) {
          split(keys[i], p, SUBSEP)
          if (p[1] != last) {
            printf "\n## load: %s\n\n| threads | row | tomp | libgomp | libomp | tomp/best |%s\n|---|---|---|---|---|---|%s\n", p[1], xh, xl
            last = p[1]
          }
          mt = med(keys[i], "tomp"); mg = med(keys[i], "libgomp"); mk = med(keys[i], "libomp")
          b = mg < 0 ? mk : (mk < 0 || mg < mk ? mg : mk)
          r = mt > 0 && b > 0 ? sprintf("%.2f", mt / b) : "-"
          printf "| %s | %s | %s | %s | %s | %s |", p[2], p[3], cell(keys[i], "tomp", mt),
            cell(keys[i], "libgomp", mg), cell(keys[i], "libomp", mk), r
          for (j = 1; j <= nx; j++) {
            m0 = med(keys[i], xs[j])
            r0 = m0 > 0 && b > 0 ? sprintf("%.2f", m0 / b) : "-"
            printf " %s | %s |", cell(keys[i], xs[j], m0), r0
          }
          printf "\n"
        }
      }' "$1"
  } >"${1%.csv}.md"
  cat "${1%.csv}.md"
}
if [ -n "$REPORT" ]; then report "$REPORT"; exit 0; fi

# ---- programs and runtimes ----------------------------------------------------------------
TOMP_LIB=${TOMP_LIB:-$ROOT/${TOMP_BUILD:-build}/libtomp.so}
GOMP_LIB=/usr/lib/x86_64-linux-gnu/libgomp.so.1
KMP_LIB=/usr/lib/llvm-14/lib/libomp.so.5
[ -f "$TOMP_LIB" ] || { echo "contention.sh: $TOMP_LIB missing: run make first" >&2; exit 1; }
command -v taskset >/dev/null || { echo "contention.sh: taskset (util-linux) missing" >&2; exit 1; }
B=$ROOT/build/bench
mkdir -p "$B" bench/results
for p in barrier-loop oversub ompbench; do
  extra=() && [ $p = ompbench ] && extra=(-Wl,-z,lazy -ldl)
  if [ ! -x "$B/$p" ] || [ "bench/$p.c" -nt "$B/$p" ]; then
    gcc -fopenmp -O2 -Wall -Wextra -o "$B/$p" "bench/$p.c" "${extra[@]}" || exit 1
  fi
done
RUNTIMES=(tomp libgomp libomp)
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=$GOMP_LIB [libomp]=$KMP_LIB)
if [ -n "${TOMP_BASE_LIB:-}" ]; then
  [ -f "$TOMP_BASE_LIB" ] || { echo "contention.sh: $TOMP_BASE_LIB missing" >&2; exit 1; }
  RUNTIMES+=(tomp-base) LIBOF[tomp-base]=$TOMP_BASE_LIB
fi
for v in ${TOMP_VARIANTS:-}; do
  name=${v%%=*} lib=${v#*=}
  case $name in '' | *[!A-Za-z0-9_.-]* | "$v") echo "contention.sh: TOMP_VARIANTS wants NAME=/path/libtomp.so, got '$v'" >&2; exit 64 ;; esac
  [ -f "$lib" ] || { echo "contention.sh: $lib missing" >&2; exit 1; }
  RUNTIMES+=("tomp-$name") LIBOF[tomp-$name]=$lib
done
for rt in "${RUNTIMES[@]}"; do
  mkdir -p "$B/rt/$rt" && ln -sfn "${LIBOF[$rt]}" "$B/rt/$rt/libgomp.so.1"
done

# ---- the background load ------------------------------------------------------------------
NCPU=$(nproc)
HOGS=() HOG_T0=""
hog_cpus() { # the CPUs a load keeps busy
  case $1 in
    none) ;;
    pinned) [ "$NCPU" -gt 1 ] && echo 1 || echo 0 ;;
    all) seq 0 $((NCPU - 1)) ;;
  esac
}
load_start() {
  HOGS=()
  for c in $(hog_cpus "$1"); do
    taskset -c "$c" bash -c 'while :; do :; done' &
    HOGS+=($!)
  done
  HOG_T0=$(date +%s.%N)
}
# Stop the load; print what each busy process got: "cpuC=SHARE" (CPU seconds / wall seconds).
load_stop() {
  local tck wall out="" i=0 c
  tck=$(getconf CLK_TCK)
  wall=$(awk -v a="$(date +%s.%N)" -v b="$HOG_T0" 'BEGIN { print a - b }')
  local cpus=($(hog_cpus "$1"))
  for p in "${HOGS[@]}"; do
    t=$(awk -v k="$tck" '{ print ($14 + $15) / k }' "/proc/$p/stat" 2>/dev/null || echo 0)
    kill "$p" 2>/dev/null
    wait "$p" 2>/dev/null
    c=${cpus[$i]}; i=$((i + 1))
    out+="cpu$c=$(awk -v t="$t" -v w="$wall" 'BEGIN { printf "%.2f", (w > 0 ? t / w : 0) }') "
  done
  HOGS=()
  echo "${out% }"
}
cleanup() { for p in "${HOGS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"; }
TMP=$(mktemp -d)
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- one run: "ok VALUE" or "FAIL-REASON -" -------------------------------------------------
run_one() { # rt row threads
  local rt=$1 row=$2 t=$3 out rc cmd
  case $row in
    loop) cmd=("$B/barrier-loop" "$STEPS") ;;
    parallel | barrier) cmd=("$B/ompbench" -T "$t" -t "$TIME" "$row") ;;
    for) cmd=("$B/ompbench" -T "$t" -t "$TIME" static_64) ;;
    team) cmd=("$B/oversub" "$TEAM" 1) ;;
  esac
  out=$(env LD_LIBRARY_PATH="$B/rt/$rt" OMP_NUM_THREADS="$t" timeout -k 5 "$TIMEOUT" \
    "${cmd[@]}" 2>"$TMP/err")
  rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then echo "timeout -"; return; fi
  if [ $rc != 0 ]; then echo "exit$rc -"; return; fi
  case $row in
    loop) v=$(sed -n 's/^barrier-loop: .*, \([0-9.]*\) s$/\1/p' <<<"$out") ;;
    team) v=$(sed -n 's/^oversub: .*, \([0-9.]*\) s$/\1/p' <<<"$out") ;;
    *)
      local bound
      bound=$(sed -n 's/.* bound=\([^ ]*\).*/\1/p' <<<"$out")
      if [ "$(readlink -f "$bound")" != "$(readlink -f "${LIBOF[$rt]}")" ]; then
        echo "wrong-runtime -"; return
      fi
      v=$(sed -n 's/.* ns_per_op=\([0-9.]*\).*/\1/p' <<<"$out") ;;
  esac
  [ -n "$v" ] && echo "ok $v" || echo "no-result -"
}

STAMP=$(date -u +%Y-%m-%d-%H%M%S)
CSV=bench/results/contention-$STAMP.csv
{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); $NCPU CPUs ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# tomp $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo +changes) ($TOMP_LIB)${TOMP_BASE_LIB:+; tomp-base $TOMP_BASE_LIB}${TOMP_VARIANTS:+; variants $TOMP_VARIANTS}; gcc $(gcc -dumpfullversion); libomp $(readlink -f "$KMP_LIB" | sed 's/.*\.so\.//')"
  echo "# rounds $ROUNDS; loads $LOADS; threads $THREADS; loop $STEPS steps; team $TEAM threads; ompbench -t $TIME"
  echo "round,load,threads,row,runtime,status,value"
} >"$CSV"
echo "contention.sh: $ROUNDS rounds, loads $LOADS, threads $THREADS, rows ${ROWS[*]} -> $CSV" >&2

k=0
for round in $(seq 1 "$ROUNDS"); do
  for load in "${LLIST[@]}"; do
    load_start "$load"
    for row in "${ROWS[@]}"; do
      tl=("${TLIST[@]}") && [ "$row" = team ] && tl=("$TEAM")
      for t in "${tl[@]}"; do
        k=$((k + 1))
        for i in "${!RUNTIMES[@]}"; do
          rt=${RUNTIMES[$(((i + k + round) % ${#RUNTIMES[@]}))]}
          read -r st v < <(run_one "$rt" "$row" "$t")
          echo "$round,$load,$t,$row,$rt,$st,$v" >>"$CSV"
        done
      done
    done
    got=$(load_stop "$load")
    echo "# round $round load $load: $(date -u +%H:%M:%S) UTC, busy processes got ${got:-nothing (none started)}; load average $(cut -d' ' -f1-3 /proc/loadavg)" >>"$CSV"
    echo "round $round, load $load: ${got:-no busy process}" >&2
  done
done
report "$CSV"
