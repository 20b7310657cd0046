#!/usr/bin/env bash
# tomp-prof report on hand-written data files (tests/prof/rep_fake.c), where every answer is
# known: a directory of two processes merged (threads named pid:index), the initial thread's
# libc start frames dropped, a worker's body cut at its exit frame and spliced under the
# creating context (whose tool and runtime frames are cut at its enter frame), a lock wait
# cut at the enter frame with its leaf, a closing-barrier wait without an exit frame, idle,
# directed and undirected blame, the region table, an unknown record type skipped, a file
# without END whose last record is cut short (said once), an unknown context, MPI ranks (a
# fake libmpi: MPI wait, a user callback as work, barrier waits blamed on the MPI call, the
# Ranks table, version order), and clear
# messages for a missing directory, an empty directory and a file that is not data.
source "$(dirname "$0")/rep_common.sh"
gcc -O2 -g -Wall -Wextra -Werror -I"$ROOT/tools/prof" "$ROOT/tests/prof/rep_fake.c" -o "$W/rep_fake"
mkdir -p "$W/d"
"$W/rep_fake" "$W/d" || fail "rep_fake"

folded "$W/d" "$W/pt" --per-thread
cat "$W/pt"
want="pid 1001 thread 0;fake_main;fake_creator;fake_leaf 10000
pid 1001 thread 1;fake_main;fake_creator;fake_body;fake_leaf 10000
pid 1001 thread 1;fake_main;fake_creator;fake_body;omp lock wait 10000
pid 1001 thread 1;fake_main;fake_creator;omp barrier wait 10000
pid 1001 thread 1;omp idle 10000
pid 1002 thread 0;fake_main;fake_creator;fake_leaf 10000
pid 1002 thread 3;[unknown context];omp runtime 10000"
[ "$(cat "$W/pt")" = "$want" ] || fail "per-thread folded stacks differ from the expected ones"
[ "$(grep -c 'cut short' "$W/pt.err")" = 1 ] || fail "the cut-short last record must be reported once"

folded "$W/d" "$W/all"
grep -qx 'fake_main;fake_creator;fake_leaf 20000' "$W/all" || fail "threads of two processes not merged"
folded "$W/d" "$W/blame" --metric blame
grep -qx 'fake_main;fake_creator;fake_body 30000' "$W/blame" || fail "directed blame (3 samples at 100 Hz)"
grep -qx 'fake_main;fake_creator;fake_body;fake_leaf 10000' "$W/blame" || fail "undirected blame (1 of 2 waiting)"
folded "$W/d" "$W/wait" --metric wait
[ "$(sum "$W/wait" '.')" = 30000 ] || fail "wait = lock + barrier + idle"

"$PROF" report "$W/d" >"$W/text" 2>/dev/null || fail "text report"
cat "$W/text"
grep -q '^tomp-prof report: ./fake arg  (pid 1001)  runtime: fake runtime 1.0' "$W/text" || fail "header"
grep -q '^4 threads, 7 samples' "$W/text" || fail "thread and sample counts"
grep -qE '^ +2 +0\.030 +1 +0\.010 +0\.020 +- +fake_creator \(rep_fake\.c:[0-9]+\) < fake_main$' "$W/text" ||
  fail "region table row"
grep -qE '^1001:1 +4 +0\.040 +0\.010 +0\.030 +75\.0% +0\.000 +0\.010 +5001$' "$W/text" || fail "thread row"

# MPI ranks (rep_fake DIR mpi): files in version order (r2 before r10), samples inside the
# fake libmpi (through code unmapped by the end) are `MPI wait`, the program's reduction
# operator called back from MPI is work, the Ranks table
mkdir -p "$W/m"
"$W/rep_fake" "$W/m" mpi || fail "rep_fake mpi"
folded "$W/m" "$W/mpt" --per-thread
cat "$W/mpt"
want="rank 0 thread 0;fake_main;libmpi.so.40+0x101f;MPI wait 20000
rank 0 thread 0;fake_main;libmpi.so.40+0x101f;fake_leaf 10000
rank 0 thread 1;fake_main;omp barrier wait 10000
rank 10 thread 0;fake_main;fake_creator;fake_leaf 10000
rank 2 thread 0;fake_main;fake_creator;fake_leaf 10000"
[ "$(cat "$W/mpt")" = "$want" ] || fail "MPI ranks: folded stacks differ from the expected ones"
folded "$W/m" "$W/mwork" --metric work
grep -q 'MPI wait' "$W/mwork" && fail "MPI wait counted as work"
# thread 1 waited at a barrier while thread 0 was inside MPI: the MPI call carries the blame
folded "$W/m" "$W/mblame" --metric blame
[ "$(cat "$W/mblame")" = "fake_main;libmpi.so.40+0x101f;MPI wait 10000" ] || { cat "$W/mblame"; fail "blame of the MPI call"; }
"$PROF" report "$W/m" >"$W/mtext" 2>/dev/null || fail "text report of the ranks"
cat "$W/mtext"
[ "$(grep -o 'rank [0-9]*)' "$W/mtext" | tr '\n' ' ')" = "rank 0) rank 2) rank 10) " ] || fail "ranks in version order"
grep -q '^MPI wait 0.020 s (33.3% of thread time)' "$W/mtext" || fail "header: MPI wait"
grep -qE '^0 +2001 +2 +0\.040 +0\.010 +0\.010 +0\.020 +50\.0% ' "$W/mtext" || fail "Ranks row of rank 0"
grep -qE '^10 +2002 +1 +0\.010 +0\.010 +0\.000 +0\.000 +0\.0% ' "$W/mtext" || fail "Ranks row of rank 10"
grep -qE '^r2:0 initial ' "$W/mtext" || fail "thread label r2:0"

# messages
"$PROF" report "$W/nothing" >/dev/null 2>"$W/e1" && fail "a missing directory must fail"
grep -q "cannot read '$W/nothing'" "$W/e1" || fail "missing directory message: $(cat "$W/e1")"
mkdir -p "$W/empty"
"$PROF" report "$W/empty" >/dev/null 2>"$W/e2" && fail "an empty directory must fail"
grep -q "no tomp-prof.\*.dat files in" "$W/e2" || fail "empty directory message: $(cat "$W/e2")"
echo "not a profile at all, just text that is long enough to be read" >"$W/bad.dat"
"$PROF" report "$W/bad.dat" >/dev/null 2>"$W/e3" && fail "a non-data file must fail"
grep -q "not a tomp-prof data file" "$W/e3" || fail "bad file message: $(cat "$W/e3")"
"$PROF" report "$W/d" --format nope >/dev/null 2>"$W/e4" && fail "an unknown format must fail"
grep -q "unknown format 'nope'" "$W/e4" || fail "unknown format message"
"$PROF" report "$W/d" --min-percent abc >/dev/null 2>"$W/e5" && fail "a bad percentage must fail"
grep -q "not a percentage" "$W/e5" || fail "bad percentage message"
echo "prof_report_fake: ok"
