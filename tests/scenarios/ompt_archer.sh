# LLVM 14's Archer race detector as an OMPT tool on tomp, with gcc's TSan runtime:
# (a) a race-free program using every synchronisation construct gets no race report and
#     exits 0 (Archer turns tomp's OMPT events into TSan happens-before annotations);
# (b) a program with an unprotected shared increment gets a race report.
# Also prints (without failing) what TSan alone says about (a) on tomp: the false races that
# make Archer worth having.
# A scenario, not a tests/ompt directive test: the programs run under LLVM's Archer with
# gcc's TSan runtime instead of ompt-print, and the verdict is in TSan's reports.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOMP_BUILD=${TOMP_BUILD:-$ROOT/build}
TEST_OUT=${TEST_OUT:-$TOMP_BUILD/tests}
ARCHER=/usr/lib/llvm-14/lib/libarcher.so
if [ -n "${SANLIB:-}" ]; then echo "sanitizer build: skipped (the programs bring their own TSan)"; exit 0; fi
[ -f "$ARCHER" ] || { echo "no $ARCHER: skipped"; exit 0; }
TSANLIB=$(gcc -print-file-name=libtsan.so)
[ -f "$TSANLIB" ] || { echo "gcc has no libtsan: skipped"; exit 0; }
W=$TEST_OUT/archer
mkdir -p "$W"
for p in race_free racy; do
  gcc -fopenmp -fsanitize=thread -g -I"$ROOT/include" "$ROOT/tests/archer/$p.c" -o "$W/$p" ||
    { echo "cannot build $p"; exit 1; }
done
RACE='WARNING: ThreadSanitizer: data race'
run() { # with_archer(0/1) prog
  local tool=; [ "$1" = 1 ] && tool=$ARCHER
  env TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66" ARCHER_OPTIONS=verbose=1 OMP_TOOL_LIBRARIES="$tool" \
    LD_LIBRARY_PATH="$TOMP_BUILD/lib" timeout -k 5 120 "$W/$2"
}
fail=0

run 1 race_free > "$W/race_free.archer.log" 2>&1; rc=$?
grep -q 'Archer detected OpenMP application with TSan' "$W/race_free.archer.log" ||
  { echo "FAIL: Archer did not attach"; fail=1; }
if grep -q "$RACE" "$W/race_free.archer.log"; then
  echo "FAIL: Archer reports a race in the race-free program:"; grep -A12 "$RACE" "$W/race_free.archer.log" | head -40; fail=1
fi
[ $rc -eq 0 ] || { echo "FAIL: race_free under Archer exits $rc"; tail -20 "$W/race_free.archer.log"; fail=1; }
grep -q 'race_free ok' "$W/race_free.archer.log" || { echo "FAIL: race_free did not finish"; fail=1; }
[ $fail = 0 ] && echo "race_free with Archer: no race reported, exit 0"

run 1 racy > "$W/racy.archer.log" 2>&1; rc=$?
if grep -q "$RACE" "$W/racy.archer.log"; then
  echo "racy with Archer: race reported (exit $rc)"
else
  echo "FAIL: Archer missed the race in racy (exit $rc)"; tail -20 "$W/racy.archer.log"; fail=1
fi
grep -q 'SEGV\|Segmentation' "$W/racy.archer.log" && { echo "FAIL: racy crashed under Archer"; fail=1; }

run 0 race_free > "$W/race_free.tsan.log" 2>&1; rc=$?
n=$(grep -c "$RACE" "$W/race_free.tsan.log")
echo "race_free on tomp with TSan but without Archer: $n race report(s), exit $rc (false positives Archer removes)"
exit $fail
