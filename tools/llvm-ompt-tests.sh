#!/usr/bin/env bash
# LLVM 14's own OMPT tests (openmp/runtime/test/ompt, lit + FileCheck) compiled by gcc and
# run on tomp and, side by side, on LLVM's libomp: the incumbent's tests, on gcc binaries.
#
#   tools/llvm-ompt-tests.sh [PATTERN]        e.g. 'tasks/' or 'barrier'
#
# Nothing is committed: the llvm-toolchain-14 source package is fetched once from Debian's
# archive (tools/debsrc.sh, a private apt list) into $TOMP_LLVM_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/tomp-llvm-ompt-tests) and only openmp/runtime/test and the one
# header its callback.h includes are unpacked.  Needs gcc, g++, FileCheck-14 (llvm-14-tools)
# and libomp5-14 (installed when missing and we are root).  tools/llvm-ompt-tests.py is the
# small lit that runs each test; logs go to $CACHE/run-tomp and $CACHE/run-libomp.
#
# Output: one line per test with both results, then the two summaries.  Many of the tests
# check libomp's own choices where OpenMP 5.2 leaves room or says otherwise (NULL codeptr_ra,
# 5.0 barrier and loop kinds, lazy start-up ...): docs/testing.md lists why each one that
# passes on libomp fails on tomp.  Exit status: 0, or 2 on a set-up problem.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
PATTERN=${1:-}
CACHE=${TOMP_LLVM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tomp-llvm-ompt-tests}
die() { echo "llvm-ompt-tests: $*" >&2; exit 2; }
case "$CACHE/" in "$HERE"/*) die "the cache ($CACHE) must lie outside the repository";; esac
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
source "$HERE/tools/debsrc.sh"

need=()
command -v FileCheck-14 >/dev/null || need+=(llvm-14-tools)
[ -e /usr/lib/llvm-14/lib/libomp.so.5 ] || need+=(libomp5-14)
[ -e /usr/lib/llvm-14/lib/clang/14.0.6/include/omp-tools.h ] || need+=(libomp-14-dev)
command -v g++ >/dev/null || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/dev/null 2>&1 ||
    die "missing ${need[*]} and cannot install them"
fi

TESTS=$CACHE/src/openmp/runtime/test
if [ ! -f "$TESTS/ompt/callback.h" ]; then
  mkdir -p "$CACHE/src"
  echo "llvm-ompt-tests: fetching the llvm-toolchain-14 source package into $CACHE" >&2
  orig=$(debsrc_download "$CACHE" llvm-toolchain-14 "$CACHE/fetch.log") ||
    die "downloading llvm-toolchain-14 failed (see $CACHE/fetch.log)"
  [ -n "$orig" ] || die "no llvm-toolchain-14 orig tarball in $CACHE/apt"
  tar xJf "$orig" -C "$CACHE/src" --strip-components=1 --wildcards \
    '*/openmp/runtime/test/*' '*/openmp/runtime/src/kmp_platform.h' || die "cannot unpack $orig"
  rm -f "$CACHE"/apt/*.tar.* "$CACHE"/apt/*.dsc
  [ -f "$TESTS/ompt/callback.h" ] || die "OMPT tests missing after unpacking"
fi

make -s -C "$HERE" -j2 >/dev/null || die "building tomp failed"
python3 "$HERE/tools/llvm-ompt-tests.py" "$TESTS" "$HERE/build/lib" "$CACHE/run-tomp" $PATTERN \
  >"$CACHE/tomp.txt"
python3 "$HERE/tools/llvm-ompt-tests.py" "$TESTS" libomp "$CACHE/run-libomp" $PATTERN \
  >"$CACHE/libomp.txt"
echo "tomp   libomp test"
join -j 2 <(grep -v '^summary' "$CACHE/tomp.txt" | awk '{print $1, $2}' | sort -k2) \
  <(grep -v '^summary' "$CACHE/libomp.txt" | awk '{print $1, $2}' | sort -k2) |
  awk '{printf "%-6s %-6s %s\n", $2, $3, $1}'
echo "tomp:   $(grep '^summary' "$CACHE/tomp.txt" | cut -d' ' -f2-)"
echo "libomp: $(grep '^summary' "$CACHE/libomp.txt" | cut -d' ' -f2-)"
