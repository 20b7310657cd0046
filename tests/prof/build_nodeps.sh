#!/usr/bin/env bash
# A fresh machine without elfutils' libdw headers (issue 18): plain `make` must still build
# libtomp and say what to install; `make prof` must fail with that message.  The headers'
# absence is simulated (PROF_DEP_HEADERS names a header that does not exist) rather than
# uninstalling libdw-dev: the compiler check the Makefile runs is the same.
source "$(dirname "$0")/common.sh" prof-build-nodeps
fail() { echo "FAIL: $*"; exit 1; }
missing="elfutils/libdw.h elfutils/tomp-test-absent.h"
msg='cannot build .*tomp-prof: elfutils/tomp-test-absent.h not found.*apt-get install libdw-dev zlib1g-dev'

# a fresh build directory: what plain `make` would do (-n: nothing is built)
make -s -C "$ROOT" -n B="$W/fresh" PROF_DEP_HEADERS="$missing" all >"$W/plan" 2>"$W/plan.err" ||
  { cat "$W/plan.err"; fail "make -n all fails without the headers"; }
grep -q "$W/fresh/libtomp.so" "$W/plan" || fail "plain make would not build libtomp.so"
grep -q -- '-ldw' "$W/plan" && fail "plain make would still link tomp-prof against libdw"
grep -q 'report/symbolize.c' "$W/plan" && fail "plain make would still compile the report"
# the real thing in the release build directory (up to date: nothing to rebuild)
make -s -C "$ROOT" PROF_DEP_HEADERS="$missing" all >"$W/all.out" 2>&1 || { cat "$W/all.out"; fail "plain make fails without the headers"; }
cat "$W/all.out"
grep -qE "$msg" "$W/all.out" || fail "plain make does not say what to install"
if make -s -C "$ROOT" PROF_DEP_HEADERS="$missing" prof >"$W/prof.out" 2>&1; then
  fail "make prof succeeds without the headers"
fi
grep -qE "$msg" "$W/prof.out" || fail "make prof does not say what to install"
# with the headers (this machine), nothing is said
make -s -C "$ROOT" all 2>&1 | grep -q 'cannot build' && fail "plain make complains with the headers installed"
echo "prof_build_nodeps: ok"
