#!/usr/bin/env bash
# Run the test suite against a tomp build directory (default: build).
#
#   tests/run.sh [BUILD_DIR] [PATTERN]
#
# Four kinds of tests, found by their place and name (docs/testing.md):
#  - tests/*.c: self-checking programs, built once with `gcc -fopenmp`, then run on tomp
#    (LD_LIBRARY_PATH on BUILD_DIR/lib, where libgomp.so.1 is tomp, so nothing of the system
#    libgomp can be loaded) and, to validate the test itself, on the system libgomp.  A test
#    passes when it exits 0 on tomp and, unless marked, on libgomp too.
#    The same programs are also built with `clang-14 -fopenmp` (name clang_NAME; LLVM's ABI,
#    libomp.so.5 is tomp) and validated on LLVM's libomp, as are the clang-only tests of
#    the LLVM ABI's entry points, tests/kmp/*.c (name kmp_NAME).
#  - tests/ompt/NAME.c with a sibling NAME.check: OMPT tests (name ompt_NAME), run under the
#    ompt-print tool and checked with FileCheck by tests/ompt/run-test.sh, as the ompt-*
#    directives of their leading comment say.
#  - tests/prof/*.sh (but the sourced *common.sh): tomp-prof tests (name prof_NAME), scripts
#    that record the programs of tests/prof and check what tomp-prof makes of them.
#  - tests/scenarios/*.sh: scenario scripts (environment, linking modes, installation, ABI,
#    OMPT set-ups no directive can describe).
# Scripts (and run-test.sh) run with TOMP_BUILD, TEST_OUT (scratch directory) and SANLIB
# set; one that exits 77 is skipped on that build (its last output line says why).
#
# Directives of tests/*.c, on lines of the test's leading comment:
#   test-env: VAR=value ...     environment for the run
#   test-cflags: ...            extra compile flags
#   test-timeout: N             seconds (default 120)
#   test-repeat: N              run N times on tomp (default 1); every run must pass
#   test-no-libgomp: reason     do not run on libgomp (reason is printed)
#   test-libgomp-fails: reason  libgomp is known to fail it: its failure is reported, not counted
#   test-skip-tsan: reason      not run on the TSan build (a known open problem: say which)
#   test-gcc-only: reason       no clang copy (the test uses GCC-only things: say which)
#   test-no-libomp: reason      the clang copy is not run on LLVM's libomp
#   test-libomp-fails: reason   libomp is known to fail the clang copy (reported, not counted)
# TEST_LIBGOMP=0 skips the validation runs on libgomp (make check does so for the sanitizer
# builds: their test binaries are the same as the release build's).
set -u
cd "$(dirname "$0")/.."
B=${1:-build}
PAT=${2:-}
B=$(cd "$B" && pwd)
if [ ! -e "$B/lib/libgomp.so.1" ]; then echo "no tomp build in $B (run make first)"; exit 2; fi
OUT=$B/tests
mkdir -p "$OUT"
pass=0 fail=0 failed=()
TIMEOUT_DEFAULT=${TEST_TIMEOUT:-120}
VALIDATE=${TEST_LIBGOMP:-1}
# sanitizer builds: the test binaries need the sanitizer runtime loaded first
SANLIB=
case "$B" in
  *build-tsan) SANLIB=$(gcc -print-file-name=libtsan.so) ;;
  *build-asan) SANLIB="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" ;;
esac
export TSAN_OPTIONS=${TSAN_OPTIONS:-"halt_on_error=1 report_signal_unsafe=0"}
export ASAN_OPTIONS=${ASAN_OPTIONS:-"detect_leaks=0"}

directive() { sed -n "s/^[ /*]*$1:[ ]*//; T; s/[ ]*\*\/.*$//; p" "$2" | head -1; }

run_one() { # name lib-dir env... -- cmd
  local timeout=$1; shift
  local libdir=$1; shift
  local envs=$1; shift
  if [ -n "$libdir" ]; then
    env $envs LD_LIBRARY_PATH="$libdir" ${SANLIB:+LD_PRELOAD="$SANLIB"} timeout -k 5 "$timeout" "$@"
  else
    env $envs timeout -k 5 "$timeout" "$@"
  fi
}

# Build src with the compiler of abi (gcc: `gcc -fopenmp`, binding libgomp.so.1; clang:
# `clang-14 -fopenmp`, binding libomp.so.5: clang's own omp.h, tomp's include/ only for the
# headers clang lacks; -latomic: clang calls libatomic for atomics on odd-sized types), run it
# on tomp, then validate it on that ABI's own runtime.  A clang binary that needs a __kmpc_
# entry point tomp lacks is skipped with its name.
run_c_test() { # abi src
  local abi=$1 src=$2 name cc hdr libs rt nolib libfails
  name=$(basename "$src" .c)
  if [ "$abi" = clang ]; then
    local why; why=$(directive test-gcc-only "$src")
    [ -n "$why" ] && return
    case $src in tests/kmp/*) name=kmp_$name ;; *) name=clang_$name ;; esac
    cc=$CLANG; hdr="-idirafter include"; libs="-lm -latomic"; rt=libomp
    nolib=$(directive test-no-libomp "$src"); libfails=$(directive test-libomp-fails "$src")
  else
    cc=gcc; hdr=-Iinclude; libs=-lm; rt=libgomp
    nolib=$(directive test-no-libgomp "$src"); libfails=$(directive test-libgomp-fails "$src")
  fi
  [ -n "$PAT" ] && [[ "$name" != *$PAT* ]] && return
  envs=$(directive test-env "$src")
  cflags=$(directive test-cflags "$src")
  timeout=$(directive test-timeout "$src"); timeout=${timeout:-$TIMEOUT_DEFAULT}
  exe=$OUT/$name
  skiptsan=$(directive test-skip-tsan "$src")
  if [ -n "$skiptsan" ] && [[ "$B" == *build-tsan ]]; then
    echo "SKIP $name (TSan build: $skiptsan)"; return
  fi
  # shellcheck disable=SC2086
  if ! $cc -fopenmp -O2 -g -Wall $hdr $cflags "$src" -o "$exe" $libs 2>"$OUT/$name.build.log"; then
    echo "FAIL $name (build: $(head -c 300 "$OUT/$name.build.log"))"; fail=$((fail+1)); failed+=("$name"); return
  fi
  if [ "$abi" = clang ]; then
    # an LLVM entry point the front-end does not have yet: say which, and skip
    local missing
    missing=$(comm -23 <(nm -D --undefined-only "$exe" | awk '{print $2}' | grep '^__kmpc_' | sed 's/@.*//' | sort -u) "$KMP_DEFINED" | head -3 | tr '\n' ' ')
    if [ -n "$missing" ]; then echo "SKIP $name (tomp lacks ${missing% })"; return; fi
  fi
  repeat=$(directive test-repeat "$src"); repeat=${repeat:-1}
  for ((i = 1; i <= repeat; i++)); do
    run_one "$timeout" "$B/lib" "$envs" "$exe" >"$OUT/$name.tomp.log" 2>&1; rc=$?
    [ $rc -eq 0 ] || break
  done
  note=""
  if [ "$VALIDATE" = 0 ]; then
    :
  elif [ -z "$nolib" ]; then
    run_one "$timeout" "" "$envs" "$exe" >"$OUT/$name.$rt.log" 2>&1; lrc=$?
    if [ $lrc -ne 0 ]; then
      if [ -n "$libfails" ]; then note=" ($rt fails it as expected: $libfails)";
      else echo "FAIL $name (test invalid: $rt exits $lrc; see $OUT/$name.$rt.log)"; fail=$((fail+1)); failed+=("$name"); return; fi
    elif [ -n "$libfails" ]; then note=" (note: $rt now passes it)"; fi
  else
    note=" (not run on $rt: $nolib)"
  fi
  which=; [ "$repeat" -gt 1 ] && which=" on run $i of $repeat"
  if [ $rc -eq 0 ]; then echo "PASS $name$note"; pass=$((pass+1));
  else echo "FAIL $name (tomp exit $rc$which; log $OUT/$name.tomp.log)"; tail -5 "$OUT/$name.tomp.log" | sed 's/^/     /'; fail=$((fail+1)); failed+=("$name"); fi
}

for src in tests/*.c; do run_c_test gcc "$src"; done
# The clang copies (clang_NAME) and the LLVM-ABI tests of tests/kmp (kmp_NAME, clang only).
# TEST_CLANG=0 leaves them out; sanitizer builds run only tests/kmp unless TEST_CLANG=1.
CLANG=${CLANG:-clang-14}
case "$B" in *build-tsan|*build-asan) CLANG_ALL=${TEST_CLANG:-0} ;; *) CLANG_ALL=${TEST_CLANG:-1} ;; esac
if [ "${TEST_CLANG:-1}" != 0 ] && command -v "$CLANG" >/dev/null; then
  KMP_DEFINED=$OUT/kmp-defined.txt
  nm -D --defined-only "$B/libtomp.so" | awk '{print $3}' | grep '^__kmpc_' | sed 's/@.*//' | sort -u >"$KMP_DEFINED"
  [ "$CLANG_ALL" != 0 ] && for src in tests/*.c; do run_c_test clang "$src"; done
  for src in tests/kmp/*.c; do [ -e "$src" ] && run_c_test clang "$src"; done
fi

run_script() { # NAME LOG SCRIPT [ARG]: a script's exit status is the verdict (77: skipped)
  local name=$1 log=$2
  shift 2
  [ -n "$PAT" ] && [[ "$name" != *$PAT* ]] && return
  TOMP_BUILD="$B" TEST_OUT="$OUT" SANLIB="$SANLIB" timeout -k 5 600 bash "$@" >"$log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then
    echo "PASS $name"; pass=$((pass+1))
  elif [ $rc -eq 77 ]; then
    # exit 77: the test does not apply to this build (it prints why as its last line)
    echo "SKIP $name ($(tail -1 "$log"))"
  else
    echo "FAIL $name (log $log)"; tail -8 "$log" | sed 's/^/     /'; fail=$((fail+1)); failed+=("$name")
  fi
}

for src in tests/ompt/*.c; do
  [ -e "${src%.c}.check" ] || continue # the other programs there belong to scenarios
  name=ompt_$(basename "$src" .c)
  run_script "$name" "$OUT/$name.log" tests/ompt/run-test.sh "$src"
done

for src in tests/prof/*.sh; do
  case $src in *common.sh) continue ;; esac # sourced by the tests
  name=prof_$(basename "$src" .sh)
  run_script "$name" "$OUT/$name.sh.log" "$src"
done

for src in tests/scenarios/*.sh; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .sh)
  run_script "$name" "$OUT/$name.sh.log" "$src"
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
