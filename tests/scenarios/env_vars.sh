#!/usr/bin/env bash
# Valid values of every environment variable: the ICVs the probe reads back (routines) must
# be what the value asks for, and, except where tomp documents a difference, the same as
# libgomp's for the same environment.  Valid values print nothing.
set -u
B=${TOMP_BUILD:-build}
OUT=${TEST_OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
probe=$OUT/env_probe_v
gcc -fopenmp -O2 "$here/env_probe.c" -o "$probe" || exit 1
NP=$(nproc)
fails=0
tomp() { env "$@" LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$probe"; }
lib() { env "$@" "$probe"; }

# expect "ENV..." -- key=value...   (tomp's values; compared with libgomp's run too)
expect() {
  local envs=() ; while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t l
  t=$(tomp "${envs[@]}" 2>"$OUT/env_vars.err"); local rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL ${envs[*]}: exit $rc"; fails=$((fails+1)); return; fi
  if [ -s "$OUT/env_vars.err" ]; then echo "FAIL ${envs[*]}: printed"; cat "$OUT/env_vars.err"; fails=$((fails+1)); fi
  for kv in "$@"; do
    if ! grep -qxF "$kv" <<<"$t"; then
      echo "FAIL ${envs[*]}: expected $kv, got $(grep "^${kv%%=*}=" <<<"$t")"; fails=$((fails+1))
    fi
  done
  if [ -z "${NOLIB:-}" ]; then
    l=$(lib "${envs[@]}" 2>/dev/null)
    if [ "$t" != "$l" ]; then
      echo "FAIL ${envs[*]}: tomp and libgomp differ:"; diff <(echo "$l") <(echo "$t") | sed 's/^/    /'
      fails=$((fails+1))
    fi
  fi
}

expect -- "max_threads=$NP" dynamic=0 nested=0 schedule=0x2,1 max_active_levels=1 proc_bind=0 num_places=0
expect OMP_NUM_THREADS=3 -- max_threads=3 level1_max_threads=3
expect "OMP_NUM_THREADS= 5 " -- max_threads=5
expect OMP_NUM_THREADS=3,2 -- max_threads=3 level1_max_threads=2 max_active_levels=255 nested=1
expect OMP_NUM_THREADS=3,2 OMP_MAX_ACTIVE_LEVELS=2 -- max_active_levels=2
NOLIB=1 expect OMP_DYNAMIC=true -- dynamic=1   # libgomp sizes dynamic teams by load
NOLIB=1 expect OMP_DYNAMIC=TRUE -- dynamic=1
expect OMP_DYNAMIC=false -- dynamic=0
expect OMP_NESTED=true -- nested=1 max_active_levels=255
expect OMP_NESTED=false -- nested=0 max_active_levels=1
expect OMP_NESTED=true OMP_MAX_ACTIVE_LEVELS=3 -- max_active_levels=3
expect OMP_MAX_ACTIVE_LEVELS=4 -- max_active_levels=4 nested=1
expect OMP_MAX_ACTIVE_LEVELS=0 -- max_active_levels=0
expect OMP_MAX_ACTIVE_LEVELS=1000 -- max_active_levels=255
expect OMP_SCHEDULE=static -- schedule=0x80000001,0
expect OMP_SCHEDULE=static,4 -- schedule=0x80000001,4
expect OMP_SCHEDULE=dynamic -- schedule=0x2,1
expect OMP_SCHEDULE=GUIDED,4 -- schedule=0x3,4
expect OMP_SCHEDULE=auto -- schedule=0x4,1
expect OMP_SCHEDULE=monotonic:dynamic,3 -- schedule=0x80000002,3
expect OMP_SCHEDULE=nonmonotonic:guided,2 -- schedule=0x3,2
expect "OMP_SCHEDULE= dynamic , 5 " -- schedule=0x2,5
expect OMP_THREAD_LIMIT=3 -- thread_limit=3
expect OMP_CANCELLATION=true -- cancellation=1
expect OMP_DEFAULT_DEVICE=0 -- default_device=0
expect OMP_NUM_TEAMS=3 -- max_teams=3
expect OMP_TEAMS_THREAD_LIMIT=4 -- teams_thread_limit=4
expect OMP_TARGET_OFFLOAD=default -- default_device=0
expect OMP_TARGET_OFFLOAD=DISABLED -- default_device=0
# OpenMP 5.2: mandatory with no device but the host makes the default device omp_invalid_device
# (-4, libgomp's value); libgomp 12 keeps 0.  An explicit OMP_DEFAULT_DEVICE wins.
NOLIB=1 expect OMP_TARGET_OFFLOAD=mandatory -- default_device=-4
NOLIB=1 expect "OMP_TARGET_OFFLOAD= Mandatory " -- default_device=-4
expect OMP_TARGET_OFFLOAD=mandatory OMP_DEFAULT_DEVICE=0 -- default_device=0
expect "OMP_AFFINITY_FORMAT=x %n %{thread_num} %0.4N" -- "affinity_format=x %n %{thread_num} %0.4N"
expect -- worker_stack_at_least_32M=0
for v in 32M 32m 32768 32768K "32 M" 33554432B 1G; do
  expect "OMP_STACKSIZE=$v" -- worker_stack_at_least_32M=1
done
expect GOMP_STACKSIZE=32M -- worker_stack_at_least_32M=1
expect OMP_WAIT_POLICY=active --
expect OMP_WAIT_POLICY=PASSIVE --
expect GOMP_SPINCOUNT=10k --
expect GOMP_SPINCOUNT=infinite --
expect GOMP_SPINCOUNT=0 --
expect OMP_DISPLAY_AFFINITY=false --
expect OMP_DISPLAY_ENV=false --
expect OMP_MAX_TASK_PRIORITY=5 --
# binding: omp_get_proc_bind, the place list, and every thread really on its place
expect OMP_PROC_BIND=true -- proc_bind=1 "num_places=$NP" bound_ok=1
expect OMP_PROC_BIND=close -- proc_bind=3 "num_places=$NP" bound_ok=1
expect OMP_PROC_BIND=spread,close -- proc_bind=4 bound_ok=1 max_active_levels=255
expect OMP_PROC_BIND=master -- proc_bind=2 bound_ok=1
expect OMP_PROC_BIND=false -- proc_bind=0 num_places=0
expect OMP_PROC_BIND=false OMP_PLACES=cores -- proc_bind=0 num_places=0
expect OMP_PLACES=threads -- proc_bind=1 "num_places=$NP" bound_ok=1
expect OMP_PLACES=cores -- proc_bind=1 bound_ok=1
expect OMP_PLACES=sockets -- proc_bind=1 bound_ok=1
NOLIB=1 expect OMP_PLACES=ll_caches -- proc_bind=1 bound_ok=1   # libgomp 12 lacks ll_caches
NOLIB=1 expect OMP_PLACES=numa_domains -- proc_bind=1 bound_ok=1
expect "OMP_PLACES=threads(1)" -- num_places=1 bound_ok=1
# explicit lists naming CPUs 0 and 1: only when both are ours
if tomp OMP_PLACES=threads 2>/dev/null | grep -qx place1=1 && tomp OMP_PLACES=threads 2>/dev/null | grep -qx place0=0; then
  expect "OMP_PLACES={0}" OMP_PROC_BIND=close -- num_places=1 place0=0 bound_ok=1 proc_bind=3
  expect "OMP_PLACES={0}:3:0" -- num_places=3 place0=0 place2=0 bound_ok=1
  expect "OMP_PLACES={0,1}" -- num_places=1 place0=0,1 bound_ok=1
  expect "OMP_PLACES={0:2}" -- num_places=1 place0=0,1 bound_ok=1
  expect "OMP_PLACES={1},{0}" -- num_places=2 place0=1 place1=0 bound_ok=1
  expect "OMP_PLACES={0}:2" -- num_places=2 place0=0 place1=1 bound_ok=1
  expect "OMP_PLACES={0}:2:1" -- num_places=2 place0=0 place1=1 bound_ok=1
  expect "OMP_PLACES={1}:2:-1" -- num_places=2 place0=1 place1=0 bound_ok=1
  expect "OMP_PLACES={0,1},!{0,1},{1}" -- num_places=1 place0=1 bound_ok=1
  expect "OMP_PLACES={0:2,!1}" -- num_places=1 place0=0 bound_ok=1
  expect "OMP_PLACES=0,1" -- num_places=2 place0=0 place1=1 bound_ok=1
  expect "OMP_PLACES= { 0 } , { 1 } " -- num_places=2 bound_ok=1
  # libgomp's GOMP_CPU_AFFINITY: one place per CPU listed, in order; binding on unless
  # OMP_PROC_BIND=false; ignored when OMP_PLACES is set
  expect "GOMP_CPU_AFFINITY=1 0" -- proc_bind=1 num_places=2 place0=1 place1=0 bound_ok=1
  expect "GOMP_CPU_AFFINITY=0-1" -- proc_bind=1 num_places=2 place0=0 place1=1 bound_ok=1
  expect "GOMP_CPU_AFFINITY= 1 , 0 " -- num_places=2 place0=1 place1=0 bound_ok=1
  expect "GOMP_CPU_AFFINITY=0-1:2" -- num_places=1 place0=0 bound_ok=1
  expect "GOMP_CPU_AFFINITY=0 0 1" -- num_places=3 place0=0 place1=0 place2=1 bound_ok=1
  expect "GOMP_CPU_AFFINITY=1 0" OMP_PROC_BIND=spread -- proc_bind=4 num_places=2 place0=1 bound_ok=1
  expect "GOMP_CPU_AFFINITY=1 0" OMP_PROC_BIND=false -- proc_bind=0 num_places=0
  expect "GOMP_CPU_AFFINITY=1 0" "OMP_PLACES={0,1}" -- proc_bind=1 num_places=1 place0=0,1 bound_ok=1
fi

echo "$fails failures"
[ $fails -eq 0 ]
