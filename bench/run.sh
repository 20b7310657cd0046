#!/bin/bash
# Side-by-side benchmarks: tomp vs GCC's libgomp vs LLVM's libomp (GOMP layer).
#
#   bench/run.sh [--quick] [--reps N] [--threads T[,T...]] [--time S] [--timeout S]
#                [--quiet PCT] [--ompt | --no-ompt] [--ompt-threads T[,T...]]
#                [--compilers gcc,clang | --no-clang] [tests...]
#
# Two programs, both gcc -fopenmp -O2, one command line: build/bench/ompbench (construct
# overheads, bench/ompbench.c) and build/bench/kernels (a task tree and four kernels with a
# checked answer, bench/kernels.c); each test name is run by the program that lists it (-l).
# Default: every test of both at 1, 2 and 4 threads (4 oversubscribes 2 CPUs), 5 reps of
# 0.2 s, plus the OMPT rows; `make bench` runs this (about 11-13 minutes on 2 CPUs).
#
# clang: the same two sources are also built with clang-14 -fopenmp -O2 (LLVM's __kmpc_* ABI:
# build/bench/ompbench-clang, kernels-clang) and run on tomp, as the libomp.so.5 its build
# provides ($TOMP_BUILD/lib), and on LLVM 14's libomp, in the same interleaving (configurations
# tomp@clang and libomp@clang; report.sh tables them apart).  Both keep their default waiting
# (libomp: KMP_BLOCKTIME 200 ms of spinning); a KMP_* or OMP_* variable the caller sets reaches
# both.  --compilers gcc (or --no-clang) leaves them out; without clang-14 they are skipped.
#
# --ompt adds, for a few representative tests and the kernels (all named tests if given) at
# --ompt-threads (default 2), four more configurations run in the same interleaving: tomp and
# libomp each with bench/null-tool.c as a tool that registers no callback (+nulltool) and as
# one that registers every callback with an empty body (+alltool), via OMP_TOOL_LIBRARIES.
# Their plain rows are the "no tool" configuration.  On by default when no test is named.
#
# --quiet PCT: before each test's interleaved runs, wait (up to 10 s) until other processes
# keep less than PCT% of the CPUs busy (sampled over 0.2 s).  Every sample is kept in the CSV
# (others_busy_pct) so a noisy result can be recognised.
#
# Only the directory on LD_LIBRARY_PATH changes between runtimes: it holds a libgomp.so.1
# that is tomp, the system libgomp or libomp.  (LD_PRELOAD of libomp is NOT used: the system
# libgomp would still be loaded as the binary's DT_NEEDED and run its constructor; see
# docs/benchmarks.md.)  Every run prints the library its GOMP_parallel bound to and all OpenMP
# libraries mapped; the script refuses a result whose runtime is not the one intended, and a
# tool configuration whose tool did not announce its initialisation.
#
# Runs are interleaved (rep 1: test A on every configuration; test B ...; rep 2: ...) so that
# a burst of load from other processes hits all runtimes and is spread over every test's
# repetitions.  A run that fails (missing entry point, wrong result, crash) or hangs
# (timeout) marks that configuration n/a for the test; it is not retried.
#
# Output: bench/results/<date-time>.csv (every run's value), then bench/report.sh turns it into
# <date-time>.md (tables: medians, ratios tomp/libgomp, tomp/libomp, tomp/best, which are
# within noise; OMPT rows; summary) printed here, and <date-time>.png (ratio chart, gnuplot).
#
# Environment: TOMP_BUILD (default build) selects the tomp build directory, or TOMP_LIB names
# any libtomp.so (e.g. another branch's build, to see what a merge will bring); OMP_* / GOMP_* /
# KMP_* variables the caller sets pass through to all runtimes alike.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1

REPS=5 THREADS=1,2,4 TIME=0.2 TIMEOUT=20 QUICK=0 QUIET="" OMPT="" OMPT_THREADS=2
COMPILERS=gcc,clang
TESTS=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --reps) REPS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --time) TIME=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --quiet) QUIET=$2; shift ;;
    --ompt) OMPT=1 ;;
    --no-ompt) OMPT=0 ;;
    --ompt-threads) OMPT_THREADS=$2; shift ;;
    --compilers) COMPILERS=$2; shift ;;
    --no-clang) COMPILERS=gcc ;;
    -h|--help) sed -n '2,49p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 64 ;;
    *) TESTS+=("$1") ;;
  esac
  shift
done
if [ $QUICK = 1 ]; then
  # explicit --reps/--time given before or after --quick keep their value only if not default
  [ "$REPS" = 5 ] && REPS=3
  [ "$TIME" = 0.2 ] && TIME=0.1
  [ "$TIMEOUT" = 20 ] && TIMEOUT=10
fi
case $REPS in ''|*[!0-9]*|0) echo "run.sh: --reps needs a positive integer" >&2; exit 64 ;; esac
[ -z "$OMPT" ] && { [ ${#TESTS[@]} -eq 0 ] && OMPT=1 || OMPT=0; }
GCC=0 CLANG=0
IFS=, read -r -a cl <<<"$COMPILERS"
for c in "${cl[@]}"; do
  case $c in
    gcc) GCC=1 ;;
    clang) CLANG=1 ;;
    *) echo "run.sh: --compilers takes gcc and/or clang, not $c" >&2; exit 64 ;;
  esac
done
CLANG_CC=${CLANG_CC:-clang-14}
if [ $CLANG = 1 ] && ! command -v "$CLANG_CC" >/dev/null; then
  echo "run.sh: $CLANG_CC not found: no clang rows (apt-get install clang-14 libomp-14-dev)" >&2
  CLANG=0
fi
[ $GCC = 1 ] || [ $CLANG = 1 ] || { echo "run.sh: no compiler to build with" >&2; exit 1; }
[ $GCC = 1 ] || OMPT=0

TOMP_BUILD=${TOMP_BUILD:-build}
TOMP_LIB_FROM_ENV=${TOMP_LIB:-}
TOMP_LIB=${TOMP_LIB:-$ROOT/$TOMP_BUILD/libtomp.so}
GOMP_LIB=/usr/lib/x86_64-linux-gnu/libgomp.so.1
KMP_LIB=/usr/lib/llvm-14/lib/libomp.so.5
[ -f "$TOMP_LIB" ] || { echo "run.sh: $TOMP_LIB missing: run make first" >&2; exit 1; }
mkdir -p build/bench
for prog in ompbench kernels; do
  if [ ! -x build/bench/$prog ] || [ bench/$prog.c -nt build/bench/$prog ]; then
    gcc -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o build/bench/$prog bench/$prog.c -ldl || exit 1
  fi
  # clang's binaries link against LLVM's libomp (clang's default), as a user's would
  if [ $CLANG = 1 ] && { [ ! -x build/bench/$prog-clang ] || [ bench/$prog.c -nt build/bench/$prog-clang ]; }; then
    "$CLANG_CC" -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o build/bench/$prog-clang bench/$prog.c \
      -ldl -latomic || exit 1
  fi
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The tools live outside the tree: ompbench lists every mapped library whose path contains
# "tomp" as an OpenMP runtime, and the checkout's path may.
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -o "$TMP/null-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -DALL_CALLBACKS -o "$TMP/all-tool.so" bench/null-tool.c ||
  exit 1

# One directory per runtime, each holding libgomp.so.1 -> that runtime; for the clang
# binaries one per runtime under clang/, holding libomp.so.5 -> tomp as its build provides
# it (build/lib/libomp.so.5, the same file as libtomp.so) or LLVM's libomp.  They are this
# run's own (in TMP): a concurrent run of this or another script cannot repoint them.
LIBDIRS=$TMP/rt
RUNTIMES=(tomp libgomp libomp)
OMPT_CFGS=(tomp+nulltool libomp+nulltool tomp+alltool libomp+alltool)
CLANG_CFGS=(tomp@clang libomp@clang)
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=$GOMP_LIB [libomp]=$KMP_LIB)
for rt in "${RUNTIMES[@]}"; do
  mkdir -p "$LIBDIRS/$rt"
  ln -sfn "${LIBOF[$rt]}" "$LIBDIRS/$rt/libgomp.so.1"
  [ -e "${LIBOF[$rt]}" ] || echo "run.sh: ${LIBOF[$rt]} missing; $rt will be n/a" >&2
done
TOMP_KMP_LIB=$TOMP_LIB
[ -z "$TOMP_LIB_FROM_ENV" ] && [ -e "$ROOT/$TOMP_BUILD/lib/libomp.so.5" ] &&
  TOMP_KMP_LIB=$ROOT/$TOMP_BUILD/lib/libomp.so.5
mkdir -p "$LIBDIRS/clang/tomp" "$LIBDIRS/clang/libomp"
ln -sfn "$TOMP_KMP_LIB" "$LIBDIRS/clang/tomp/libomp.so.5"
ln -sfn "$KMP_LIB" "$LIBDIRS/clang/libomp/libomp.so.5"

# Which program runs which test.
declare -A PROG=()
ALL=()
for prog in ompbench kernels; do
  while read -r t _; do PROG[$t]=$prog; ALL+=("$t"); done < <(build/bench/$prog -l)
done
if [ $CLANG = 1 ]; then # the clang binaries must list the same tests
  for prog in ompbench kernels; do
    cmp -s <(build/bench/$prog -l) <(build/bench/$prog-clang -l) ||
      { echo "run.sh: $prog and $prog-clang list different tests" >&2; exit 1; }
  done
fi
[ ${#TESTS[@]} -eq 0 ] && TESTS=("${ALL[@]}")
for t in "${TESTS[@]}"; do
  [ -n "${PROG[$t]:-}" ] || { echo "run.sh: unknown test $t (ompbench -l, kernels -l)" >&2; exit 64; }
done
IFS=, read -r -a TLIST <<<"$THREADS"
# OMPT rows: representative constructs and every kernel, or whatever was named.
declare -A OMPT_TEST=() OMPT_T=()
if [ "$OMPT" = 1 ]; then
  if [ ${#TESTS[@]} -eq ${#ALL[@]} ]; then
    for t in parallel barrier critical lock dynamic_1 task_all taskwait task_tree matmul jacobi sort \
      irregular; do
      OMPT_TEST[$t]=1
    done
  else
    for t in "${TESTS[@]}"; do OMPT_TEST[$t]=1; done
  fi
  IFS=, read -r -a tl <<<"$OMPT_THREADS"
  for T in "${tl[@]}"; do OMPT_T[$T]=1; done
fi
configs_of() { # T test -> the configurations measured for it
  [ $GCC = 1 ] && echo "${RUNTIMES[@]}"
  [ $CLANG = 1 ] && echo "${CLANG_CFGS[@]}"
  [ -n "${OMPT_T[$1]:-}" ] && [ -n "${OMPT_TEST[$2]:-}" ] && echo "${OMPT_CFGS[@]}"
}

STAMP=$(date +%Y-%m-%d-%H%M%S)
mkdir -p bench/results
CSV=bench/results/$STAMP.csv
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
NCFG=$((GCC * ${#RUNTIMES[@]} + CLANG * ${#CLANG_CFGS[@]}))
echo "bench: ${#TESTS[@]} tests x $NCFG runtime configurations (compilers $([ $GCC = 1 ] && echo -n "gcc ")$([ $CLANG = 1 ] && echo -n clang)) x $REPS reps, threads $THREADS," \
  "${TIME}s per run, timeout ${TIMEOUT}s$([ "$OMPT" = 1 ] && echo ", OMPT rows at $OMPT_THREADS threads");" \
  "load average $LOAD0; $(nproc) CPUs" >&2

# status/<T>/<test>/<rt>: "" while fine, else the reason; vals/<T>/<test>/<rt>: one value a line
reason_of() {
  case $1 in
    124|137) echo "timeout ${TIMEOUT}s" ;;
    127) echo "missing entry point" ;;
    2) echo "wrong result" ;;
    3) echo "wrong runtime loaded" ;;
    4) echo "tool not initialised" ;;
    *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit $1"; fi ;;
  esac
}

run_one() { # T test cfg -> appends to vals or writes status; cfg: runtime[+tool] or runtime@clang
  local T=$1 t=$2 cfg=$3 d=$TMP/$1/$2 out rc real rt=${3%%[+@]*} tool="" bin libdir
  local -a toolenv=()
  mkdir -p "$d"
  [ -s "$d/$cfg.status" ] && return
  bin=build/bench/${PROG[$t]} libdir=$LIBDIRS/$rt
  if [ "$cfg" = "$rt@clang" ]; then
    bin=$bin-clang libdir=$LIBDIRS/clang/$rt
  elif [ "$cfg" != "$rt" ]; then
    tool=${cfg#*+}
    toolenv=(-u OMP_TOOL OMP_TOOL_LIBRARIES="$TMP/${tool%tool}-tool.so" BENCH_TOOL_ANNOUNCE=1)
  fi
  out=$(env -u LD_PRELOAD -u LD_BIND_NOW "${toolenv[@]}" LD_LIBRARY_PATH="$libdir" \
        OMP_NUM_THREADS=$T timeout -k 2 "$TIMEOUT" $bin -T "$T" -t "$TIME" "$t" \
        2>"$d/$cfg.err")
  rc=$?
  if [ $rc -eq 0 ]; then
    real=$(readlink -f "${LIBOF[$rt]}")
    # the runtime bound must be the intended one, and no other OpenMP library mapped
    if ! grep -q "bound=$real loaded=$real\$" <<<"$out"; then
      echo "run.sh: $t on $cfg: wrong runtime: ${out##*bound=}" >>"$d/$cfg.err"
      rc=3
    elif [ -n "$tool" ] && ! grep -q '^bench-tool: initialized' "$d/$cfg.err"; then
      rc=4
    fi
  fi
  if [ $rc -ne 0 ]; then
    { reason_of $rc | tr -d '\n'
      sed -n 's/.*undefined symbol: \([^,]*\).*/ \1/p' "$d/$cfg.err" | head -1; echo; } >"$d/$cfg.status"
    printf '  %-15s T=%s %-15s n/a: %s: %s\n' "$t" "$T" "$cfg" "$(cat "$d/$cfg.status")" \
      "$(grep -v '^bench-tool' "$d/$cfg.err" | head -c 300 | tr '\n' ' ')" >&2
    return
  fi
  sed -n 's/.* ns_per_op=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$d/$cfg.vals"
  sed -n 's/.* min=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$d/$cfg.mins"
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
      # every configuration in turn, starting one further each rep (no fixed order bias)
      read -r -a cfgs <<<"$(configs_of "$T" "$t" | tr '\n' ' ')"
      for i in "${!cfgs[@]}"; do run_one "$T" "$t" "${cfgs[$(( (i + rep) % ${#cfgs[@]} ))]}"; done
    done
  done
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

stat_of() { # file -> "median min max n" (median of an even count: mean of the middle two)
  sort -g "$1" | awk '{v[NR]=$1} END {if (NR==0) exit;
    m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.3f %.3f %.3f %d\n", m, v[1], v[NR], NR}'
}

# What was measured on what (in every CSV row; report.sh prints it with the tables).
COMMIT=$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- src include 2>/dev/null || echo +dirty)
[ -n "${TOMP_LIB_FROM_ENV:-}" ] && COMMIT="$COMMIT (TOMP_LIB=$TOMP_LIB)"
CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1 | tr -d ',')
pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | tr -d ','; }
GCCV=$(gcc -dumpfullversion 2>/dev/null)
VERSIONS="gcc $GCCV; libgomp $(pkgver libgomp1); libomp $(pkgver libomp5-14)"
[ $CLANG = 1 ] && VERSIONS="$VERSIONS; $("$CLANG_CC" --version | head -1 | sed 's/ (.*//' | tr -d ',')"
BUSYS=$(IFS=';'; echo "${BUSY[*]}")
echo "date,host,cpus,threads,test,runtime,status,median_ns,best_ns,min_run_ns,max_run_ns,runs,run_values,others_busy_pct,load_before,load_after,tomp_commit,cpu_model,versions,reps,time_s" >"$CSV"
for T in "${TLIST[@]}"; do
  for t in "${TESTS[@]}"; do
    for cfg in $(configs_of "$T" "$t"); do
      f=$TMP/$T/$t/$cfg
      busy=$BUSYS
      [ -s "$TMP/$T/$t/busy" ] && busy=$(paste -sd';' "$TMP/$T/$t/busy")
      tail=$busy,$LOAD0,$LOAD1,$COMMIT,$CPU,$VERSIONS,$REPS,$TIME
      if [ -s "$f.status" ] || [ ! -s "$f.vals" ]; then
        echo "$STAMP,$(hostname),$(nproc),$T,$t,$cfg,$(cat "$f.status" 2>/dev/null || echo no result),,,,,0,,$tail" >>"$CSV"
      else
        read -r med min max cnt < <(stat_of "$f.vals")
        best=$(sort -g "$f.mins" | head -1)
        echo "$STAMP,$(hostname),$(nproc),$T,$t,$cfg,ok,$med,$best,$min,$max,$cnt,$(paste -sd';' "$f.vals"),$tail" >>"$CSV"
      fi
    done
  done
done

echo "load average before: $LOAD0, after: $LOAD1; CPUs busy with other work before each rep: ${BUSY[*]} (%)" >&2
echo "CSV: $CSV" >&2
bench/report.sh "$CSV"
