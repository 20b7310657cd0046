#!/usr/bin/env bash
# LLVM's OMPD tests (openmp/libompd/test of LLVM 16: lit + FileCheck, driven by gdb and LLVM's
# own gdb plug-in) on tomp: the test programs are compiled by gcc and run on tomp, and LLVM's
# plug-in loads tomp's libtompd.so through ompd_dll_locations.  A check of libtompd.so by
# someone else's debugger side; tomp's own is tools/gdb (docs/ompd.md).
#
#   tools/llvm-ompd-tests.sh [LIT ARGS...]      e.g. --filter api_tests
#
# Nothing is committed: the llvm-toolchain-16 source package (Debian 12) is fetched once
# (tools/debsrc.sh, a private apt list) into $TOMP_LLVM_OMPD_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/tomp-llvm-ompd-tests); only openmp/libompd is unpacked.  LLVM's
# plug-in module (gdb-plugin/ompdModule.c) is built there against Python's headers.  Needs
# gcc, gdb, lit and FileCheck (llvm-14-tools), libpython3-dev, libomp-14-dev (for LLVM's
# omp-tools.h: tomp's declares ompt_start_tool, which the tests' ompt_plugin.h defines static).
# Output: lit's, then for each failing test the checks that failed.  Exit: lit's, or 2 on a
# set-up problem.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${TOMP_LLVM_OMPD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tomp-llvm-ompd-tests}
B=$HERE/build
die() { echo "llvm-ompd-tests: $*" >&2; exit 2; }
case "$CACHE/" in "$HERE"/*) die "the cache ($CACHE) must lie outside the repository";; esac
source "$HERE/tools/debsrc.sh"

PYINC=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("INCLUDEPY"))')
GDBPY=$(gdb -nx -batch -ex 'python import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
[ -n "$GDBPY" ] || die "gdb with Python is needed"
[ -e "/usr/include/python$GDBPY/Python.h" ] && PYINC=/usr/include/python$GDBPY
[ -e "$PYINC/Python.h" ] || die "no Python.h for gdb's Python $GDBPY (Debian: libpython3-dev)"
LIT=/usr/lib/llvm-14/build/utils/lit/lit.py
[ -e "$LIT" ] && command -v FileCheck-14 >/dev/null || die "lit and FileCheck are needed (Debian: llvm-14-tools)"
LLVM_TOOLS_H=/usr/lib/llvm-14/lib/clang/14.0.6/include/omp-tools.h
[ -e "$LLVM_TOOLS_H" ] || die "LLVM's omp-tools.h is needed (Debian: libomp-14-dev)"

SRC=$CACHE/src/openmp/libompd
if [ ! -f "$SRC/gdb-plugin/ompdModule.c" ]; then
  mkdir -p "$CACHE/src"
  echo "llvm-ompd-tests: fetching the llvm-toolchain-16 source package into $CACHE" >&2
  orig=$(debsrc_download "$CACHE" llvm-toolchain-16 "$CACHE/fetch.log") ||
    die "downloading llvm-toolchain-16 failed (see $CACHE/fetch.log)"
  [ -n "$orig" ] || die "no llvm-toolchain-16 orig tarball in $CACHE/apt"
  tar xJf "$orig" -C "$CACHE/src" --strip-components=1 --wildcards '*/openmp/libompd/*' ||
    die "cannot unpack $orig"
  rm -f "$CACHE"/apt/*.tar.* "$CACHE"/apt/*.dsc
  [ -f "$SRC/gdb-plugin/ompdModule.c" ] || die "LLVM's gdb plug-in missing after unpacking"
fi

make -s -C "$HERE" -j2 >/dev/null || die "building tomp failed"
[ -e "$B/libtompd.so" ] || die "no $B/libtompd.so"

# lit's layout: the plug-in at <obj>/gdb-plugin/python-module/ompd, the tests' obj root at
# <obj>/test (lit.cfg finds the first from the second)
# ompd_bt.c and ompd_parallel.c REQUIRE "determinism" (their output depends on scheduling):
# TOMP_LLVM_OMPD_DETERMINISM=1 runs them too
DETERMINISM=${TOMP_LLVM_OMPD_DETERMINISM:-}
O=$CACHE/obj
rm -rf "$O"; mkdir -p "$O/test" "$O/gdb-plugin/python-module" "$O/include"
cp "$LLVM_TOOLS_H" "$O/include/"
cp -r "$SRC/gdb-plugin/ompd" "$O/gdb-plugin/python-module/"
gcc -shared -fPIC -O1 -g -w -o "$O/gdb-plugin/python-module/ompd/ompdModule.so" \
  "$SRC/gdb-plugin/ompdModule.c" "$SRC/gdb-plugin/ompdAPITests.c" -I"$O/include" -I"$PYINC" -ldl ||
  die "building LLVM's ompdModule failed"
cat >"$O/test/lit.site.cfg" <<CFG
config.test_c_compiler = "gcc"
config.test_cxx_compiler = "g++"
config.test_compiler_features = []
config.test_filecheck = "$(command -v FileCheck-14)"
config.test_not = "/usr/lib/llvm-14/bin/not"
config.test_openmp_flags = "-fopenmp"
config.test_extra_flags = ""
config.ompd_obj_root = "$O/test"
config.ompd_test_src = "$SRC/test"
config.library_dir = "$B/lib"
config.ompd_library_dir = "$B"
config.omp_header_directory = "$HERE/include"
config.operating_system = "Linux"
config.ompt_plugin = ""
config.ompt_include_dir = "$O/include"
config.ompd_module = "$O/gdb-plugin/python-module/ompd/"
if "$DETERMINISM": config.available_features.add("determinism")
lit_config.load_config(config, "$SRC/test/lit.cfg")
CFG
cd "$O/test" || exit 2
python3 "$LIT" -v "$O/test" "$@" | tee "$O/lit.log" | grep -E '^(PASS|FAIL|UNSUPPORTED|XFAIL|XPASS):|^  [A-Z][a-z]+ *:'
rc=${PIPESTATUS[0]}
# what failed: the API tests print "Test: ..." then "Success." or "Failed ..."
for f in $(find "$O/test" -name '*.out*' | sort); do
  awk -v f="${f##*/}" '/^Testing "/ { t = $0 } /^Test:/ { q = $0 }
       /^Failed/ { sub(/\.c\.tmp\.out[0-9]*$/, "", f); print "  " f ": " t " " q " -> " $0 }' "$f"
done | sort -u
exit "$rc"
