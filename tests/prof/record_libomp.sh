#!/usr/bin/env bash
# tomp-prof record on LLVM's libomp: clang -fopenmp programs, recorded with --runtime libomp.
# The same checks as on tomp where libomp behaves alike: samples on every thread, barrier
# waits on the idle thread, nested contexts chain, task contexts, lock-wait blame, paired
# trace events.  (libomp 14 reports the implicit barrier as wait_barrier_explicit.)
source "$(dirname "$0")/rec_common.sh"
LIBOMP=/usr/lib/llvm-14/lib/libomp.so.5
command -v clang >/dev/null && [ -e "$LIBOMP" ] || { echo "clang or $LIBOMP (libomp-14-dev) missing"; exit 77; }
cbuild() { clang -fopenmp -O2 "$ROOT/tests/prof/$1.c" -o "$W/$1"; }
for p in rec_barrier rec_nested rec_tasks rec_lock; do cbuild $p; done
ldd "$W/rec_barrier" | grep -q 'libomp' || fail "clang did not link libomp"

record "$W/b" --runtime libomp -- "$W/rec_barrier"
f=$(datafile "$W/b")
dump "$f"
t="$f.txt"
head -1 "$t" | grep -q 'runtime="LLVM' || fail "not recorded on libomp: $(head -1 "$t")"
s1=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 1')
w1=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 1 && v["state"] ~ /^wait_barrier/')
s0=$(count "$t" '$1 == "SAMPLE" && v["thread"] == 0')
echo "libomp barrier: thread 0 $s0 samples, thread 1 $s1 ($w1 waiting)"
[ "$s0" -ge 20 ] && [ "$s1" -ge 20 ] || fail "too few samples per thread"
[ $((w1 * 10)) -ge $((s1 * 6)) ] || fail "thread 1 should mostly wait in a barrier"

record "$W/n" --runtime libomp -- "$W/rec_nested"
f=$(datafile "$W/n")
dump "$f"
# clang unrolls main's loop: each call site of outer_region is its own path; every inner
# region context must have an outer one (parent 0) as parent
chain=$(awk '$1 == "CONTEXT" { sub(/id=/, "", $2); sub(/parent=/, "", $3); parent[$2] = $3 }
  END { for (c in parent) { p = parent[c]; if (p != 0) { inner++; if ((p in parent) && parent[p] == 0) good++ } }
        print inner + 0, good + 0 }' "$f.txt")
read -r inner good <<<"$chain"
echo "libomp nested: $inner inner contexts, $good chained to an outer region"
[ "$inner" -ge 1 ] && [ "$inner" = "$good" ] || fail "inner region contexts do not chain"

record "$W/t" --runtime libomp --trace -- "$W/rec_tasks"
f=$(datafile "$W/t")
dump "$f"
task=$(awk '$1 == "CONTEXT" && $4 == "kind=task" { sub(/id=/, "", $2); print $2 }' "$f.txt")
[ -n "$task" ] || fail "no task context"
n=$(count "$f.txt" '$1 == "SAMPLE" && v["context"] == '"$task")
echo "libomp tasks: $n samples in task context $task"
# rec_tasks' task work is ~0.1 s of 200 Hz samples; under load (CI, other builds) as few as 3
# were seen (2026-11-25, load 6), so the bar is "more than a stray sample", not a rate.
[ "$n" -ge 2 ] || fail "too few samples in tasks"
n=$(count "$f.txt" '$1 == "EVENT" && v["kind"] == "task" && v["phase"] == "begin"')
m=$(count "$f.txt" '$1 == "EVENT" && v["kind"] == "task" && v["phase"] == "end"')
[ "$n" = 64 ] && [ "$m" = 64 ] || fail "expected 64 task begin/end events, got $n/$m"

record "$W/l" --runtime libomp -- "$W/rec_lock"
f=$(datafile "$W/l")
dump "$f"
w=$(count "$f.txt" '$1 == "SAMPLE" && v["state"] ~ /^wait_(lock|critical)$/')
b=$(awk '$1 == "BLAME" { sub(/samples=/, "", $6); n += $6 } END { print n + 0 }' "$f.txt")
echo "libomp locks: $w wait samples, $b blamed"
[ "$w" -ge 8 ] && [ "$b" -ge 1 ] && [ "$b" -le "$w" ] || fail "lock blame on libomp"
echo ok
