#!/usr/bin/env bash
# tomp-prof record on tomp: a well-formed file with samples on every thread, the right OpenMP
# states (one thread computing, the other waiting in the implicit barrier), the barrier's
# waiting count seen by the working thread, unwinding through -O2 code without frame
# pointers, no lost samples; bad TOMP_PROF_HZ and -F; an MPI rank in the file name; a program
# that forks; a gcc program on the system libgomp (no OMPT: no data, said clearly).
source "$(dirname "$0")/rec_common.sh"
build rec_barrier
build rec_fork

record "$W/b" -- "$W/rec_barrier"
grep -q "tomp-prof: wrote .*tomp-prof\.[0-9]*\.dat ([0-9]* samples from 2 threads, 0 lost" "$W/b.err" ||
  fail "record did not say where the data went"
f=$(datafile "$W/b")
dump "$f"
t="$f.txt"
head -1 "$t" | grep -q '^HEADER version=2 hz=200 .*runtime="tomp' || fail "header: $(head -1 "$t")"
[ "$(count "$t" '$1 == "THREAD"')" = 2 ] || fail "expected 2 THREAD records"
s0=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 0')
s1=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 1')
echo "samples: thread 0 $s0, thread 1 $s1"
[ "$s0" -ge 20 ] && [ "$s1" -ge 20 ] || fail "too few samples per thread"
w1=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 1 && v["state"] ~ /^wait_barrier/')
[ $((w1 * 10)) -ge $((s1 * 6)) ] || fail "thread 1 should mostly wait in a barrier ($w1 of $s1)"
# thread 0 computes while thread 1 waits: its samples see 1 of 2 threads waiting
b0=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 0 && v["state"] == "work_parallel" && v["team"] == 2 && v["waiting"] == 1')
[ $((b0 * 10)) -ge $((s0 * 5)) ] || fail "thread 0 should see a waiting teammate ($b0 of $s0)"
# every sample starts at the interrupted pc
[ "$(count "$t" '$1 == "SAMPLE" && v["flags"] % 2 != 1')" = 0 ] || fail "samples without LEAF_EXACT"

# Unwinding through -O2 code: thread 0's samples in busy_work must also hold its caller,
# the outlined region body main._omp_fn.0, then main (through the runtime's frames).
exe=$W/rec_barrier
base=$(awk -v exe="$exe" '$NF == exe && $3 == "00000000" { split($1, a, "-"); print a[1]; exit }' "$t")
[ -n "$base" ] || fail "the executable is not in the MAPS record"
sym() { nm -S "$exe" | awk -v s="$1" '$4 == s { print $1, $2 }'; }
read -r bw_a bw_s < <(sym busy_work)
read -r fn_a fn_s < <(sym main._omp_fn.0)
read -r mn_a mn_s < <(sym main)
deep=$(awk -v base=$((16#$base)) -v bw=$((16#$bw_a)) -v bws=$((16#$bw_s)) -v fn=$((16#$fn_a)) -v fns=$((16#$fn_s)) \
  -v mn=$((16#$mn_a)) -v mns=$((16#$mn_s)) '
  function hex(s, i, n) { n = 0; sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
  function in_(pc, a, s) { return pc - base >= a && pc - base < a + s }
  $1 == "SAMPLE" && $2 == "thread=0" {
    fr = $NF; sub(/^frames=/, "", fr); n = split(fr, f, ",")
    split(f[1], p, "@"); if (!in_(hex(p[1]), bw, bws)) next
    seen_fn = 0; seen_main = 0
    for (i = 2; i <= n; i++) { split(f[i], p, "@"); pc = hex(p[1]) - 1
      if (in_(pc, fn, fns)) seen_fn = 1; if (in_(pc, mn, mns)) seen_main = 1 }
    if (seen_fn && seen_main) ok++; total++ }
  END { printf "%d %d\n", ok, total }' "$t")
echo "busy_work samples unwound to main._omp_fn.0 and main: $deep"
read -r ok total <<<"$deep"
[ "$total" -ge 10 ] && [ $((ok * 10)) -ge $((total * 9)) ] || fail "unwinding through -O2 code"

# a bad rate: one message naming the variable, and the default
rm -rf "$W/hz"
OMP_NUM_THREADS=2 TOMP_PROF_HZ=fast OMP_TOOL_LIBRARIES="$ROOT/build/libtomp-prof.so" TOMP_PROF_DIR="$W/hz" \
  LD_LIBRARY_PATH="$ROOT/build/lib" "$W/rec_barrier" >/dev/null 2>"$W/hz.err"
grep -q "TOMP_PROF_HZ='fast'.*using 200" "$W/hz.err" || fail "no message for TOMP_PROF_HZ=fast"
f=$(datafile "$W/hz")
dump "$f"
head -1 "$f.txt" | grep -q ' hz=200 ' || fail "bad TOMP_PROF_HZ did not fall back to 200"

# an unusable TOMP_PROF_DIR: one message naming it, the file goes to the current directory
mkdir -p "$W/cwd"
(cd "$W/cwd" && OMP_NUM_THREADS=2 TOMP_PROF_DIR=/proc/no/such/dir OMP_TOOL_LIBRARIES="$ROOT/build/libtomp-prof.so" \
  LD_LIBRARY_PATH="$ROOT/build/lib" "$W/rec_barrier" >/dev/null 2>"$W/cwd.err")
grep -q "TOMP_PROF_DIR='/proc/no/such/dir'.*current directory" "$W/cwd.err" || fail "no message for a bad TOMP_PROF_DIR"
f=$(datafile "$W/cwd")
dump "$f"

# an MPI rank in the environment names the file; record finds it
OMPI_COMM_WORLD_RANK=3 record "$W/rank" -F 100 -- "$W/rec_barrier"
f=$(datafile "$W/rank")
case $f in */tomp-prof.r3.[0-9]*.dat) ;; *) fail "rank 3 file name: $f" ;; esac
dump "$f"
head -1 "$f.txt" | grep -q ' hz=100 .* rank=3 ' || fail "header: rank 3 at 100 Hz: $(head -1 "$f.txt")"
grep -q "wrote .*tomp-prof.r3" "$W/rank.err" || fail "record did not report the rank's file"
# a bad -F is refused with a message
if "$PROF" record -F 0 -o "$W/bad" -- "$W/rec_barrier" 2>"$W/bad.err"; then fail "-F 0 accepted"; fi
grep -q "\-F '0'" "$W/bad.err" || fail "no message for -F 0"

# fork: one file (the parent's), complete
record "$W/fork" -- "$W/rec_fork"
f=$(datafile "$W/fork")
dump "$f"
pid=$(head -1 "$f.txt" | sed 's/.* pid=\([0-9]*\) .*/\1/')
[ "$f" = "$W/fork/tomp-prof.$pid.dat" ] || fail "fork: data file $f is not the parent's ($pid)"

# the system libgomp has no OMPT: no data, and a clear message
rm -rf "$W/sys"
OMP_NUM_THREADS=2 "$PROF" record --runtime system -o "$W/sys" -- "$W/rec_barrier" >/dev/null 2>"$W/sys.err" ||
  fail "record --runtime system failed"
grep -q "no data file" "$W/sys.err" || fail "no message about the missing data file"
echo ok
