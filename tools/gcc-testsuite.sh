#!/usr/bin/env bash
# Run GCC 12's own libgomp testsuite (libgomp.c and libgomp.c-c++-common, host execution
# tests driven by libgomp.c/c.exp) against an OpenMP runtime, with the system gcc.
#
#   tools/gcc-testsuite.sh RUNTIME [PATTERN]
#
# RUNTIME is a directory holding the candidate as libgomp.so.1 (tomp: build/lib), or
# `system` for the system libgomp (the control).  PATTERN is a runtest file glob, e.g.
# 'task*.c' (default: all).  Programs are built by plain `gcc -fopenmp` against the system
# libgomp, then run with the candidate first on the library path, so only the candidate is
# loaded (the harness checks that before starting).
#
# Nothing is committed: the GCC source package is fetched once from Debian's archive with a
# private apt list (the system's apt configuration is left alone) into the cache directory
# $TOMP_GCC_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/tomp-gcc-testsuite).  DejaGnu comes
# from Debian's `dejagnu` package (installed when missing and we are root).
#
# Output: the summary (execution tests passed/failed, compile failures) and the list of
# failures; the full DejaGnu files are in $CACHE/run-NAME/libgomp.{sum,log}.
# Exit status: 0 when no execution test failed, 1 otherwise, 2 on a set-up problem.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
RUNTIME=${1:-}
PATTERN=${2:-}
[ -n "$RUNTIME" ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
CACHE=${TOMP_GCC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tomp-gcc-testsuite}
GCCVER=12.2.0
SRC=$CACHE/src/gcc-$GCCVER
die() { echo "gcc-testsuite: $*" >&2; exit 2; }

case "$HERE/" in "$CACHE"/*) die "the cache must lie outside the repository";; esac
case "$CACHE/" in "$HERE"/*) die "the cache ($CACHE) must lie outside the repository";; esac

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }

source "$HERE/tools/debsrc.sh"

fetch() {
  [ -f "$SRC/libgomp/testsuite/libgomp.c/c.exp" ] && return 0
  local apt=$CACHE/apt orig
  mkdir -p "$CACHE/src"
  echo "gcc-testsuite: fetching the gcc-12 source package into $CACHE" >&2
  orig=$(debsrc_download "$CACHE" gcc-12 "$CACHE/fetch.log") ||
    die "downloading gcc-12 sources failed (see $CACHE/fetch.log)"
  [ -n "$orig" ] || die "no gcc-12 orig tarball in $apt"
  echo "gcc-testsuite: unpacking the libgomp testsuite" >&2
  local tmp=$CACHE/unpack.$$
  mkdir -p "$tmp"
  tar xf "$orig" -C "$tmp" --wildcards '*/gcc-*-dfsg.tar.xz' || die "cannot unpack $orig"
  tar xJf "$tmp"/*/gcc-*-dfsg.tar.xz -C "$CACHE/src" --wildcards \
    "gcc-$GCCVER/libgomp/testsuite/*" "gcc-$GCCVER/libgomp/*.h" \
    "gcc-$GCCVER/gcc/testsuite/lib/*" "gcc-$GCCVER/include/*" || die "cannot unpack the GCC tarball"
  rm -rf "$tmp" "$apt"/*.tar.* "$apt"/*.dsc
  [ -f "$SRC/libgomp/testsuite/libgomp.c/c.exp" ] || die "libgomp testsuite missing after unpacking"
}

fetch
if ! command -v runtest >/dev/null; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y dejagnu >"$CACHE/dejagnu.log" 2>&1 ||
    { as_root apt-get update >>"$CACHE/dejagnu.log" 2>&1 &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y dejagnu >>"$CACHE/dejagnu.log" 2>&1; } ||
    die "runtest (Debian package dejagnu) is missing and cannot be installed"
fi

SYSLIB=$(gcc -fopenmp -print-file-name=libgomp.so.1)
[ -e "$SYSLIB" ] || SYSLIB=/usr/lib/x86_64-linux-gnu/libgomp.so.1
if [ "$RUNTIME" = system ]; then
  NAME=system
  CAND=$(readlink -f "$SYSLIB")
else
  [ -e "$RUNTIME/libgomp.so.1" ] || die "$RUNTIME/libgomp.so.1 does not exist (build tomp first: make)"
  CAND=$(readlink -f "$RUNTIME/libgomp.so.1")
  readelf -d "$CAND" | grep -q 'NEEDED.*lib\(t\|a\)san' &&
    die "$CAND is a sanitizer build: use a release build (build/lib)"
  NAME=$(basename "$(dirname "$(cd "$RUNTIME" && pwd)")")
  [ "$NAME" = / ] && NAME=candidate
fi
WORK=$CACHE/run-$NAME
rm -rf "$WORK"
mkdir -p "$WORK/tmp"
# libgomp.exp puts "." (the run directory) first on LD_LIBRARY_PATH: the candidate goes there.
ln -s "$CAND" "$WORK/libgomp.so.1"
# affinity-1.c includes libgomp's build-time config.h (found through -I$srcdir/..); this is
# its answer on glibc.
[ -f "$SRC/libgomp/config.h" ] || echo '#define HAVE_PTHREAD_AFFINITY_NP 1' >"$SRC/libgomp/config.h"
cat >"$WORK/site.exp" <<SITE
set tool libgomp
set srcdir $SRC/libgomp/testsuite
set objdir $WORK
set tmpdir $WORK/tmp
set host_triplet x86_64-pc-linux-gnu
set build_triplet x86_64-pc-linux-gnu
set target_triplet x86_64-pc-linux-gnu
set target_alias x86_64-linux-gnu
set GCC_UNDER_TEST gcc
set test_timeout 60
SITE
cat >"$WORK/libgomp-test-support.exp" <<'SUP'
set cuda_driver_include ""
set cuda_driver_lib ""
set hsa_runtime_lib ""
set offload_plugins ""
set offload_targets ""
set offload_additional_options ""
set offload_additional_lib_paths ""
SUP

# Check that a program run the way the testsuite runs it loads the candidate and nothing else.
cat >"$WORK/probe.c" <<'PROBE'
#include <omp.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
  n++;
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  while (f && fgets(line, sizeof line, f))
    if (strstr(line, ".so") && (strstr(line, "gomp") || strstr(line, "tomp"))) fputs(line, stdout);
  return n != 2;
}
PROBE
gcc -fopenmp -O2 "$WORK/probe.c" -o "$WORK/probe" || die "gcc -fopenmp cannot build a program"
maps=$(cd "$WORK" && LD_LIBRARY_PATH=".${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./probe) ||
  die "the probe program fails on $CAND"
libs=$(echo "$maps" | awk '{print $6}' | sort -u)
[ "$libs" = "$CAND" ] || die "the probe loaded [$libs] instead of exactly $CAND"
echo "gcc-testsuite: runtime $CAND (checked: the only OpenMP library loaded)"

tests=c.exp
[ -n "$PATTERN" ] && tests="c.exp=$PATTERN"
# DejaGnu's own 60 s limit does not stop a program that sleeps in a futex here (a hung test
# held the run for minutes): a watchdog kills, by pid, this run's test programs that outlive
# it by 10 s; DejaGnu then records the test as failed.
(while sleep 5; do
   for pid in $(ps -eo pid=,etimes=,args= | awk '$2 > 70 && $3 ~ /^\.\/.*\.exe$/ {print $1}'); do
     [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$WORK" ] || continue
     echo "watchdog: killed $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)after 70 s" >>"$WORK/watchdog.log"
     kill -9 "$pid" 2>/dev/null
   done
 done) &
watchdog=$!
start=$(date +%s)
(cd "$WORK" && runtest --tool libgomp --srcdir "$SRC/libgomp/testsuite" \
   --directory "$SRC/libgomp/testsuite/libgomp.c" "$tests") \
  >"$WORK/runtest.out" 2>&1
secs=$(( $(date +%s) - start ))
kill "$watchdog" 2>/dev/null
SUM=$WORK/libgomp.sum
[ -f "$SUM" ] || die "runtest produced no summary; see $WORK/runtest.out"

count() { grep -c "$1" "$SUM"; }
exec_pass=$(count '^PASS: .* execution test')
exec_fail=$(count '^FAIL: .* execution test')
build_fail=$(count '^FAIL: .*(test for excess errors)')
unres=$(count '^UNRESOLVED:')
unsup=$(count '^UNSUPPORTED:')
other_fail=$(grep '^FAIL:' "$SUM" | grep -vc 'execution test\|(test for excess errors)')
echo "gcc-testsuite: libgomp.c/c.exp${PATTERN:+=$PATTERN} on $NAME ($CAND), $(date -u +%Y-%m-%d), ${secs}s"
echo "  execution tests: $exec_pass passed, $exec_fail failed"
echo "  compile failures: $build_fail; other failures: $other_fail; unresolved: $unres; unsupported: $unsup"
if grep -q '^\(FAIL\|UNRESOLVED\):' "$SUM"; then
  echo "  failures:"
  grep '^\(FAIL\|UNRESOLVED\):' "$SUM" | sed 's|libgomp.c/../libgomp.c-c++-common/|c-c++-common/|; s/^/    /'
fi
nsym=$(grep -c 'symbol lookup error: .*undefined symbol' "$WORK/libgomp.log")
if [ "$nsym" -gt 0 ]; then
  echo "  $nsym runs stopped at a symbol the runtime lacks; the most frequent:"
  grep -o 'undefined symbol: [A-Za-z0-9_]*, version [A-Za-z0-9_.]*' "$WORK/libgomp.log" |
    sed 's/undefined symbol: \(.*\), version \(.*\)/\1@\2/' | sort | uniq -c | sort -rn | head -15 |
    awk '{printf "    %4d %s\n", $1, $2}'
fi
[ -s "$WORK/watchdog.log" ] && { echo "  hung programs killed by the watchdog:"; sed 's/^watchdog: /    /' "$WORK/watchdog.log"; }
echo "  (full results: $SUM)"
echo "$exec_pass passed, $((exec_fail + build_fail + other_fail)) failed"
[ $((exec_fail + build_fail + other_fail)) -eq 0 ]
