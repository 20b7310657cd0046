# LLVM 14's Archer race detector as an OMPT tool on tomp, for a gcc-built program (gcc's TSan
# runtime, libgomp's ABI) and a clang-built one (clang-14 -fsanitize=thread -fopenmp, its own
# omp.h, LLVM's ABI: tomp serves it as libomp.so.5):
# (a) a race-free program using every synchronisation construct gets no race report and
#     exits 0 (Archer turns tomp's OMPT events into TSan happens-before annotations);
# (b) a program with an unprotected shared increment gets a race report.
# Also prints (without failing) what TSan alone says about (a) on tomp: the false races that
# make Archer worth having.
# A scenario, not a tests/ompt directive test: the programs run under LLVM's Archer with
# a TSan runtime instead of ompt-print, and the verdict is in TSan's reports.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOMP_BUILD=${TOMP_BUILD:-$ROOT/build}
TEST_OUT=${TEST_OUT:-$TOMP_BUILD/tests}
ARCHER=/usr/lib/llvm-14/lib/libarcher.so
if [ -n "${SANLIB:-}" ]; then echo "sanitizer build: skipped (the programs bring their own TSan)"; exit 0; fi
[ -f "$ARCHER" ] || { echo "no $ARCHER: skipped"; exit 0; }
W=$TEST_OUT/archer
mkdir -p "$W"
RACE='WARNING: ThreadSanitizer: data race'
fail=0
run() { # with_archer(0/1) prog
  local tool=; [ "$1" = 1 ] && tool=$ARCHER
  env TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66" ARCHER_OPTIONS=verbose=1 OMP_TOOL_LIBRARIES="$tool" \
    LD_LIBRARY_PATH="$TOMP_BUILD/lib" timeout -k 5 120 "$W/$2"
}
# check CC: build both programs with CC (gcc or clang) and check (a) and (b)
check() {
  local cc=$1 flags rc n p
  case $cc in
    gcc) flags="-I$ROOT/include" ;; # tomp's omp.h, as a gcc user of tomp has it
    *) flags= ;;                    # clang's own omp.h, as a clang user has it
  esac
  for p in race_free racy; do
    # shellcheck disable=SC2086
    $cc -fopenmp -fsanitize=thread -g $flags "$ROOT/tests/archer/$p.c" -o "$W/$p.$cc" ||
      { echo "FAIL: cannot build $p with $cc"; fail=1; return; }
  done
  run 1 race_free.$cc > "$W/race_free.$cc.archer.log" 2>&1; rc=$?
  grep -q 'Archer detected OpenMP application with TSan' "$W/race_free.$cc.archer.log" ||
    { echo "FAIL ($cc): Archer did not attach"; fail=1; }
  if grep -q "$RACE" "$W/race_free.$cc.archer.log"; then
    echo "FAIL ($cc): Archer reports a race in the race-free program:"; grep -A12 "$RACE" "$W/race_free.$cc.archer.log" | head -40; fail=1
  fi
  [ $rc -eq 0 ] || { echo "FAIL ($cc): race_free under Archer exits $rc"; tail -20 "$W/race_free.$cc.archer.log"; fail=1; }
  grep -q 'race_free ok' "$W/race_free.$cc.archer.log" || { echo "FAIL ($cc): race_free did not finish"; fail=1; }
  [ $fail = 0 ] && echo "$cc: race_free with Archer: no race reported, exit 0"

  run 1 racy.$cc > "$W/racy.$cc.archer.log" 2>&1; rc=$?
  if grep -q "$RACE" "$W/racy.$cc.archer.log"; then
    echo "$cc: racy with Archer: race reported (exit $rc)"
  else
    echo "FAIL ($cc): Archer missed the race in racy (exit $rc)"; tail -20 "$W/racy.$cc.archer.log"; fail=1
  fi
  grep -q 'SEGV\|Segmentation' "$W/racy.$cc.archer.log" && { echo "FAIL ($cc): racy crashed under Archer"; fail=1; }

  run 0 race_free.$cc > "$W/race_free.$cc.tsan.log" 2>&1; rc=$?
  n=$(grep -c "$RACE" "$W/race_free.$cc.tsan.log")
  echo "$cc: race_free on tomp with TSan but without Archer: $n race report(s), exit $rc (false positives Archer removes)"
}

TSANLIB=$(gcc -print-file-name=libtsan.so)
if [ -f "$TSANLIB" ]; then check gcc; else echo "gcc has no libtsan: gcc part skipped"; fi
CLANG=${CLANG:-clang-14}
if command -v "$CLANG" >/dev/null &&
  [ -n "$(ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.tsan-x86_64.a 2>/dev/null)" ]; then
  check "$CLANG"
else
  echo "no $CLANG with its TSan runtime: clang part skipped"
fi
exit $fail
