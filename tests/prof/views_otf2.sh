#!/usr/bin/env bash
# tomp-prof report --format otf2, read by its real reader, otf2-print (Debian otf2-tools):
# rep_taskblame (a parallel region, one long and 36 short tasks on 4 threads) recorded with
# --trace.  Known: 4 locations; on each, every ENTER has its LEAVE in nested order; the
# region `omp parallel @ rep_taskblame.c:LINE in main` is entered once, the tasks
# `omp task @ rep_taskblame.c:LINE in main` 37 times; the OpenMP events: one THREAD_FORK and
# one THREAD_JOIN, 4 THREAD_TEAM_BEGIN/END, 37 THREAD_TASK_CREATE, each of those tasks
# completed once (THREAD_TASK_COMPLETE) and switched to where it ran (THREAD_TASK_SWITCH names
# only created tasks or an implicit task, generation 0).  rec_lock (a lock and a critical
# section taken 8 times each by 2 threads, a nest lock once per thread): THREAD_ACQUIRE_LOCK
# and THREAD_RELEASE_LOCK per lock with acquisition orders 1..n (8, 8, 2).  A recording
# without --trace gives an empty archive and says so; -o is required.
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
# OpenMP events: fork/join, thread teams, task creation, switches and completion
ev() { grep -c "^$1 " "$W/print.txt" || true; }
echo "fork $(ev THREAD_FORK) join $(ev THREAD_JOIN) team $(ev THREAD_TEAM_BEGIN)/$(ev THREAD_TEAM_END)" \
  "task create $(ev THREAD_TASK_CREATE) switch $(ev THREAD_TASK_SWITCH) complete $(ev THREAD_TASK_COMPLETE)"
[ "$(ev THREAD_FORK)" = 1 ] && [ "$(ev THREAD_JOIN)" = 1 ] || fail "one THREAD_FORK and one THREAD_JOIN"
[ "$(ev THREAD_TEAM_BEGIN)" = 4 ] && [ "$(ev THREAD_TEAM_END)" = 4 ] || fail "4 THREAD_TEAM_BEGIN/END"
[ "$(ev THREAD_TASK_CREATE)" = 37 ] || fail "37 THREAD_TASK_CREATE"
task_ids() { grep "^$1 " "$W/print.txt" | sed -n 's/.*Creating Thread: \([0-9]*\) .*Generation Number: \([0-9]*\)$/\1:\2/p' | sort; }
task_ids THREAD_TASK_CREATE >"$W/created"
task_ids THREAD_TASK_COMPLETE >"$W/completed"
task_ids THREAD_TASK_SWITCH | sort -u | grep -v ':0$' >"$W/switched" || true
[ "$(sort -u "$W/created" | wc -l)" = 37 ] || fail "task identities should be unique"
cmp -s "$W/created" "$W/completed" || fail "every created task completes once"
cmp -s "$W/created" "$W/switched" || fail "task switches should name the created tasks (and implicit tasks)"
# locks: rec_lock
gcc -fopenmp -O2 -g -Wall "$ROOT/tests/prof/rec_lock.c" -o "$W/rec_lock" || fail "build rec_lock"
OMP_NUM_THREADS=2 record "$W/l" --trace -- "$W/rec_lock"
"$PROF" report "$W/l" --format otf2 -o "$W/otf2l" 2>/dev/null || fail "report --format otf2 (rec_lock)"
otf2-print "$W/otf2l/traces.otf2" >"$W/lock.txt" 2>&1 || fail "otf2-print cannot read the lock archive"
locks=$(awk '$1 == "THREAD_ACQUIRE_LOCK" || $1 == "THREAD_RELEASE_LOCK" {
       l = $0; sub(/.*Lock: /, "", l); sub(/,.*/, "", l); o = $NF
       if ($1 == "THREAD_ACQUIRE_LOCK") { acq[l, o]++; n[l]++ } else rel[l, o]++ }
     END { bad = 0
       for (l in n) { for (o = 1; o <= n[l]; o++) if (acq[l, o] != 1 || rel[l, o] != 1) bad = 1
                      out = out " " n[l] }
       print (bad ? "BAD" : "OK") out }' "$W/lock.txt")
echo "locks: $locks"
[ "$(tr ' ' '\n' <<<"${locks#OK }" | sort -n | tr '\n' ' ')" = "2 8 8 " ] && [[ $locks == OK* ]] ||
  fail "each lock: acquisitions and releases with orders 1..n (want 2, 8 and 8)"
# without --trace: an empty archive and a message; without -o: a message
record "$W/n" -- "$W/rep_taskblame"
"$PROF" report "$W/n" --format otf2 -o "$W/otf2n" >"$W/n.log" 2>&1 || { cat "$W/n.log"; fail "otf2 of a recording without --trace"; }
grep -q 'record with --trace' "$W/n.log" || fail "no message for a recording without --trace"
otf2-print "$W/otf2n/traces.otf2" >/dev/null 2>&1 || fail "otf2-print cannot read the empty archive"
"$PROF" report "$W/t" --format otf2 >"$W/o.log" 2>&1 && fail "--format otf2 without -o succeeded"
grep -q 'give it with -o DIR' "$W/o.log" || fail "no message for --format otf2 without -o"
echo "prof_views_otf2: ok"
