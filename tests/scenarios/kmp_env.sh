#!/usr/bin/env bash
# libomp's environment variables (KMP_*) on tomp (src/core/env_kmp.c; docs/kmp-abi.md,
# "libomp's environment variables"): kmp_env_probe.c, built by clang-14 and run on tomp (as
# libomp.so.5) and on LLVM's libomp 14 with the same environment, must read back what each
# value asks for on both, except where a line says NOLIB (tomp's documented difference); the
# same probe built by gcc shows that the variables act on gcc programs too (libgomp has no such
# variables: tomp only).  Messages are checked by pattern on stderr ('-' for none).
set -u
B=${TOMP_BUILD:-build}
OUT=${TEST_OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
LLVMLIB=/usr/lib/llvm-14/lib
if ! command -v clang-14 >/dev/null || [ ! -e $LLVMLIB/libomp.so.5 ]; then
  echo "clang-14 or libomp 14 missing"; exit 77
fi
cprobe=$OUT/kmp_env_probe_clang
gprobe=$OUT/kmp_env_probe_gcc
clang-14 -fopenmp -O1 "$here/kmp_env_probe.c" -o "$cprobe" || exit 1
gcc -fopenmp -O1 "$here/kmp_env_probe.c" -o "$gprobe" || exit 1
fails=0
err=$OUT/kmp_env.err
tomp() { env "$@" LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$probe" ${ARG:-}; }
lib() { env "$@" LD_LIBRARY_PATH=$LLVMLIB "$probe" ${ARG:-}; }

# check RUNNER "ENV..." -- key=value... [/stderr ERE | -]
check() {
  local run=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local out; out=$($run "${envs[@]}" 2>"$err"); local rc=$?
  local what="$run ${probe##*_} ${envs[*]}"
  if [ $rc -ne 0 ]; then echo "FAIL $what: exit $rc"; cat "$err"; fails=$((fails+1)); return; fi
  for kv in "$@"; do
    case $kv in
    -) if [ -s "$err" ]; then echo "FAIL $what: printed"; cat "$err"; fails=$((fails+1)); fi ;;
    /*) if ! grep -qE -- "${kv#/}" "$err"; then
          echo "FAIL $what: no message matching ${kv#/}"; cat "$err"; fails=$((fails+1)); fi ;;
    *) if ! grep -qxF -- "$kv" <<<"$out"; then
         echo "FAIL $what: expected $kv, got $(grep "^${kv%%=*}=" <<<"$out")"; fails=$((fails+1)); fi ;;
    esac
  done
}
# expect "ENV..." -- checks: on tomp, and on libomp 14 unless NOLIB=1
expect() { check tomp "$@"; [ -n "${NOLIB:-}" ] || check lib "$@"; }
value() { local k=$1; shift; "$@" 2>/dev/null | sed -n "s/^$k=//p"; }

probe=$cprobe
# ---- clang programs: tomp and libomp 14 alike -----------------------------------------
expect -- blocktime=200 library=3 -
expect KMP_BLOCKTIME=infinite -- blocktime=2147483647 -
expect KMP_BLOCKTIME=0 -- blocktime=0 -
expect KMP_BLOCKTIME=1s -- blocktime=1000 -
expect KMP_BLOCKTIME=2m -- blocktime=120000 -
expect KMP_BLOCKTIME=99999999999 -- blocktime=2147483646 -
expect KMP_BLOCKTIME=abc -- blocktime=200 "/KMP_BLOCKTIME.*abc"
expect KMP_BLOCKTIME=-1 -- blocktime=200 "/KMP_BLOCKTIME.*-1"
expect KMP_BLOCKTIME=100ms -- blocktime=200 "/KMP_BLOCKTIME.*100ms"
expect OMP_WAIT_POLICY=active -- blocktime=2147483647 library=2 -
expect OMP_WAIT_POLICY=passive -- blocktime=0 library=3 -
expect OMP_WAIT_POLICY=active KMP_BLOCKTIME=50 -- blocktime=50 library=2 -
expect KMP_LIBRARY=turnaround -- blocktime=200 library=2 -
expect KMP_LIBRARY=THROUGHPUT -- library=3 -
expect KMP_LIBRARY=turnaround OMP_WAIT_POLICY=passive -- blocktime=200 library=2 \
  "/OMP_WAIT_POLICY: ignored because KMP_LIBRARY has been defined"
expect KMP_LIBRARY=serial -- library=1 team=1 -
expect KMP_LIBRARY=foo -- library=3 "/KMP_LIBRARY.*foo"
ARG=4194304 expect KMP_STACKSIZE=4m -- stack=4194304 ws_ok=1 -
ARG=4194304 expect KMP_STACKSIZE=4MB -- stack=4194304 ws_ok=1 -
expect KMP_STACKSIZE=32768 -- stack=32768 -
ARG=4194304 expect KMP_STACKSIZE=4m OMP_STACKSIZE=64m -- stack=4194304 \
  "/OMP_STACKSIZE: ignored because KMP_STACKSIZE has been defined"
expect KMP_STACKSIZE=4m GOMP_STACKSIZE=64m -- stack=4194304 \
  "/GOMP_STACKSIZE: ignored because KMP_STACKSIZE has been defined"
expect KMP_STACKSIZE=1000 -- stack=16384 "/KMP_STACKSIZE.*1000.*too small"
expect KMP_STACKSIZE=x -- "/KMP_STACKSIZE.*x"
expect KMP_DISP_NUM_BUFFERS=7 -- -
expect KMP_DISP_NUM_BUFFERS=0 -- "/OMP: Warning.*KMP_DISP_NUM_BUFFERS.*too small"
expect KMP_DISP_NUM_BUFFERS=4097 -- "/OMP: Warning.*KMP_DISP_NUM_BUFFERS.*too large"
expect KMP_DISP_NUM_BUFFERS=5x -- "/OMP: Warning.*KMP_DISP_NUM_BUFFERS"
expect KMP_WARNINGS=false KMP_LIBRARY=foo -- -
expect KMP_WARNINGS=off KMP_DISP_NUM_BUFFERS=0 -- -
expect KMP_WARNINGS=0 KMP_BLOCKTIME=abc -- blocktime=200 -
expect KMP_WARNINGS=maybe -- "/KMP_WARNINGS.*maybe"
expect KMP_TEAMS_THREAD_LIMIT=4 OMP_NUM_TEAMS=8 -- nteams=4
expect KMP_TEAMS_THREAD_LIMIT=16 OMP_NUM_TEAMS=8 -- nteams=8 -
expect KMP_TEAMS_THREAD_LIMIT=0 OMP_NUM_TEAMS=8 -- nteams=1 "/KMP_TEAMS_THREAD_LIMIT.*too small"
expect KMP_SETTINGS=1 -- "/^Effective settings:" "/^   KMP_BLOCKTIME=200$" "/^   KMP_LIBRARY=throughput$"
expect KMP_SETTINGS=true KMP_BLOCKTIME=infinite KMP_STACKSIZE=4m -- \
  "/^   KMP_BLOCKTIME=2147483647$" "/^   KMP_STACKSIZE=4M$" "/^   KMP_SETTINGS=true$"
# KMP_HW_SUBSET: one hardware thread of one core of one socket, in any order of the items
NP=$(nproc)
expect KMP_HW_SUBSET=1s,1c,1t -- procs=1 max_threads=1 -
expect KMP_HW_SUBSET=1T,1S,1C OMP_PLACES=threads -- procs=1 num_places=1 bound_ok=1 -
expect KMP_HW_SUBSET=1sx1cx1t -- procs=1 -
expect KMP_HW_SUBSET=99s -- "procs=$NP" "/KMP_HW_SUBSET.*(ignored|too many)"
expect KMP_HW_SUBSET=1n -- "procs=$NP" "/KMP_HW_SUBSET"
expect KMP_HW_SUBSET=foo -- "procs=$NP" "/KMP_HW_SUBSET.*foo"
# places: KMP_AFFINITY's against OMP_PLACES' on the same runtime
for run in tomp lib; do
  cores=$(value places $run OMP_PLACES=cores)
  threads=$(value places $run OMP_PLACES=threads)
  check $run KMP_AFFINITY=compact -- "places=$cores" bound_ok=1 -
  check $run KMP_AFFINITY=scatter -- "places=$cores" bound_ok=1 -
  check $run KMP_AFFINITY=granularity=fine,compact -- "places=$threads" bound_ok=1 -
  check $run KMP_AFFINITY=granularity=thread,compact -- "places=$threads" bound_ok=1 -
  check $run KMP_AFFINITY=granularity=core,compact -- "places=$cores" bound_ok=1 -
  check $run KMP_AFFINITY=granularity=core OMP_PROC_BIND=close -- "places=$cores" proc_bind=3 bound_ok=1 -
  check $run KMP_AFFINITY=compact OMP_PROC_BIND=spread -- "places=$cores" bound_ok=1 \
    "/OMP_PROC_BIND: ignored because KMP_AFFINITY has been defined"
  check $run KMP_AFFINITY=disabled OMP_PLACES=cores -- num_places=0 proc_bind=0 \
    "/OMP_PLACES: ignored because KMP_AFFINITY has been defined"
  check $run KMP_AFFINITY=foo -- proc_bind=0 "/KMP_AFFINITY.*foo"
  check $run KMP_AFFINITY=verbose,compact -- "places=$cores" \
    "/KMP_AFFINITY: pid [0-9]+ tid [0-9]+ thread [0-9]+ bound to OS proc set"
  check $run KMP_SETTINGS=1 OMP_PLACES=invalid -- "places=$cores" "/^   OMP_PLACES='cores'$"
  # an offset: thread 0 on place 1, thread 1 after it
  nthr=$(awk -F'|' '{print NF}' <<<"$threads")
  if [ "$nthr" -ge 2 ]; then
    check $run KMP_AFFINITY=granularity=fine,compact,0,1 -- "tplaces=1,$((2 % nthr))" bound_ok=1 -
  fi
  # explicit lists naming CPUs 0 and 1: only when both are ours
  if [ "$threads" = "0|1" ] || [ "${threads#0|1|}" != "$threads" ]; then
    check $run "KMP_AFFINITY=explicit,proclist=[1,0]" -- "places=1|0" tplaces=0,1 bound_ok=1 -
    check $run "KMP_AFFINITY=explicit,proclist=[0-1]" -- "places=0|1" tplaces=0,1 bound_ok=1 -
    check $run "KMP_AFFINITY=explicit,proclist=[{0,1}]" -- "places=0,1" bound_ok=1 -
    check $run "KMP_AFFINITY=proclist=[1],explicit" -- "places=1" tplaces=0,0 bound_ok=1 -
  fi
done
# tomp's own differences (docs/kmp-abi.md): omp_get_proc_bind answers close/spread (libomp its
# own 5), KMP_AFFINITY=none leaves no place list (libomp: one place of every CPU), and libomp
# variables tomp has no counterpart for are named
NOLIB=1 expect KMP_AFFINITY=compact -- proc_bind=3
NOLIB=1 expect KMP_AFFINITY=scatter -- proc_bind=4
NOLIB=1 expect KMP_AFFINITY=none OMP_PROC_BIND=close -- proc_bind=0 num_places=0 \
  "/OMP_PROC_BIND: ignored because KMP_AFFINITY has been defined"
NOLIB=1 expect KMP_AFFINITY=explicit -- proc_bind=0 "/KMP_AFFINITY.*explicit without proclist"
NOLIB=1 expect KMP_LOCK_KIND=tas KMP_HOT_TEAMS_MAX_LEVEL=2 -- \
  "/^tomp: .*ignored: .*KMP_(HOT_TEAMS_MAX_LEVEL|LOCK_KIND), KMP_(HOT_TEAMS_MAX_LEVEL|LOCK_KIND) "
NOLIB=1 expect KMP_DUPLICATE_LIB_OK=TRUE -- -

# ---- gcc programs on tomp: the same variables act, in tomp's messages ------------------
probe=$gprobe
NOLIB=1
cores=$(value places tomp OMP_PLACES=cores)
threads=$(value places tomp OMP_PLACES=threads)
expect KMP_AFFINITY=compact -- "places=$cores" proc_bind=3 bound_ok=1 -
expect KMP_AFFINITY=granularity=fine,scatter -- "places=$threads" proc_bind=4 bound_ok=1 -
expect KMP_AFFINITY=disabled OMP_PROC_BIND=true -- num_places=0 proc_bind=0 \
  "/^tomp: OMP_PROC_BIND: ignored because KMP_AFFINITY has been defined"
expect KMP_LIBRARY=serial -- team=1 -
ARG=4194304 expect KMP_STACKSIZE=4m -- ws_ok=1 -
expect KMP_TEAMS_THREAD_LIMIT=4 OMP_NUM_TEAMS=8 -- nteams=4 -
expect KMP_DISP_NUM_BUFFERS=0 -- "/^tomp: KMP_DISP_NUM_BUFFERS.*too small"
expect KMP_WARNINGS=no KMP_DISP_NUM_BUFFERS=0 -- -
expect KMP_HW_SUBSET=1s,1c,1t -- procs=1 max_threads=1 -
# the waits: KMP_BLOCKTIME is a time, shown as tomp's poll count by OMP_DISPLAY_ENV=verbose
spin() { env "$@" OMP_DISPLAY_ENV=verbose LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} \
  "$probe" 2>&1 >/dev/null | sed -n "s/^  GOMP_SPINCOUNT = '\([0-9]*\)'$/\1/p"; }
s0=$(spin KMP_BLOCKTIME=0); s1=$(spin KMP_BLOCKTIME=1); s1000=$(spin KMP_BLOCKTIME=1000)
sinf=$(spin KMP_BLOCKTIME=infinite); sact=$(spin OMP_WAIT_POLICY=active)
sturn=$(spin KMP_LIBRARY=turnaround KMP_BLOCKTIME=1000); sgomp=$(spin KMP_BLOCKTIME=1000 GOMP_SPINCOUNT=77)
echo "spin counts: blocktime 0: $s0, 1 ms: $s1, 1 s: $s1000, infinite: $sinf (active: $sact), turnaround 1 s: $sturn, with GOMP_SPINCOUNT=77: $sgomp"
if [ "$s0" != 0 ] || [ -z "$s1" ] || [ "$s1" -le 0 ] || [ "$s1000" -le $((s1 * 100)) ] ||
   [ "$sinf" != "$sact" ] || [ "$sturn" -le $((s1 * 100)) ] || [ "$sturn" -ge "$sact" ] || [ "$sgomp" != 77 ]; then
  echo "FAIL KMP_BLOCKTIME's spin counts"; fails=$((fails+1))
fi

echo "$fails failures"
[ $fails -eq 0 ]
