#!/usr/bin/env bash
# CPU time per sample (cputime.c): each thread's context-switch records give the CPU time of
# each sample's interval without a system call in the handler.  rec_cputime (a computing
# thread, one computing 2 ms and sleeping 3 ms in turn, one mostly asleep) is recorded with
# the task-clock counter read in every sample as the reference:
#  - TOMP_PROF_CPU=1 (default): the records serve every thread (TOMP_PROF_STATS says so);
#    each sample's CPU time is within 100 us or 10% of its task-clock (all but 2% of them),
#    none unknown, not more than its interval (+ 50 us); the same on one CPU (taskset:
#    threads preempted);
#  - TOMP_PROF_CPU=clock (the clock read per sample): none unknown, not more than its
#    interval, the total within 25% of task-clock's (the thread clock leaves out interrupt
#    time, which task-clock and the switch records count: under a load average of 475 on one
#    CPU, 123 of 528 samples were 13% under their task-clock);
#  - threads that block and wake in a tight loop (`rec_cputime barriers`, passive waits):
#    they go over to the clock (more than 4 switches per sample: the records would cost more
#    than the clock read), every sample keeps its CPU time;
#  - perf_event_open forbidden (no_perf: a container's seccomp filter): the clock serves,
#    every sample still has its CPU time;
#  - a bad TOMP_PROF_CPU: one message, the default.
source "$(dirname "$0")/rec_common.sh"
build rec_cputime
gcc -O2 -Wall "$ROOT/tests/prof/no_perf.c" -o "$W/no_perf" || fail "build no_perf"
export OMP_NUM_THREADS=3 TOMP_PROF_STATS=1
# check FILE STRICT: every sample's cpu_ns against its task-clock (the first counter), when
# it has one: per sample (STRICT=1) or in total
check() {
  awk -v strict="$2" '$1 == "SAMPLE" { c = ""; k = ""; iv = 0
         for (i = 2; i <= NF; i++) {
           if ($i ~ /^cpu_ns=/) c = substr($i, 8)
           if ($i ~ /^counters=/) { k = substr($i, 10); sub(/,.*/, "", k) }
           if ($i ~ /^interval_ns=/) iv = substr($i, 13) + 0 }
         n++
         if (c == "" || c == "18446744073709551615") { unk++; next }
         c += 0
         if (c > iv + 50000) { over++; if (over <= 3) print "cpu " c " ns > interval " iv " ns" }
         if (k == "") next
         tc += c; tk += k; d = c - k; if (d < 0) d = -d
         if (d > 100000 && d > 0.1 * k) { off++; if (strict && off <= 3) print "cpu " c " ns, task-clock " k " ns" } }
       END { printf "%d samples: %d unknown, %d over their interval, %d off their task-clock; cpu %.3f s, task-clock %.3f s\n", n, unk, over, off, tc / 1e9, tk / 1e9
             exit !(n >= 50 && !unk && !over && (strict ? off <= 0.02 * n : tc >= 0.75 * tk && tc <= 1.25 * tk)) }' "$1"
}
for mode in 1 clock; do
  for cpus in all one; do
    d=$W/$mode.$cpus
    if [ $cpus = one ]; then
      TOMP_PROF_CPU=$mode record "$d" --counters task-clock -- taskset -c 0 "$W/rec_cputime"
    else
      TOMP_PROF_CPU=$mode record "$d" --counters task-clock -- "$W/rec_cputime"
    fi
    f=$(datafile "$d")
    "$PROF" dump "$f" >"$f.txt" || fail "dump"
    grep -q '^COUNTERS n=1 names=task-clock' "$f.txt" || { echo "no task-clock counter here: not checked"; exit 77; }
    want="on 3 of 3 threads"
    [ $mode = clock ] && want="on 0 of 3 threads"
    grep -q "context-switch records $want" "$d.err" || fail "TOMP_PROF_CPU=$mode: the stats should say 'context-switch records $want'"
    strict=1
    [ $mode = clock ] && strict=0
    check "$f.txt" $strict || fail "TOMP_PROF_CPU=$mode ($cpus CPUs): CPU time per sample"
  done
done
# blocking in a tight loop: over to the clock
OMP_WAIT_POLICY=passive record "$W/bar" -- "$W/rec_cputime" barriers
grep -qE 'context-switch records on 3 of 3 threads.*; [1-3] of them went over to the clock' "$W/bar.err" ||
  fail "threads blocking in barriers should go over to the clock"
f=$(datafile "$W/bar")
"$PROF" dump "$f" >"$f.txt" || fail "dump"
check "$f.txt" 0 || fail "barriers: CPU time per sample"
# perf_event_open forbidden: the clock serves
rm -rf "$W/np"
"$W/no_perf" EPERM "$PROF" record -o "$W/np" -- "$W/rec_cputime" >"$W/np.out" 2>"$W/np.err" ||
  { cat "$W/np.err"; fail "record under no_perf"; }
cat "$W/np.err"
grep -q 'context-switch records on 0 of 3 threads' "$W/np.err" || fail "no_perf: the clock should serve every thread"
f=$(datafile "$W/np")
"$PROF" dump "$f" >"$f.txt" || fail "dump"
check "$f.txt" 0 || fail "no_perf: CPU time per sample"
# a bad value
TOMP_PROF_CPU=fast record "$W/bad" -- "$W/rec_cputime"
grep -q "TOMP_PROF_CPU='fast' is not 1, clock or 0; using 1" "$W/bad.err" || fail "no message for TOMP_PROF_CPU=fast"
echo "prof_record_cputime: ok"
