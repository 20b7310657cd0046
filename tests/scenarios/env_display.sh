#!/usr/bin/env bash
# OMP_DISPLAY_ENV / omp_display_env: the OpenMP 5.x block on stderr, the same keys in the
# same order as libgomp, the same values for the settings both runtimes share, printed once
# at start-up; verbose adds GOMP_* lines.  OMP_DISPLAY_AFFINITY prints one line per thread
# in the affinity format when a thread first runs in a region and, for all threads of a region,
# when any thread's values change.
set -u
B=${TOMP_BUILD:-build}
OUT=${TEST_OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
probe=$OUT/env_probe_d
gcc -fopenmp -O2 "$here/env_probe.c" -o "$probe" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
tomp() { env "$@" LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$probe" 2>&1 >/dev/null; }
lib() { env "$@" "$probe" 2>&1 >/dev/null; }
block() { sed -n '/^OPENMP DISPLAY ENVIRONMENT BEGIN$/,/^OPENMP DISPLAY ENVIRONMENT END$/p'; }
keys() { block | sed -n "s/^  \([A-Z_]*\) = '.*'$/\1/p"; }

for mode in true verbose TRUE; do
  t=$(tomp OMP_DISPLAY_ENV=$mode); l=$(lib OMP_DISPLAY_ENV=$mode)
  [ "$(grep -c '^OPENMP DISPLAY ENVIRONMENT BEGIN$' <<<"$t")" = 1 ] || fail "$mode: not exactly one block"
  [ "$(keys <<<"$t")" = "$(keys <<<"$l")" ] || { fail "$mode: keys differ from libgomp"; diff <(keys <<<"$l") <(keys <<<"$t"); }
  # every line of the block is KEY = 'value'
  block <<<"$t" | sed '1d;$d' | grep -vq "^  [A-Z_]* = '.*'$" && fail "$mode: malformed line"
done
[ -z "$(tomp)" ] || fail "output without OMP_DISPLAY_ENV"
[ -z "$(tomp OMP_DISPLAY_ENV=false)" ] || fail "output with OMP_DISPLAY_ENV=false"
tomp OMP_DISPLAY_ENV=true | grep -q GOMP_SPINCOUNT && fail "GOMP_ lines without verbose"
tomp OMP_DISPLAY_ENV=verbose | grep -q "GOMP_SPINCOUNT = " || fail "no GOMP_SPINCOUNT with verbose"

# values: a non-default setting of every variable, compared line by line with libgomp
envs=(OMP_DISPLAY_ENV=true OMP_NUM_THREADS=4,2 OMP_SCHEDULE=monotonic:guided,7 OMP_DYNAMIC=true
      OMP_PROC_BIND=spread,close OMP_PLACES=threads OMP_STACKSIZE=4M OMP_WAIT_POLICY=active
      OMP_THREAD_LIMIT=9 OMP_CANCELLATION=true OMP_MAX_TASK_PRIORITY=5 OMP_DEFAULT_DEVICE=0
      OMP_NUM_TEAMS=3 OMP_TEAMS_THREAD_LIMIT=4 "OMP_AFFINITY_FORMAT=x %n")
t=$(tomp "${envs[@]}" | block); l=$(lib "${envs[@]}" | block)
if [ "$t" != "$l" ]; then fail "values differ from libgomp"; diff <(echo "$l") <(echo "$t"); fi
for e in OMP_SCHEDULE=static,4 OMP_SCHEDULE=dynamic OMP_SCHEDULE=auto OMP_PROC_BIND=true \
         OMP_PROC_BIND=master OMP_PLACES=cores OMP_NESTED=true OMP_MAX_ACTIVE_LEVELS=3 \
         OMP_STACKSIZE=100 OMP_WAIT_POLICY=passive OMP_DISPLAY_AFFINITY=false; do
  t=$(tomp OMP_DISPLAY_ENV=true "$e" | block); l=$(lib OMP_DISPLAY_ENV=true "$e" | block)
  [ "$t" = "$l" ] || { fail "$e: differs from libgomp"; diff <(echo "$l") <(echo "$t"); }
done
t=$(tomp OMP_DISPLAY_ENV=verbose GOMP_SPINCOUNT=10k | grep GOMP_SPINCOUNT)
[ "$t" = "  GOMP_SPINCOUNT = '10000'" ] || fail "GOMP_SPINCOUNT=10k shown as $t"

# the probe's explicit omp_display_env call: one more block, on stderr
t=$(env LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$probe" display 2>&1 >/dev/null | grep -c 'DISPLAY ENVIRONMENT BEGIN')
[ "$t" = 1 ] || fail "omp_display_env printed $t blocks"

# OMP_DISPLAY_AFFINITY: two threads in the probe's region, format applied
t=$(tomp OMP_DISPLAY_AFFINITY=true "OMP_AFFINITY_FORMAT=T%n/%N L%L")
[ "$(sort <<<"$t")" = "$(printf 'T0/2 L1\nT1/2 L1')" ] || { fail "display affinity:"; echo "$t"; }
t=$(tomp OMP_DISPLAY_AFFINITY=true)
[ "$(grep -c '^level 1 thread [0-9]* affinity [0-9]' <<<"$t")" = 2 ] || { fail "default affinity format:"; echo "$t"; }

echo "$fails failures"
[ $fails -eq 0 ]
