#!/bin/bash
# Side-by-side microbenchmarks: tomp vs GCC's libgomp vs LLVM's libomp (GOMP layer).
#
#   bench/run.sh [--quick] [--reps N] [--threads T[,T...]] [--time S] [--timeout S]
#                [--quiet PCT] [tests...]
#
# --quiet PCT: before each test's interleaved triple of runs, wait (up to 10 s) until other
# processes keep less than PCT% of the CPUs busy (sampled over 0.2 s).  Every sample is kept
# in the CSV (others_busy_pct) so a noisy result can be recognised.
#
# One binary (build/bench/ompbench, gcc -fopenmp -O2) runs on every runtime; only the
# directory on LD_LIBRARY_PATH changes: it holds a libgomp.so.1 that is tomp, the system
# libgomp or libomp.  (LD_PRELOAD of libomp is NOT used: the system libgomp would still be
# loaded as the binary's DT_NEEDED and run its constructor; see docs/benchmarks.md.)  Every
# run prints the library its GOMP_parallel bound to and all OpenMP libraries mapped; the
# script refuses a result whose runtime is not the one intended.
#
# Runs are interleaved (rep 1: test A on tomp, libgomp, libomp; test B on ...; rep 2: ...) so
# that a burst of load from other processes hits all runtimes and is spread over every test's
# repetitions.  Tables: the median of the N runs (each run reports the median of its timed
# batches), the best batch of all runs (least disturbed), and with --quiet the median of the
# runs that started quiet; ratios tomp/libgomp and tomp/libomp.  A run that fails (missing entry point, wrong result,
# crash) or hangs (timeout) marks that runtime n/a for the test; it is not retried.
#
# Environment: TOMP_BUILD (default build) selects the tomp build directory, or TOMP_LIB names
# any libtomp.so (e.g. another branch's build, to see what a merge will bring); OMP_* / GOMP_* /
# KMP_* variables the caller sets pass through to all runtimes alike.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1

REPS=5 THREADS=2 TIME=0.3 TIMEOUT=20 QUICK=0 QUIET=""
TESTS=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --reps) REPS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --time) TIME=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --quiet) QUIET=$2; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 64 ;;
    *) TESTS+=("$1") ;;
  esac
  shift
done
if [ $QUICK = 1 ]; then
  # explicit --reps/--time given before or after --quick keep their value only if not default
  [ "$REPS" = 5 ] && REPS=3
  [ "$TIME" = 0.3 ] && TIME=0.1
  [ "$TIMEOUT" = 20 ] && TIMEOUT=10
fi
case $REPS in ''|*[!0-9]*|0) echo "run.sh: --reps needs a positive integer" >&2; exit 64 ;; esac

TOMP_BUILD=${TOMP_BUILD:-build}
BIN=build/bench/ompbench
TOMP_LIB=${TOMP_LIB:-$ROOT/$TOMP_BUILD/libtomp.so}
GOMP_LIB=/usr/lib/x86_64-linux-gnu/libgomp.so.1
KMP_LIB=/usr/lib/llvm-14/lib/libomp.so.5
[ -f "$TOMP_LIB" ] || { echo "run.sh: $TOMP_LIB missing: run make first" >&2; exit 1; }
if [ ! -x $BIN ] || [ bench/ompbench.c -nt $BIN ]; then
  mkdir -p build/bench
  gcc -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o $BIN bench/ompbench.c -ldl || exit 1
fi

# One directory per runtime, each holding libgomp.so.1 -> that runtime.
LIBDIRS=$ROOT/build/bench/rt
RUNTIMES=(tomp libgomp libomp)
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=$GOMP_LIB [libomp]=$KMP_LIB)
for rt in "${RUNTIMES[@]}"; do
  mkdir -p "$LIBDIRS/$rt"
  ln -sfn "${LIBOF[$rt]}" "$LIBDIRS/$rt/libgomp.so.1"
  [ -e "${LIBOF[$rt]}" ] || echo "run.sh: ${LIBOF[$rt]} missing; $rt will be n/a" >&2
done

[ ${#TESTS[@]} -eq 0 ] && mapfile -t TESTS < <($BIN -l | awk '{print $1}')
for t in "${TESTS[@]}"; do
  $BIN -l | awk '{print $1}' | grep -qx "$t" || { echo "run.sh: unknown test $t" >&2; exit 64; }
done
IFS=, read -r -a TLIST <<<"$THREADS"

STAMP=$(date +%Y-%m-%d-%H%M%S)
mkdir -p bench/results
CSV=bench/results/$STAMP.csv
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "ompbench: ${#TESTS[@]} tests x ${#RUNTIMES[@]} runtimes x $REPS reps, threads $THREADS," \
  "${TIME}s per run, timeout ${TIMEOUT}s; load average $LOAD0; $(nproc) CPUs" >&2

# status/<T>/<test>/<rt>: "" while fine, else the reason; vals/<T>/<test>/<rt>: one value a line
reason_of() {
  case $1 in
    124|137) echo "timeout ${TIMEOUT}s" ;;
    127) echo "missing entry point" ;;
    2) echo "wrong result" ;;
    3) echo "wrong runtime loaded" ;;
    *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit $1"; fi ;;
  esac
}

run_one() { # T test rt -> appends to vals or writes status
  local T=$1 t=$2 rt=$3 d=$TMP/$1/$2 out rc real
  mkdir -p "$d"
  [ -s "$d/$rt.status" ] && return
  out=$(env -u LD_PRELOAD -u LD_BIND_NOW LD_LIBRARY_PATH="$LIBDIRS/$rt" OMP_NUM_THREADS=$T \
        timeout -k 2 "$TIMEOUT" $BIN -T "$T" -t "$TIME" "$t" 2>"$d/$rt.err")
  rc=$?
  if [ $rc -eq 0 ]; then
    real=$(readlink -f "${LIBOF[$rt]}")
    # the runtime bound must be the intended one, and no other OpenMP library mapped
    if ! grep -q "bound=$real loaded=$real\$" <<<"$out"; then
      echo "run.sh: $t on $rt: wrong runtime: ${out##*bound=}" >>"$d/$rt.err"
      rc=3
    fi
  fi
  if [ $rc -ne 0 ]; then
    { reason_of $rc | tr -d '\n'
      sed -n 's/.*undefined symbol: \([^,]*\).*/ \1/p' "$d/$rt.err" | head -1; echo; } >"$d/$rt.status"
    printf '  %-15s T=%s %-8s n/a: %s: %s\n' "$t" "$T" "$rt" "$(cat "$d/$rt.status")" \
      "$(head -c 200 "$d/$rt.err" | tr '\n' ' ')" >&2
    return
  fi
  sed -n 's/.* ns_per_op=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$d/$rt.vals"
  sed -n 's/.* min=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$d/$rt.mins"
}

# Share of the CPUs other processes keep busy, sampled over half a second before each rep
# (while nothing of ours runs): the noise this rep is exposed to.
busy_others() {
  local a b
  read -r -a a < <(grep '^cpu ' /proc/stat)
  sleep "${1:-0.5}"
  read -r -a b < <(grep '^cpu ' /proc/stat)
  awk -v t0="$(( a[1]+a[2]+a[3]+a[4]+a[5]+a[6]+a[7] ))" -v i0="$(( a[4]+a[5] ))" \
      -v t1="$(( b[1]+b[2]+b[3]+b[4]+b[5]+b[6]+b[7] ))" -v i1="$(( b[4]+b[5] ))" \
      'BEGIN {d = t1 - t0; printf "%.0f", (d > 0 ? 100 * (1 - (i1 - i0) / d) : 0)}'
}
BUSY=()
for rep in $(seq 1 "$REPS"); do
  b=$(busy_others); BUSY+=("$b")
  echo "rep $rep/$REPS (load $(cut -d' ' -f1 /proc/loadavg), CPUs busy with other work: $b%)" >&2
  for T in "${TLIST[@]}"; do
    for t in "${TESTS[@]}"; do
      if [ -n "$QUIET" ]; then
        for w in $(seq 10); do
          b=$(busy_others 0.2)
          [ "$b" -lt "$QUIET" ] && break
          sleep 0.8
        done
        mkdir -p "$TMP/$T/$t" && echo "$b" >>"$TMP/$T/$t/busy"
      fi
      for rt in "${RUNTIMES[@]}"; do run_one "$T" "$t" "$rt"; done
    done
  done
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

stat_of() { # file -> "median min max n" (median of an even count: mean of the middle two)
  sort -g "$1" | awk '{v[NR]=$1} END {if (NR==0) exit;
    m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.2f %.2f %.2f %d\n", m, v[1], v[NR], NR}'
}

COMMIT=$(git rev-parse --short HEAD 2>/dev/null)
BUSYS=$(IFS=';'; echo "${BUSY[*]}")
echo "date,host,cpus,threads,test,runtime,status,median_ns,best_ns,min_run_ns,max_run_ns,runs,run_values,others_busy_pct,load_before,load_after,tomp_commit" >"$CSV"
# Collect: MED/BEST[T,test,rt] ("" when n/a)
declare -A MED=() BEST=() QMED=()
for T in "${TLIST[@]}"; do
  for t in "${TESTS[@]}"; do
    for rt in "${RUNTIMES[@]}"; do
      f=$TMP/$T/$t/$rt k=$T,$t,$rt
      [ -s "$TMP/$T/$t/busy" ] && BUSYS=$(paste -sd';' "$TMP/$T/$t/busy")
      if [ -s "$f.status" ] || [ ! -s "$f.vals" ]; then
        MED[$k]="" BEST[$k]="" QMED[$k]=""
        echo "$STAMP,$(hostname),$(nproc),$T,$t,$rt,$(cat "$f.status" 2>/dev/null),,,,,0,,$BUSYS,$LOAD0,$LOAD1,$COMMIT" >>"$CSV"
      else
        read -r med min max cnt < <(stat_of "$f.vals")
        MED[$k]=$med
        BEST[$k]=$(sort -g "$f.mins" | head -1)
        # with --quiet: the median of the runs that started with the machine quiet
        QMED[$k]=""
        if [ -n "$QUIET" ] && [ -s "$TMP/$T/$t/busy" ]; then
          paste -d' ' "$TMP/$T/$t/busy" "$f.vals" | awk -v q="$QUIET" 'NF == 2 && $1 < q {print $2}' >"$f.qvals"
          [ -s "$f.qvals" ] && QMED[$k]=$(stat_of "$f.qvals" | awk '{print $1 " (" $4 ")"}')
        fi
        echo "$STAMP,$(hostname),$(nproc),$T,$t,$rt,ok,$med,${BEST[$k]},$min,$max,$cnt,$(paste -sd';' "$f.vals"),$BUSYS,$LOAD0,$LOAD1,$COMMIT" >>"$CSV"
      fi
    done
  done
done

table() { # name of the assoc array (MED or BEST)
  local -n V=$1
  printf '%-15s %3s %29s %12s %12s %9s %9s\n' test T "tomp ns/op" "libgomp" "libomp" "/libgomp" "/libomp"
  for T in "${TLIST[@]}"; do
    for t in "${TESTS[@]}"; do
      line=$(printf '%-15s %3s' "$t" "$T")
      for rt in "${RUNTIMES[@]}"; do
        v=${V[$T,$t,$rt]}
        if [ -z "$v" ]; then
          [ "$rt" = tomp ] && v="n/a (unsupported on tomp yet)" || v="n/a"
        fi
        [ "$rt" = tomp ] && line+=$(printf ' %29s' "$v") || line+=$(printf ' %12s' "$v")
      done
      for ref in libgomp libomp; do
        a=${V[$T,$t,tomp]%% *} b=${V[$T,$t,$ref]%% *}
        if [ -n "$a" ] && [ -n "$b" ]; then
          line+=$(awk -v a="$a" -v b="$b" 'BEGIN {printf " %9.2f", (b > 0 ? a / b : 0)}')
        else
          line+=$(printf ' %9s' -)
        fi
      done
      echo "$line"
    done
  done
}

echo
echo "== median of $REPS runs (each run: median of its timed batches), ns per op; ratio > 1: tomp slower"
table MED
echo
echo "== best batch of all $REPS runs (least disturbed by other load), ns per op"
table BEST
if [ -n "$QUIET" ]; then
  echo
  echo "== median of the runs that started with other processes using < $QUIET% of the CPUs (how many)"
  table QMED
fi
echo
echo "load average before: $LOAD0, after: $LOAD1; CPUs busy with other work before each rep: ${BUSY[*]} (%)"
for T in "${TLIST[@]}"; do for t in "${TESTS[@]}"; do for rt in "${RUNTIMES[@]}"; do
  [ -s "$TMP/$T/$t/$rt.status" ] && echo "  $t (T=$T): $rt n/a: $(cat "$TMP/$T/$t/$rt.status")"
done; done; done
echo "CSV: $CSV"
