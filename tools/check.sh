#!/usr/bin/env bash
# make check: build the release, TSan and ASan+UBSan variants of tomp and run the whole test
# suite (tests/run.sh) on each, then print one combined "N passed, N failed" line.
# On a fresh Debian 12 machine it first installs the Debian packages the tests use (when run
# as root; otherwise it says what is missing and carries on).
#   tools/check.sh [PATTERN]      PATTERN as for tests/run.sh
#   CHECK_VARIANTS="release tsan" tools/check.sh     a subset of the variants
set -u
cd "$(dirname "$0")/.."
PAT=${1:-}
VARIANTS=${CHECK_VARIANTS:-release tsan asan}
LOGDIR=build/check
# gcc-12 brings the sanitizer runtimes (libtsan2, libasan8, libubsan1) through libgcc-12-dev;
# binutils: objdump, readelf; pkgconf: the install scenario; gfortran: Fortran entry points;
# g++: header checks in C++; llvm-14-tools (FileCheck) and libomp-14-dev (LLVM's libomp and
# omp-tools.h): the OMPT tests and scenarios; util-linux: taskset, setpriv; libdw-dev, zlib1g-dev:
# tomp-prof; libotf2-trace-dev, otf2-tools: tomp-prof's OTF2 traces and otf2-print; passwd
# (useradd): scenarios/setuid.sh; clang-14, libclang-rt-14-dev (libFuzzer): scenarios/fuzz.sh
# and the clang-built tests; gdb (with its Python): the OMPD gdb tests; openmpi-bin,
# libopenmpi-dev: tomp-prof's MPI + OpenMP test (mpicc, mpirun); chromium: tomp-prof's views
# and HTML report.
DEBS="gcc g++ make binutils libc-bin util-linux pkgconf gfortran libtsan2 libasan8 libubsan1
      llvm-14-tools libomp-14-dev libdw-dev zlib1g-dev golang-go chromium libotf2-trace-dev
      otf2-tools passwd clang-14 libclang-rt-14-dev gdb openmpi-bin libopenmpi-dev"

source tools/debs.sh
# shellcheck disable=SC2086
need_debs check 0 $DEBS

mkdir -p "$LOGDIR"
tp=0 tf=0 summary=()
for v in $VARIANTS; do
  case $v in
    release) san=; dir=build; val=1 ;;
    tsan) san=tsan; dir=build-tsan; val=0 ;;
    asan) san=asan; dir=build-asan; val=0 ;;
    *) echo "check: unknown variant $v"; exit 2 ;;
  esac
  echo "== $v: make SAN=$san"
  start=$(date +%s)
  if ! make -j2 SAN=$san >"$LOGDIR/$v.build.log" 2>&1; then
    tail -20 "$LOGDIR/$v.build.log"
    echo "FAIL build ($v; log $LOGDIR/$v.build.log)"
    tf=$((tf + 1)); summary+=("$v: build failed"); continue
  fi
  [ $val = 0 ] && note=" (no validation runs on libgomp)" || note=
  echo "== $v: tests/run.sh $dir${PAT:+ $PAT}$note"
  TEST_LIBGOMP=$val tests/run.sh "$dir" $PAT 2>&1 | tee "$LOGDIR/$v.tests.log"
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOGDIR/$v.tests.log" | tail -1)
  if [ -z "$last" ]; then
    echo "FAIL tests/run.sh $dir printed no result"; tf=$((tf + 1)); summary+=("$v: no result"); continue
  fi
  p=${last%% passed*}; f=${last#*, }; f=${f%% failed*}
  tp=$((tp + p)); tf=$((tf + f))
  summary+=("$v: $p passed, $f failed ($(( $(date +%s) - start ))s)")
done
echo "== summary"
for s in "${summary[@]}"; do echo "  $s"; done
echo "$tp passed, $tf failed"
[ "$tf" -eq 0 ] && [ "$tp" -gt 0 ]
