#!/usr/bin/env bash
# tomp-prof report --format otf2, read by its real reader, otf2-print (Debian otf2-tools):
# rep_taskblame (a parallel region, one long and 36 short tasks on 4 threads) recorded with
# --trace.  Known: 4 locations; on each, every ENTER has its LEAVE in nested order; the
# region `omp parallel @ rep_taskblame.c:LINE in main` is entered once, the tasks
# `omp task @ rep_taskblame.c:LINE in main` 37 times; a recording without --trace gives an
# empty archive and says so; -o is required.
source "$(dirname "$0")/rep_common.sh"
command -v otf2-print >/dev/null || { echo "otf2-print missing (Debian otf2-tools)"; exit 77; }
gcc -fopenmp -O2 -g -Wall "$ROOT/tests/prof/rep_taskblame.c" -o "$W/rep_taskblame" || fail "build"
record "$W/t" --trace -- "$W/rep_taskblame"
if ! "$PROF" report "$W/t" --format otf2 -o "$W/otf2" >"$W/export.log" 2>&1; then
  cat "$W/export.log"
  grep -q 'built without OTF2' "$W/export.log" && { echo "tomp-prof built without libotf2-trace-dev"; exit 77; }
  fail "report --format otf2"
fi
otf2-print "$W/otf2/traces.otf2" >"$W/print.txt" 2>&1 || { tail "$W/print.txt"; fail "otf2-print cannot read the archive"; }
head -20 "$W/print.txt"
# per location: LEAVE closes the innermost open ENTER of the same region
awk '$1 == "ENTER" || $1 == "LEAVE" {
       loc = $2; r = $0; sub(/.*Region: /, "", r)
       if ($1 == "ENTER") { st[loc, ++d[loc]] = r; n++ ; locs[loc] = 1 }
       else if (d[loc] > 0 && st[loc, d[loc]] == r) d[loc]--
       else { print "bad LEAVE on location " loc ": " r; bad = 1 } }
     END { for (l in d) if (d[l]) { print "location " l " leaves " d[l] " regions open"; bad = 1 }
           nl = 0; for (l in locs) nl++
           print n " ENTER records on " nl " locations"; exit bad }' "$W/print.txt" >"$W/nest.txt" ||
  { cat "$W/nest.txt"; fail "ENTER/LEAVE do not nest"; }
cat "$W/nest.txt"
grep -q ' on 4 locations$' "$W/nest.txt" || fail "expected 4 locations"
pline=$(grep -n '#pragma omp parallel' "$ROOT/tests/prof/rep_taskblame.c" | head -1 | cut -d: -f1)
np=$(grep -cE "^ENTER .*Region: \"omp parallel @ rep_taskblame\\.c:($((pline - 1))|$pline|$((pline + 1))) in main\"" "$W/print.txt")
nt=$(grep -cE '^ENTER .*Region: "omp task @ rep_taskblame\.c:[0-9]+ in main"' "$W/print.txt")
echo "parallel region entered $np times, tasks $nt times"
[ "$np" = 1 ] || fail "the parallel region should be entered once ($np)"
[ "$nt" = 37 ] || fail "37 tasks should be entered ($nt)"
# without --trace: an empty archive and a message; without -o: a message
record "$W/n" -- "$W/rep_taskblame"
"$PROF" report "$W/n" --format otf2 -o "$W/otf2n" >"$W/n.log" 2>&1 || { cat "$W/n.log"; fail "otf2 of a recording without --trace"; }
grep -q 'record with --trace' "$W/n.log" || fail "no message for a recording without --trace"
otf2-print "$W/otf2n/traces.otf2" >/dev/null 2>&1 || fail "otf2-print cannot read the empty archive"
"$PROF" report "$W/t" --format otf2 >"$W/o.log" 2>&1 && fail "--format otf2 without -o succeeded"
grep -q 'give it with -o DIR' "$W/o.log" || fail "no message for --format otf2 without -o"
echo "prof_views_otf2: ok"
