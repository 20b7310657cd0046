#!/usr/bin/env bash
# LLVM's own OMPT tests (openmp/runtime/test/ompt of LLVM 14 and 19) run the way LLVM runs
# them, by LLVM's lit with LLVM's lit.cfg, compiled by gcc or by clang, on tomp and on LLVM's
# libomp.
#
#   tools/llvm-ompt-tests.sh [--compiler gcc|clang|both] [PATTERN]   e.g. 'tasks/' or 'barrier'
#   LLVM_VERSIONS=14 tools/llvm-ompt-tests.sh  one LLVM version only (default "14 19")
#
# --compiler (default both): gcc 12 (libgomp's ABI: tomp's src/gomp, libomp's GOMP layer) or
# clang-14 (-fopenmp=libomp, LLVM's __kmpc_* ABI: tomp's src/kmp), each with the lit features
# LLVM's CMake gives that compiler, so lit's REQUIRES / UNSUPPORTED / XFAIL follow it.
# Fair to both runtimes: each test binary is linked against the runtime under test (its
# library directory's libgomp.so, which gcc's -fopenmp links, or libomp.so, which clang's
# links: libomp's directory has libgomp.so -> libomp.so, as LLVM's build tree does for its gcc
# runs, and tomp's build/lib has both names) and compiled with that
# runtime's own omp.h and omp-tools.h; lit evaluates REQUIRES / UNSUPPORTED / XFAIL with the
# features CMake gives the test compiler (tools/llvm-ompt-tests.py writes the lit.site.cfg), and
# kills a test that runs longer than LIT_TIMEOUT seconds (default 120) with its children.
#
# Nothing is committed: the llvm-toolchain-14 (Debian 12) and llvm-toolchain-19 (Debian 13)
# source packages are fetched once (tools/debsrc.sh, a private apt list) into $TOMP_LLVM_CACHE
# (default ${XDG_CACHE_HOME:-~/.cache}/tomp-llvm-ompt-tests)/VERSION and only the parts used are
# unpacked.  libomp 14 is Debian's (libomp5-14, libomp-14-dev); libomp 19, which Debian 12 does
# not have, is built from the same source (cmake, clang-14: a few minutes, once).  Needs
# FileCheck and lit (llvm-14-tools, /usr/lib/llvm-14/build/utils/lit), python3-psutil (lit's
# --timeout), gcc, g++ and cmake; installed when missing and we are root.
#
# Output: per LLVM version and compiler one line per test with both results, then the
# summaries; lit's logs are in $CACHE/VERSION/run-RUNTIME-COMPILER/lit.log.  docs/testing.md
# explains each difference.  A run with a PATTERN keeps its results and logs apart
# (COMPILER/RUNTIME.subset.txt, run-RUNTIME-COMPILER.subset/): the full run's stay whole.
# Exit status: 0, or 2 on a set-up problem.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
COMPILERS="gcc clang"
case ${1:-} in
  --compiler) COMPILERS=${2:-}; shift 2 || true ;;
  --compiler=*) COMPILERS=${1#--compiler=}; shift ;;
esac
[ "$COMPILERS" = both ] && COMPILERS="gcc clang"
PATTERN=${1:-}
SUB=${PATTERN:+.subset} # a subset run's files: RUNTIME.subset.txt, run-*.subset/
CACHE=${TOMP_LLVM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tomp-llvm-ompt-tests}
die() { echo "llvm-ompt-tests: $*" >&2; exit 2; }
case "$CACHE/" in "$HERE"/*) die "the cache ($CACHE) must lie outside the repository";; esac
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
source "$HERE/tools/debsrc.sh"

need=()
[ -x /usr/lib/llvm-14/bin/FileCheck ] || need+=(llvm-14-tools)
[ -e /usr/lib/llvm-14/lib/libomp.so.5 ] || need+=(libomp5-14)
[ -e /usr/lib/llvm-14/lib/clang/14.0.6/include/omp-tools.h ] || need+=(libomp-14-dev)
/usr/bin/python3 -c 'import psutil' 2>/dev/null || need+=(python3-psutil)
command -v g++ >/dev/null || need+=(g++)
command -v cmake >/dev/null || need+=(cmake)
command -v clang++-14 >/dev/null || need+=(clang-14)
if [ ${#need[@]} -gt 0 ]; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/dev/null 2>&1 ||
    die "missing ${need[*]} and cannot install them"
fi

# fetch VERSION SUITES: the test directory of llvm-toolchain-VERSION into $CACHE/VERSION/src
fetch() {
  local v=$1 suites=$2 dir=$CACHE/$1 orig
  [ -f "$dir/src/openmp/runtime/test/ompt/callback.h" ] && return 0
  mkdir -p "$dir/src"
  echo "llvm-ompt-tests: fetching the llvm-toolchain-$v source package into $dir" >&2
  orig=$(debsrc_download "$dir" "llvm-toolchain-$v" "$dir/fetch.log" "$suites") ||
    die "downloading llvm-toolchain-$v failed (see $dir/fetch.log)"
  # the test directory, and for libomp 19 what a standalone openmp build reads
  tar xJf "$orig" -C "$dir/src" --strip-components=1 --wildcards '*/openmp/*' \
    "*-$v*/cmake/*" || die "cannot unpack $orig"
  rm -f "$dir"/apt/*.tar.* "$dir"/apt/*.dsc
  [ -f "$dir/src/openmp/runtime/test/ompt/callback.h" ] || die "OMPT tests missing after unpacking"
}

# libomp19: LLVM 19's libomp, built once from the fetched source; prints its library directory
libomp19() {
  local b=$CACHE/19/libomp-build
  if [ ! -e "$b/runtime/src/libgomp.so" ]; then
    echo "llvm-ompt-tests: building libomp 19 in $b (once)" >&2
    mkdir -p "$b"
    (cd "$b" && cmake "$CACHE/19/src/openmp" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DOPENMP_ENABLE_LIBOMPTARGET=OFF -DLIBOMP_OMPD_SUPPORT=OFF >cmake.log 2>&1 &&
      make -j2 omp >make.log 2>&1) || return 1
  fi
  echo "$b/runtime/src"
}

make -s -C "$HERE" -j2 >/dev/null || die "building tomp failed"
for v in ${LLVM_VERSIONS:-14 19}; do
  case $v in
  14) fetch 14 "bookworm bookworm-updates"
      inc=$CACHE/14/libomp-include
      mkdir -p "$inc"
      cp /usr/lib/llvm-14/lib/clang/14.0.6/include/{omp.h,omp-tools.h,ompt.h} "$inc/"
      lib=/usr/lib/llvm-14/lib ;;
  19) fetch 19 "trixie"
      lib=$(libomp19) || die "building libomp 19 failed (see $CACHE/19/libomp-build/*.log)"
      inc=$lib ;;
  *) die "LLVM $v: only 14 and 19 are known" ;;
  esac
  tests=$CACHE/$v/src/openmp/runtime/test
  for cc in $COMPILERS; do
    case $cc in gcc | clang) ;; *) die "--compiler: gcc, clang or both, not $cc" ;; esac
    r=$CACHE/$v/$cc
    mkdir -p "$r"
    python3 "$HERE/tools/llvm-ompt-tests.py" --compiler=$cc "$v" "$tests" tomp "$HERE/build/lib" \
      "$HERE/include" "$CACHE/$v/run-tomp-$cc$SUB" $PATTERN >"$r/tomp$SUB.txt" || die "lit failed on tomp"
    python3 "$HERE/tools/llvm-ompt-tests.py" --compiler=$cc "$v" "$tests" libomp "$lib" "$inc" \
      "$CACHE/$v/run-libomp-$cc$SUB" $PATTERN >"$r/libomp$SUB.txt" || die "lit failed on libomp"
    echo "LLVM $v, $cc: tomp        libomp      test"
    LC_ALL=C join -j 2 <(awk '!/^summary/ {print $1, $2}' "$r/tomp$SUB.txt" | LC_ALL=C sort -k2,2) \
      <(awk '!/^summary/ {print $1, $2}' "$r/libomp$SUB.txt" | LC_ALL=C sort -k2,2) |
      awk '{printf "%-11s %-11s %s\n", $2, $3, $1}'
    echo "LLVM $v, $cc, tomp:   $(grep '^summary' "$r/tomp$SUB.txt" | cut -d' ' -f2-)"
    echo "LLVM $v, $cc, libomp: $(grep '^summary' "$r/libomp$SUB.txt" | cut -d' ' -f2-)"
  done
done
