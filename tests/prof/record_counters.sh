#!/usr/bin/env bash
# tomp-prof record --counters / --sample-on (perf_event_open per thread), on rec_counters.c
# (page faults in touch_pages, computing in compute, sleeping in nap):
#  - software counters (they work wherever perf_event_open does, virtual machines included):
#    every sample carries page-faults and task-clock; the page faults concentrate in
#    touch_pages (at least 60% of them, and at least one per page it touched); task-clock
#    adds up to the thread CPU clock's time within 25%; the text report and pprof show them;
#    --metric page-faults ranks touch_pages first (text and folded); --metric of a counter
#    not recorded: a message;
#  - hardware counters (cycles, instructions): recorded where the CPU has them; where it
#    does not (a VM without a PMU: ENOENT) one message says so and the rest is recorded;
#  - --sample-on task-clock:N: samples every N ns of CPU time, so the sleeping nap gets
#    (almost) none while the wall-clock timer gives it about a third of the initial thread;
#    --sample-on cycles:N where the CPU has no cycles counter: a message, the timer samples;
#  - perf_event_open forbidden (tests/prof/no_perf.c: a seccomp filter answering EPERM, as a
#    container's would): one message naming perf_event_paranoid and the container, the timer
#    samples, the file says what is missing;
#  - bad values: one message each, recording goes on.
source "$(dirname "$0")/rec_common.sh"
build rec_counters -g
gcc -O2 -Wall "$ROOT/tests/prof/no_perf.c" -o "$W/no_perf" || fail "build no_perf"
export OMP_NUM_THREADS=2

# ---- software counters ----
record "$W/sw" --counters page-faults,task-clock -- "$W/rec_counters"
f=$(datafile "$W/sw")
dump "$f"
grep -q '^COUNTERS n=2 names=page-faults,task-clock sample_on=0' "$f.txt" || {
  grep '^COUNTERS' "$f.txt"; fail "the COUNTERS record should list page-faults,task-clock"; }
n=$(count "$f.txt" '$1 == "SAMPLE"')
nc=$(count "$f.txt" '$1 == "SAMPLE" && $0 ~ / counters=[0-9]+,[0-9]+ /')
echo "samples $n, with both counters $nc"
[ "$n" -gt 50 ] && [ "$n" = "$nc" ] || fail "every sample should carry both counters ($nc of $n)"
# task-clock (ns) against the thread CPU clock over the same intervals
awk '$1 == "SAMPLE" { split($0, a, " counters="); split(a[2], c, "[ ,]"); tc += c[2]
       for (i = 2; i <= NF; i++) if ($i ~ /^cpu_ns=/) cpu += substr($i, 8) }
     END { printf "task-clock %.3f s, cpu clock %.3f s\n", tc / 1e9, cpu / 1e9
           exit !(cpu > 0 && tc >= 0.75 * cpu && tc <= 1.25 * cpu) }' "$f.txt" ||
  fail "task-clock should match the CPU clock within 25%"
pages=$(sed -n 's/^pages //p' "$W/sw.out")
"$PROF" report "$W/sw" --min-percent 0 --width 160 >"$W/sw.txt" 2>"$W/sw.rep.err" || { cat "$W/sw.rep.err"; fail "report"; }
sed -n '1,12p' "$W/sw.txt"
grep -q '^counters (user space.*page-faults [0-9.e+]*, task-clock' "$W/sw.txt" || fail "no counters line in the header"
head -n 20 "$W/sw.txt" | grep -qE '^ +time +% +work +wait +cpu +blame +faults +task-clk  function' ||
  fail "the call tree should have faults and task-clk columns"
# page faults: in the call tree, touch_pages's column 7 (k, M suffixes) against the total
tofloat() { awk -v v="$1" 'BEGIN { m = 1; if (v ~ /k$/) m = 1e3; if (v ~ /M$/) m = 1e6; if (v ~ /G$/) m = 1e9
  sub(/[kMG]$/, "", v); printf "%.0f\n", v * m }'; }
tp=$(awk '/ touch_pages  \[rec_counters\.c\]$/ { print $7; exit }' "$W/sw.txt")
total=$(sed -n 's/^counters .*page-faults \([0-9.e+]*\),.*/\1/p' "$W/sw.txt")
tp=$(tofloat "$tp"); total=$(awk -v v="$total" 'BEGIN { printf "%.0f\n", v }')
echo "page faults: touch_pages $tp of $total; pages touched $pages"
[ "$tp" -ge $((total * 60 / 100)) ] || fail "touch_pages should have at least 60% of the page faults"
[ "$total" -ge "$pages" ] || fail "at least one page fault per page touched ($total < $pages)"

# --metric page-faults: the tree and the functions ranked by page faults, folded values in events
"$PROF" report "$W/sw" --metric page-faults --width 160 >"$W/pfm.txt" 2>/dev/null || fail "--metric page-faults"
grep -q '^Functions by self page-faults' "$W/pfm.txt" || fail "--metric page-faults: functions table"
first=$(awk '/^Functions by self/ { getline; getline; print $NF == "[rec_counters.c]" ? $(NF-1) : $NF; exit }' "$W/pfm.txt")
[ "$first" = touch_pages ] || fail "--metric page-faults: touch_pages should rank first ($first)"
"$PROF" report "$W/sw" --metric page-faults --format folded -o "$W/pf.folded" 2>/dev/null || fail "folded page-faults"
pf=$(awk '$1 ~ /(^|;)touch_pages$/ { s += $NF } END { print s + 0 }' "$W/pf.folded")
echo "folded page-faults at touch_pages: $pf"
[ "$pf" -ge $((total * 60 / 100)) ] || fail "folded --metric page-faults: touch_pages's own faults"
"$PROF" report "$W/sw" --metric cycles >/dev/null 2>"$W/nometric.err" && fail "--metric of a counter not recorded"
grep -q "unknown metric 'cycles' (time, work, wait, blame, cpu, page-faults, task-clock)" "$W/nometric.err" ||
  fail "no message for --metric of a counter not recorded"

# pprof: the counters are sample types
if command -v go >/dev/null; then
  "$PROF" report "$W/sw" --format pprof -o "$W/sw.pb.gz" 2>/dev/null || fail "pprof export"
  HOME=${HOME:-/tmp} go tool pprof -top -sample_index=page-faults "$W/sw.pb.gz" >"$W/pf.top" 2>&1 ||
    { cat "$W/pf.top"; fail "go tool pprof -sample_index=page-faults"; }
  sed -n '1,12p' "$W/pf.top"
  awk '$NF == "touch_pages" || $(NF-1) == "touch_pages" { found = 1 } END { exit !found }' "$W/pf.top" ||
    fail "pprof: touch_pages should be listed for page-faults"
  grep -q 'Type: page-faults' "$W/pf.top" || fail "pprof: sample type page-faults"
else
  echo "go missing: pprof part skipped"
fi

# ---- hardware counters: recorded, or one message ----
record "$W/hw" --counters cycles,instructions,task-clock -- "$W/rec_counters" 1
f=$(datafile "$W/hw")
dump "$f"
if grep -q '^COUNTERS n=3 names=cycles,instructions,task-clock' "$f.txt"; then
  echo "hardware counters available"
  "$PROF" report "$W/hw" >"$W/hw.txt" 2>/dev/null
  grep -q 'instructions per cycle' "$W/hw.txt" || fail "no instructions per cycle with cycles and instructions"
else
  grep '^COUNTERS' "$f.txt"
  grep -q "tomp-prof: counter cycles: no such counter on this CPU" "$W/hw.err" ||
    grep -q "tomp-prof: counter cycles: perf_event_open is not permitted" "$W/hw.err" ||
    fail "no message for the missing cycles counter"
  grep -q '^COUNTERS n=1 names=task-clock sample_on=0 .* note="counter cycles: ' "$f.txt" ||
    fail "the file should keep task-clock and say why cycles is missing"
  "$PROF" report "$W/hw" >"$W/hw.txt" 2>/dev/null
  grep -q '^not recorded: counter cycles: ' "$W/hw.txt" || fail "the report should say what was not recorded"
  echo "hardware counters unavailable here: message and task-clock checked"
fi

# ---- sampling on a counter's overflow ----
record "$W/timer" -- "$W/rec_counters"
record "$W/son" --sample-on task-clock:2000000 -- "$W/rec_counters"
f=$(datafile "$W/son")
dump "$f"
grep -q '^COUNTERS n=0 names= sample_on=1 sample_name=task-clock sample_period=2000000' "$f.txt" ||
  { grep '^COUNTERS' "$f.txt"; fail "the file should say it sampled on task-clock"; }
"$PROF" report "$W/son" --format folded -o "$W/son.folded" 2>/dev/null || fail "folded"
"$PROF" report "$W/timer" --format folded -o "$W/timer.folded" 2>/dev/null || fail "folded"
"$PROF" report "$W/son" >"$W/son.txt" 2>/dev/null
grep -q '^sampled every 2000000 task-clock events of each thread' "$W/son.txt" || fail "the report header should say how it sampled"
share() { awk -v re="$2" '{ v = $NF; all += v; if ($0 ~ re) hit += v } END { printf "%d\n", all ? 100 * hit / all : 0 }' "$1"; }
ns=$(share "$W/son.folded" '(^|;)nap( |;)'); nt=$(share "$W/timer.folded" '(^|;)nap( |;)')
echo "nap's share of the time: $nt% on the timer, $ns% sampling on task-clock"
[ "$nt" -ge 10 ] || fail "the timer should sample the sleeping nap ($nt%)"
[ "$ns" -le 3 ] || fail "sampling on task-clock should not sample the sleeping nap ($ns%)"
grep -q 'compute' "$W/son.folded" || fail "sampling on task-clock should see compute"
record "$W/cyc" --sample-on cycles:10000000 -- "$W/rec_counters" 1
f=$(datafile "$W/cyc")
dump "$f"
if grep -q '^COUNTERS .* sample_on=1 sample_name=cycles' "$f.txt"; then
  echo "sampling on cycles works here"
else
  grep -q "tomp-prof: sampling on cycles: .*; sampling on the timer (200 Hz) instead" "$W/cyc.err" ||
    fail "no message for sampling on cycles"
  [ "$(count "$f.txt" '$1 == "SAMPLE"')" -gt 20 ] || fail "the timer should sample instead"
  echo "sampling on cycles unavailable: message and timer fallback checked"
fi

# ---- perf_event_open forbidden (a container's seccomp profile) ----
rm -rf "$W/np"
"$W/no_perf" EPERM "$PROF" record -o "$W/np" --counters task-clock --sample-on task-clock:1000000 \
  -- "$W/rec_counters" 1 >"$W/np.out" 2>"$W/np.err" || { cat "$W/np.err"; fail "record under no_perf"; }
cat "$W/np.err"
[ -s "$W/np.err" ] && [ "$(grep -c 'perf_event_paranoid must be 2 or less' "$W/np.err")" = 2 ] ||
  fail "one message each for the counter and the sampling, naming perf_event_paranoid"
grep -q 'container needs perf_event_open allowed' "$W/np.err" || fail "the message should name containers"
f=$(datafile "$W/np")
dump "$f"
grep -q '^COUNTERS n=0 names= sample_on=0 .* note="counter task-clock: perf_event_open is not permitted' "$f.txt" ||
  fail "the file should say why the counter is missing"
[ "$(count "$f.txt" '$1 == "SAMPLE"')" -gt 20 ] || fail "the timer should sample instead"

# ---- bad values ----
record "$W/bad" --counters bogus,task-clock --sample-on cycles -- "$W/rec_counters" 1
grep -q "unknown counter 'bogus'" "$W/bad.err" || fail "no message for an unknown counter"
grep -q "TOMP_PROF_SAMPLE_ON='cycles' is not EVENT:N" "$W/bad.err" || fail "no message for --sample-on without N"
grep -q '^COUNTERS n=1 names=task-clock sample_on=0' <("$PROF" dump "$(datafile "$W/bad")") ||
  fail "task-clock should still be recorded"
echo "prof_record_counters: ok"
