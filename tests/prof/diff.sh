#!/usr/bin/env bash
# tomp-prof diff A B, read in a terminal (its reader): rep_spin recorded with a spinning
# (OMP_WAIT_POLICY=active) and a sleeping (passive) barrier wait.  Known: the same functions
# and paths on both sides, so a recording against itself changes nothing; active -> passive
# leaves the barrier wait's time alone (the work decides it) and lowers its CPU time; a path
# only in B is marked new; bad arguments get a message and status 2.
source "$(dirname "$0")/rep_common.sh"
gcc -fopenmp -O2 -g -Wall "$ROOT/tests/prof/rep_spin.c" -o "$W/rep_spin" || fail "build rep_spin"
gcc -fopenmp -O2 -g -Wall "$ROOT/tests/prof/rep_imbalance.c" -o "$W/rep_imbalance" || fail "build rep_imbalance"
OMP_WAIT_POLICY=active record "$W/a" -- "$W/rep_spin"
OMP_WAIT_POLICY=passive record "$W/b" -- "$W/rep_spin"
record "$W/c" -- "$W/rep_imbalance"

"$PROF" diff "$W/a" "$W/a" >"$W/aa.txt" 2>&1 || { cat "$W/aa.txt"; fail "diff A A"; }
cat "$W/aa.txt"
grep -q '^thread time A [0-9.]* s, B [0-9.]* s (+0.000 s); work +0.000 s, wait +0.000 s' "$W/aa.txt" ||
  fail "a recording against itself should not change"
awk '/^ +[0-9]/ && $3 != "+0.000" { bad = 1 } END { exit bad }' "$W/aa.txt" || fail "diff A A lists a change"
grep -qE '^ +[0-9.]+ +[0-9.]+ +\+0\.000 +\+0\.0% .*  omp barrier wait$' "$W/aa.txt" || fail "diff A A lacks the barrier wait"

"$PROF" diff "$W/a" "$W/b" --metric cpu >"$W/ab.txt" 2>&1 || { cat "$W/ab.txt"; fail "diff A B"; }
cat "$W/ab.txt"
# the barrier wait row of the functions table: its cpu change (7th column) is negative
row=$(sed -n '/^Functions/,/^Call paths/p' "$W/ab.txt" | grep '  omp barrier wait$' | head -1)
[ -n "$row" ] || fail "diff A B lacks the barrier wait"
awk '{ exit !($7 < 0) }' <<<"$row" || fail "the barrier wait's CPU time should drop from spinning to sleeping: $row"

"$PROF" diff "$W/a" "$W/c" >"$W/ac.txt" 2>&1 || { cat "$W/ac.txt"; fail "diff A C"; }
grep -qE ' new .*heavy_rows$' "$W/ac.txt" || { cat "$W/ac.txt"; fail "a function only in B should be marked new"; }

"$PROF" diff "$W/a" >"$W/one.txt" 2>&1 && fail "diff with one recording succeeded"
grep -q 'give two recordings' "$W/one.txt" || fail "diff with one recording: no message"
"$PROF" diff "$W/a" "$W/b" --metric speed >"$W/m.txt" 2>&1 && fail "diff --metric speed succeeded"
grep -q "unknown metric 'speed'" "$W/m.txt" || fail "diff --metric speed: no message"
echo "prof_diff: ok"
