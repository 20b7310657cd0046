#!/bin/bash
# What OMPT costs (the requirement: no tool attached within 1% of a build without OMPT; a tool
# that registers no callback within 3%).  Runs bench/ompbench on five configurations of tomp:
#
#   noompt    build-noompt/ (make NO_OMPT=1): tool support compiled out, no event site left
#   notool    build/, no tool (the normal case: one predicted-false test per event site)
#   nulltool  build/ + null-tool.so: a tool whose initialize registers no callback and looks
#             up nothing (tomp leaves the tool path off for it: see docs/ompt-support.md)
#   sampler   build/ + sampler-tool.so: no callback either, but it looks up ompt_get_state and
#             ompt_get_task_info, as a sampling profiler does (tool path on)
#   alltool   build/ + all-tool.so: every callback registered, each an empty function
#
#   bench/ompt-cost.sh [--reps N] [--time S] [--threads T] [--callgrind] [tests...]
#
# Timing: runs are interleaved (each rep runs every test on the four configurations, the
# configuration order rotating from rep to rep) so that load from other processes spreads
# over all of them; the table shows the median over reps of each run's ns/op and the ratio
# to noompt.  Default: 7 reps of 0.1 s, 2 threads, every ompbench test (about 3 minutes).
# --callgrind adds user-space instructions per operation (1 thread, deterministic: the
# difference of -n 600 and -n 100 runs, as bench/callgrind.sh) for a few tests, the only
# way to see sub-percent differences on a noisy machine; then the same for one repetition of
# each kernel of bench/kernels.c (-n 2 minus -n 1: what OMPT adds to application-like runs;
# KERNELS="..." picks kernels: matmul alone takes minutes under callgrind).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
REPS=7 TIME=0.1 T=2 CG=0
TESTS=()
while [ $# -gt 0 ]; do
  case $1 in
    --reps) REPS=$2; shift ;;
    --time) TIME=$2; shift ;;
    --threads) T=$2; shift ;;
    --callgrind) CG=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "ompt-cost.sh: unknown option $1" >&2; exit 64 ;;
    *) TESTS+=("$1") ;;
  esac
  shift
done

make -s -j2 >/dev/null && make -s -j2 NO_OMPT=1 >/dev/null || { echo "ompt-cost.sh: build failed" >&2; exit 1; }
B=$ROOT/build/bench
mkdir -p "$B"
BIN=$B/ompbench KBIN=$B/kernels
for prog in ompbench kernels; do
  if [ ! -x "$B/$prog" ] || [ bench/$prog.c -nt "$B/$prog" ]; then
    gcc -fopenmp -O2 -Wall -Wextra -Wl,-z,lazy -o "$B/$prog" bench/$prog.c -ldl || exit 1
  fi
done
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -o "$B/null-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -DSAMPLER -o "$B/sampler-tool.so" bench/null-tool.c &&
gcc -O2 -Wall -Wextra -fPIC -shared -Iinclude -DALL_CALLBACKS -o "$B/all-tool.so" bench/null-tool.c || exit 1
[ ${#TESTS[@]} -eq 0 ] && mapfile -t TESTS < <($BIN -l | awk '{print $1}')

CFGS=(noompt notool nulltool sampler alltool)
MEASURED=("${CFGS[@]:1}") # every configuration but the base
declare -A LIB=([noompt]=$ROOT/build-noompt/libtomp.so [notool]=$ROOT/build/libtomp.so
                [nulltool]=$ROOT/build/libtomp.so [sampler]=$ROOT/build/libtomp.so
                [alltool]=$ROOT/build/libtomp.so)
declare -A TOOL=([noompt]="" [notool]="" [nulltool]=$B/null-tool.so [sampler]=$B/sampler-tool.so
                 [alltool]=$B/all-tool.so)
for c in "${CFGS[@]}"; do mkdir -p "$B/cost/$c" && ln -sfn "${LIB[$c]}" "$B/cost/$c/libgomp.so.1"; done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cfg_env() { # cfg -> env arguments
  echo "LD_LIBRARY_PATH=$B/cost/$1"
  if [ -n "${TOOL[$1]}" ]; then echo "OMP_TOOL_LIBRARIES=${TOOL[$1]}"; else echo "OMP_TOOL=disabled"; fi
}

run_one() { # cfg test
  local out
  mapfile -t e < <(cfg_env "$1")
  out=$(env -u LD_PRELOAD -u OMP_TOOL -u OMP_TOOL_LIBRARIES "${e[@]}" OMP_NUM_THREADS="$T" \
        timeout 30 "$BIN" -T "$T" -t "$TIME" "$2" 2>/dev/null) || return
  grep -q "bound=$(readlink -f "${LIB[$1]}") " <<<"$out" || { echo "ompt-cost.sh: $2: wrong runtime for $1" >&2; return; }
  sed -n 's/.* ns_per_op=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$TMP/$2.$1"
}

median() { sort -g | awk '{v[NR]=$1} END {if (!NR) exit; printf "%.2f", NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "ompt-cost: ${#TESTS[@]} tests x ${#CFGS[@]} configurations x $REPS reps, $T threads, ${TIME}s a run;" \
  "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; tomp $(git rev-parse --short HEAD 2>/dev/null)" >&2
for rep in $(seq 1 "$REPS"); do
  echo "rep $rep/$REPS (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  for t in "${TESTS[@]}"; do
    for k in "${!CFGS[@]}"; do run_one "${CFGS[$(( (k + rep) % ${#CFGS[@]} ))]}" "$t"; done
  done
done

printf '\n%s, %s threads, median of %s interleaved runs (ns/op; ratio to noompt)\n\n' "$(date +%Y-%m-%d)" "$T" "$REPS"
printf '| %-14s | %10s | %16s | %16s | %16s | %16s |\n' test noompt "no tool" "tool, no cbs" "inquiry only" "tool, all cbs"
printf '|%s|%s|%s|%s|%s|%s|\n' "----------------" "-----------:" "-----------------:" "-----------------:" "-----------------:" "-----------------:"
for c in "${MEASURED[@]}"; do : >"$TMP/ratios.$c"; done
for t in "${TESTS[@]}"; do
  base=$(median <"$TMP/$t.noompt" 2>/dev/null)
  line=$(printf '| %-14s | %10s |' "$t" "${base:-n/a}")
  for c in "${MEASURED[@]}"; do
    v=$(median <"$TMP/$t.$c" 2>/dev/null)
    if [ -n "$base" ] && [ -n "$v" ]; then
      r=$(awk -v a="$v" -v b="$base" 'BEGIN {printf "%.3f", a / b}')
      echo "$r" >>"$TMP/ratios.$c"
      line+=$(printf ' %9s (%s) |' "$v" "$r")
    else
      line+=$(printf ' %16s |' n/a)
    fi
  done
  echo "$line"
done
line=$(printf '| %-14s | %10s |' "geometric mean" "")
for c in "${MEASURED[@]}"; do
  line+=$(awk '{s += log($1); n++} END {if (n) printf " %16.3f |", exp(s / n); else printf " %16s |", "n/a"}' "$TMP/ratios.$c")
done
echo "$line"

[ $CG = 1 ] || exit 0
command -v valgrind >/dev/null || { echo "ompt-cost.sh: valgrind not installed: no instruction counts" >&2; exit 0; }
ir_of() { # cfg test n [binary] -> total instructions of one 1-thread run
  local out=$TMP/cg.out
  mapfile -t e < <(cfg_env "$1")
  rm -f "$out"
  env -u LD_PRELOAD -u OMP_TOOL -u OMP_TOOL_LIBRARIES "${e[@]}" OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive \
    timeout 600 valgrind --tool=callgrind --callgrind-out-file="$out" "${4:-$BIN}" -T 1 -n "$3" "$2" \
    >/dev/null 2>&1 || return
  sed -n 's/^summary: *//p' "$out"
}
# cg_table TITLE BINARY N1 N2 TESTS...: instructions per operation, (Ir(N2) - Ir(N1)) / (N2 - N1),
# per configuration, and each as +% of the build without OMPT
cg_table() {
  local title=$1 bin=$2 n1=$3 n2=$4 t c a b line
  shift 4
  printf '\n%s (callgrind, 1 thread, user space; +%% vs noompt)\n\n' "$title"
  printf '| %-12s | %14s | %18s | %18s | %18s | %18s |\n' test noompt "no tool" "tool, no cbs" "inquiry only" "tool, all cbs"
  printf '|%s|%s|%s|%s|%s|%s|\n' "--------------" "---------------:" "-------------------:" "-------------------:" "-------------------:" "-------------------:"
  for t in "$@"; do
    declare -A IR=()
    for c in "${CFGS[@]}"; do
      a=$(ir_of "$c" "$t" "$n1" "$bin") b=$(ir_of "$c" "$t" "$n2" "$bin")
      IR[$c]=$([ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" -v d=$((n2 - n1)) 'BEGIN {printf "%.0f", (b - a) / d}')
    done
    line=$(printf '| %-12s | %14s |' "$t" "${IR[noompt]:-n/a}")
    for c in "${MEASURED[@]}"; do
      line+=$(awk -v v="${IR[$c]}" -v b="${IR[noompt]}" 'BEGIN {if (v > 0 && b > 0) printf " %9d (%+6.2f%%) |", v, 100 * (v - b) / b; else printf " %18s |", "n/a"}')
    done
    echo "$line"
  done
}
cg_table "instructions per operation" "$BIN" 100 600 parallel barrier single dynamic_1 ordered critical lock task_master taskwait
# The kernels: what OMPT adds to a whole application-like run (the issue's "within 1% / 3%
# on the benchmark suite"), per repetition of each kernel.
cg_table "kernels: instructions per repetition" "$KBIN" 1 2 ${KERNELS:-task_tree matmul jacobi sort irregular}
