#!/usr/bin/env bash
# Run GCC 12's own libgomp testsuite (host execution tests and their output checks) against an
# OpenMP runtime, with the system compilers: libgomp.c (C: libgomp.c and
# libgomp.c-c++-common, by libgomp.c/c.exp), libgomp.c++ (C++: libgomp.c++ and
# libgomp.c-c++-common again, compiled as C++) and libgomp.fortran (every program at each of
# DejaGnu's Fortran optimization levels).
#
#   tools/gcc-testsuite.sh RUNTIME [SUITE[=PATTERN]...]
#
# RUNTIME is a directory holding the candidate as libgomp.so.1 (tomp: build/lib), or
# `system` for the system libgomp (the control).  SUITE is c, c++ or fortran (default: all
# three, one after another); PATTERN a runtest file glob, e.g. c='task*.c' (a lone PATTERN
# without a suite means c=PATTERN).  TOMP_GCC_FORTRAN_OPTS='-O2' runs the Fortran programs at
# that one level instead of all of them (a quicker subset).  Programs are built by the system
# gcc (-x c++ for C++, with -lgfortran for Fortran: GXX_UNDER_TEST / GFORTRAN_UNDER_TEST, as
# without a GCC build tree) against the system libgomp, then run with the candidate first on
# the library path, so only the candidate is loaded (the harness checks that before starting).
#
# Nothing is committed: the GCC source package is fetched once from Debian's archive with a
# private apt list (the system's apt configuration is left alone) into the cache directory
# $TOMP_GCC_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/tomp-gcc-testsuite).  DejaGnu comes
# from Debian's `dejagnu` package (installed when missing and we are root).
#
# Output, per suite: execution tests and output-pattern checks passed/failed, compile
# failures, and the list of failures; the full DejaGnu files are in
# $CACHE/run-NAME/SUITE/libgomp.{sum,log}.
# Exit status: 0 when no test failed, 1 otherwise, 2 on a set-up problem.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
RUNTIME=${1:-}
[ -n "$RUNTIME" ] || { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(c c++ fortran)
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
# one run directory per runtime and checkout: runs from other worktrees do not collide
WORK=$CACHE/run-$NAME-$(printf %s "$HERE" | cksum | cut -d' ' -f1)
rm -rf "$WORK"
mkdir -p "$WORK"
# affinity-1.c includes libgomp's build-time config.h (found through -I$srcdir/..); this is
# its answer on glibc.
[ -f "$SRC/libgomp/config.h" ] || echo '#define HAVE_PTHREAD_AFFINITY_NP 1' >"$SRC/libgomp/config.h"

# A suite's run directory: DejaGnu's site files, and the candidate as libgomp.so.1 (libgomp.exp
# puts "." (the run directory) first on LD_LIBRARY_PATH).
setup_dir() {
  local dir=$1
  mkdir -p "$dir/tmp"
  ln -sfn "$CAND" "$dir/libgomp.so.1"
  cat >"$dir/site.exp" <<SITE
set tool libgomp
set srcdir $SRC/libgomp/testsuite
set objdir $dir
set tmpdir $dir/tmp
set host_triplet x86_64-pc-linux-gnu
set build_triplet x86_64-pc-linux-gnu
set target_triplet x86_64-pc-linux-gnu
set target_alias x86_64-linux-gnu
set GCC_UNDER_TEST gcc
set GXX_UNDER_TEST g++
set GFORTRAN_UNDER_TEST gfortran
set test_timeout 60
SITE
  [ -n "${TOMP_GCC_FORTRAN_OPTS:-}" ] &&
    echo "set TORTURE_OPTIONS [list { $TOMP_GCC_FORTRAN_OPTS }]" >>"$dir/site.exp"
  cat >"$dir/libgomp-test-support.exp" <<'SUP'
set cuda_driver_include ""
set cuda_driver_lib ""
set hsa_runtime_lib ""
set offload_plugins ""
set offload_targets ""
set offload_additional_options ""
set offload_additional_lib_paths ""
SUP
}
setup_dir "$WORK/probe"

# Check that a program run the way the testsuite runs it loads the candidate and nothing else.
cat >"$WORK/probe/probe.c" <<'PROBE'
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
gcc -fopenmp -O2 "$WORK/probe/probe.c" -o "$WORK/probe/probe" || die "gcc -fopenmp cannot build a program"
maps=$(cd "$WORK/probe" && LD_LIBRARY_PATH=".${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./probe) ||
  die "the probe program fails on $CAND"
libs=$(echo "$maps" | awk '{print $6}' | sort -u)
[ "$libs" = "$CAND" ] || die "the probe loaded [$libs] instead of exactly $CAND"
echo "gcc-testsuite: runtime $CAND (checked: the only OpenMP library loaded)"

# DejaGnu's own 60 s limit does not stop a program that sleeps in a futex here (a hung test
# held the run for minutes): a watchdog kills, by pid, this run's test programs that outlive
# it by 10 s; DejaGnu then records the test as failed.
(while sleep 5; do
   for pid in $(ps -eo pid=,etimes=,args= | awk '$2 > 70 && $3 ~ /^\.\/.*\.exe$/ {print $1}'); do
     case "$(readlink "/proc/$pid/cwd" 2>/dev/null)" in "$WORK"/*) ;; *) continue;; esac
     echo "watchdog: killed $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)after 70 s" >>"$WORK/watchdog.log"
     kill -9 "$pid" 2>/dev/null
   done
 done) &
watchdog=$!
trap 'kill $watchdog 2>/dev/null' EXIT

total_fail=0
run_suite() { # suite [pattern]
  local suite=$1 pattern=$2 exp dir
  case "$suite" in
    c) exp=c.exp ;;
    c++) exp=c++.exp ;;
    fortran) exp=fortran.exp ;;
    *) die "unknown suite '$suite' (c, c++ or fortran)" ;;
  esac
  dir=$WORK/$suite
  setup_dir "$dir"
  local tests=$exp start secs
  [ -n "$pattern" ] && tests="$exp=$pattern"
  start=$(date +%s)
  (cd "$dir" && runtest --tool libgomp --srcdir "$SRC/libgomp/testsuite" \
     --directory "$SRC/libgomp/testsuite/libgomp.$suite" "$tests") \
    >"$dir/runtest.out" 2>&1
  secs=$(( $(date +%s) - start ))
  local SUM=$dir/libgomp.sum
  [ -f "$SUM" ] || die "runtest produced no summary; see $dir/runtest.out"
  count() { grep -c "$1" "$SUM"; }
  local exec_pass exec_fail out_pass out_fail build_fail unres unsup other_fail
  exec_pass=$(count '^PASS: .* execution test')
  exec_fail=$(count '^FAIL: .* execution test')
  out_pass=$(count '^PASS: .* output pattern test')
  out_fail=$(count '^FAIL: .* output pattern test')
  build_fail=$(count '^FAIL: .*(test for excess errors)')
  unres=$(count '^UNRESOLVED:')
  unsup=$(count '^UNSUPPORTED:')
  other_fail=$(grep '^FAIL:' "$SUM" | grep -vc 'execution test\|output pattern test\|(test for excess errors)')
  local opts=
  [ "$suite" = fortran ] && [ -n "${TOMP_GCC_FORTRAN_OPTS:-}" ] && opts=", Fortran at $TOMP_GCC_FORTRAN_OPTS only"
  echo "gcc-testsuite: libgomp.$suite/$exp${pattern:+=$pattern} on $NAME ($CAND), $(date -u +%Y-%m-%d)$opts, ${secs}s"
  echo "  execution tests: $exec_pass passed, $exec_fail failed"
  echo "  output-pattern checks: $out_pass passed, $out_fail failed"
  echo "  compile failures: $build_fail; other failures: $other_fail; unresolved: $unres; unsupported: $unsup"
  if grep -q '^\(FAIL\|UNRESOLVED\):' "$SUM"; then
    echo "  failures:"
    grep '^\(FAIL\|UNRESOLVED\):' "$SUM" | sed 's|libgomp\.[a-z+]*/\.\./libgomp.c-c++-common/|c-c++-common/|; s/^/    /'
  fi
  local nsym
  nsym=$(grep -c 'symbol lookup error: .*undefined symbol' "$dir/libgomp.log")
  if [ "$nsym" -gt 0 ]; then
    echo "  $nsym runs stopped at a symbol the runtime lacks; the most frequent:"
    grep -o 'undefined symbol: [A-Za-z0-9_]*, version [A-Za-z0-9_.]*' "$dir/libgomp.log" |
      sed 's/undefined symbol: \(.*\), version \(.*\)/\1@\2/' | sort | uniq -c | sort -rn | head -15 |
      awk '{printf "    %4d %s\n", $1, $2}'
  fi
  echo "  (full results: $SUM)"
  echo "  $suite: $exec_pass + $out_pass passed, $((exec_fail + out_fail + build_fail + other_fail)) failed"
  total_fail=$((total_fail + exec_fail + out_fail + build_fail + other_fail))
}

for arg in "${SUITES[@]}"; do
  case "$arg" in
    c | c++ | fortran) run_suite "$arg" "" ;;
    c=* | c++=* | fortran=*) run_suite "${arg%%=*}" "${arg#*=}" ;;
    *) run_suite c "$arg" ;; # the old form: a C pattern
  esac
done
[ -s "$WORK/watchdog.log" ] && { echo "hung programs killed by the watchdog:"; sed 's/^watchdog: /    /' "$WORK/watchdog.log"; }
[ "$total_fail" -eq 0 ]
