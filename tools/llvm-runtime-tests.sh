#!/usr/bin/env bash
# LLVM 14's runtime tests (openmp/runtime/test, the OMPT directory aside: 192 tests) compiled by
# clang-14 and run the way LLVM runs them, by LLVM's lit with the tree's own lit.cfg, on tomp
# and on LLVM's libomp 14.
#
#   tools/llvm-runtime-tests.sh [PATTERN]     e.g. 'tasking/' or 'omp_for_'
#   TOMP_LIBDIR=DIR tools/llvm-runtime-tests.sh  another tomp build's lib directory (default:
#                                             this checkout's build/lib, built first)
#   RERUN_LIBOMP=0 tools/llvm-runtime-tests.sh   keep libomp's results of the last full run
#
# Fair to both runtimes, and as a clang user meets tomp: every test is compiled the same way for
# both (clang-14 -fopenmp -pthread, libomp 14's own omp.h, linked against libomp 14 in
# /usr/lib/llvm-14/lib as clang links by default; features clang clang-14 clang-14.0
# clang-14.0.6, as LLVM's CMake gives lit for that compiler), and the tomp run puts build/lib
# (where libomp.so.5 is tomp) first on LD_LIBRARY_PATH, so the same binary loads tomp instead.
# lit kills a test that runs longer than LIT_TIMEOUT seconds (default 300: tasking/omp_task.c
# and three others sleep 130 s on libomp with 2 CPUs) with its children;
# LIT_JOBS (default 2) tests run at once, under nice.
#
# Nothing is committed: Debian 12's llvm-toolchain-14 source package is fetched once
# (tools/debsrc.sh, a private apt list; the .orig tarball tools/llvm-ompt-tests.sh already
# downloaded is reused when present) into $TOMP_LLVM_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/tomp-llvm-runtime-tests), and only openmp/runtime/test plus
# runtime/src/dllexports (the entry point list docs/kmp-abi.md compares with) and
# runtime/src/kmp_platform.h (three atomic tests include it) are unpacked.
# Needs lit and FileCheck (llvm-14-tools), python3-psutil (lit's --timeout), clang-14 and
# libomp-14-dev; installed when missing and we are root.
#
# Output: one line per test with both results (lit's codes: PASS FAIL XFAIL XPASS UNSUPPORTED
# TIMEOUT), both pass counts, then each test tomp fails with its last lines of output.  lit's
# full logs: $CACHE/run-{tomp,libomp}/lit.log.  docs/kmp-abi.md explains each tomp failure.
# A run with a PATTERN keeps its results and logs apart (NAME.subset.txt, run-NAME.subset/), so
# the last full run's files, which RERUN_LIBOMP=0 reuses, stay whole.
# Exit status: 0, or 2 on a set-up problem.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
PATTERN=${1:-}
SUB=${PATTERN:+.subset} # a subset run's files: NAME.subset.txt, run-NAME.subset/
CACHE=${TOMP_LLVM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tomp-llvm-runtime-tests}
TIMEOUT=${LIT_TIMEOUT:-300}
JOBS=${LIT_JOBS:-2}
PY=/usr/bin/python3
LIT=/usr/lib/llvm-14/build/utils/lit/lit.py
LLVMLIB=/usr/lib/llvm-14/lib
die() { echo "llvm-runtime-tests: $*" >&2; exit 2; }
case "$CACHE/" in "$HERE"/*) die "the cache ($CACHE) must lie outside the repository";; esac
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
source "$HERE/tools/debsrc.sh"

need=()
[ -x /usr/lib/llvm-14/bin/FileCheck ] && [ -f $LIT ] || need+=(llvm-14-tools)
[ -e $LLVMLIB/libomp.so.5 ] || need+=(libomp5-14)
[ -e $LLVMLIB/clang/14.0.6/include/omp.h ] || need+=(libomp-14-dev)
$PY -c 'import psutil' 2>/dev/null || need+=(python3-psutil)
command -v clang++-14 >/dev/null || need+=(clang-14)
if [ ${#need[@]} -gt 0 ]; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/dev/null 2>&1 ||
    die "missing ${need[*]} and cannot install them"
fi

# The test tree (and dllexports) of LLVM 14 in $CACHE/src.
SRC=$CACHE/src/openmp/runtime
if [ ! -f "$SRC/test/lit.cfg" ] || [ ! -f "$SRC/src/dllexports" ] || [ ! -f "$SRC/src/kmp_platform.h" ]; then
  mkdir -p "$CACHE/src"
  orig=$(ls "${TOMP_LLVM_OMPT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tomp-llvm-ompt-tests}"/14/apt/llvm-toolchain-14_*.orig.tar.* 2>/dev/null | head -1)
  if [ -z "$orig" ]; then
    echo "llvm-runtime-tests: fetching the llvm-toolchain-14 source package into $CACHE" >&2
    orig=$(debsrc_download "$CACHE" llvm-toolchain-14 "$CACHE/fetch.log") ||
      die "downloading llvm-toolchain-14 failed (see $CACHE/fetch.log)"
  fi
  tar xJf "$orig" -C "$CACHE/src" --strip-components=1 --wildcards '*/openmp/runtime/test/*' \
    '*/openmp/runtime/src/dllexports' '*/openmp/runtime/src/exports_so.txt' \
    '*/openmp/runtime/src/kmp_platform.h' ||
    die "cannot unpack $orig"
  rm -f "$CACHE"/apt/*.tar.* "$CACHE"/apt/*.dsc
  [ -f "$SRC/test/lit.cfg" ] || die "the test tree is missing after unpacking"
fi
INC=$CACHE/libomp-include # libomp 14's omp.h alone (not clang's whole include directory)
mkdir -p "$INC"
cp $LLVMLIB/clang/14.0.6/include/omp.h "$INC/"

if [ -z "${TOMP_LIBDIR:-}" ]; then
  nice make -s -C "$HERE" -j2 >/dev/null || die "building tomp failed"
fi
TLIB=$(cd "${TOMP_LIBDIR:-$HERE/build/lib}" && pwd) || die "no directory ${TOMP_LIBDIR:-}"
[ -e "$TLIB/libomp.so.5" ] || die "$TLIB/libomp.so.5 is missing"

# run NAME [LIBDIR]: lit over every test directory but ompt/ into $CACHE/run-NAME; LIBDIR goes
# first on the tests' LD_LIBRARY_PATH.  Prints "CODE test" lines into $CACHE/NAME.txt.
run() {
  local name=$1 pre=${2:-} out=$CACHE/run-$1$SUB dirs=()
  rm -rf "$out"
  mkdir -p "$out"
  sed -e 's|@AUTO_GEN_COMMENT@|## Written by tools/llvm-runtime-tests.sh as CMake would for clang-14|' \
    -e 's|@OPENMP_TEST_C_COMPILER@|clang-14|' -e 's|@OPENMP_TEST_CXX_COMPILER@|clang++-14|' \
    -e "s|@OPENMP_TEST_COMPILER_FEATURES@|['clang', 'clang-14', 'clang-14.0', 'clang-14.0.6']|" \
    -e 's|@OPENMP_FILECHECK_EXECUTABLE@|/usr/lib/llvm-14/bin/FileCheck|' \
    -e 's|@OPENMP_NOT_EXECUTABLE@|/usr/lib/llvm-14/bin/not|' \
    -e 's|@OPENMP_TEST_OPENMP_FLAGS@|-fopenmp -pthread|' -e 's|@OPENMP_TEST_FLAGS@||' \
    -e "s|@CMAKE_CURRENT_BINARY_DIR@|$out|" -e "s|@LIBOMP_LIBRARY_DIR@|$LLVMLIB|" \
    -e "s|\"@LIBOMP_BINARY_DIR@/src\"|\"$INC\"|" -e 's|@CMAKE_SYSTEM_NAME@|Linux|' \
    -e 's|@LIBOMP_HWLOC_LIBRARY_DIR@||' -e 's|@LIBOMP_USE_HWLOC@|False|' \
    -e 's|@LIBOMP_OMPT_SUPPORT@|True|' -e 's|@LIBOMP_OMPT_OPTIONAL@|True|' \
    -e 's|@LIBOMP_HAVE_LIBM@|True|' -e 's|@LIBOMP_HAVE_LIBATOMIC@|True|' \
    -e 's|@OPENMP_STANDALONE_BUILD@|True|' -e "s|@LIBOMP_BASE_DIR@|$SRC|" \
    "$SRC/test/lit.site.cfg.in" >"$out/lit.site.cfg"
  grep -q '@[A-Z_]*@' "$out/lit.site.cfg" && die "lit.site.cfg.in has a value this script does not set"
  if [ -n "$pre" ]; then # after lit.cfg prepended libomp's directory
    printf '%s\n' "config.environment['LD_LIBRARY_PATH'] = '$pre:' + config.environment['LD_LIBRARY_PATH']" \
      >>"$out/lit.site.cfg"
  fi
  for d in "$SRC"/test/*/; do
    d=$(basename "$d")
    [ "$d" = ompt ] || { mkdir -p "$out/$d"; dirs+=("$out/$d"); }
  done
  local filter=()
  [ -n "$PATTERN" ] && filter=(--filter "$(printf '%s' "$PATTERN" | sed 's/[].[^$*+?(){}|\\]/\\&/g')")
  (cd "$out" && nice $PY $LIT -v -j"$JOBS" --timeout="$TIMEOUT" "${filter[@]}" \
    -o "$out/results.json" "${dirs[@]}" >"$out/lit.log" 2>&1)
  $PY - "$out/results.json" >"$CACHE/$name$SUB.txt" <<'EOF' || die "lit gave no results on $name (see $out/lit.log)"
import json, sys
for t in sorted(json.load(open(sys.argv[1]))['tests'], key=lambda t: t['name']):
    print(t['code'], t['name'].split(' :: ', 1)[1])
EOF
}

# Which library a binary of this set-up loads, to be sure the tomp run is on tomp.
probe=$CACHE/probe
printf '#include <omp.h>\nint main(void){\n#pragma omp parallel\n;return omp_get_max_threads()<1;}\n' >"$probe.c"
clang-14 -fopenmp -pthread -I"$INC" -L$LLVMLIB "$probe.c" -o "$probe" || die "clang-14 cannot build a test"
LD_LIBRARY_PATH="$TLIB:$LLVMLIB" LD_DEBUG=files "$probe" 2>&1 |
  grep -q "calling init: $TLIB/libomp.so.5\$" ||
  die "a clang binary does not load $TLIB/libomp.so.5 with it first on LD_LIBRARY_PATH"

if [ "${RERUN_LIBOMP:-1}" = 0 ] && [ -s "$CACHE/libomp.txt" ] && [ -z "$PATTERN" ]; then
  echo "llvm-runtime-tests: libomp's results of $(date -r "$CACHE/libomp.txt" -u '+%F %H:%M UTC') kept" >&2
else
  run libomp
fi
run tomp "$TLIB"

echo "tomp        libomp      test"
LC_ALL=C join -1 2 -2 2 <(LC_ALL=C sort -k2,2 "$CACHE/tomp$SUB.txt") <(LC_ALL=C sort -k2,2 "$CACHE/libomp$SUB.txt") |
  awk '{printf "%-11s %-11s %s\n", $2, $3, $1}'
count() { awk -v f="$1" '$1 == "PASS" || $1 == "XFAIL" {p++} $1 != "UNSUPPORTED" {n++}
  END {printf "%d of %d pass (%s)\n", p, n, f}' "$CACHE/$1$SUB.txt"; }
echo "tomp:   $(count tomp)"
echo "libomp: $(count libomp)"
echo "(a pass is PASS or XFAIL; UNSUPPORTED tests are not counted)"
# Each tomp failure with the end of what lit logged for it.
awk '$1 != "PASS" && $1 != "XFAIL" && $1 != "UNSUPPORTED" {print $2}' "$CACHE/tomp$SUB.txt" |
  while read -r t; do
    echo "---- tomp $(awk -v t="$t" '$2 == t {print $1}' "$CACHE/tomp$SUB.txt"): $t (libomp: $(awk -v t="$t" '$2 == t {print $1}' "$CACHE/libomp$SUB.txt"))"
    awk -v t="libomp :: $t" 'index($0, "******************** TEST \x27" t "\x27") {on=1; next}
      on && /^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*$/ {exit} on' "$CACHE/run-tomp$SUB/lit.log" |
      grep -v '^$' | tail -6
  done
exit 0
