#!/usr/bin/env bash
# tomp-prof record: creation contexts.  Nested regions (main -> outer_region -> inner_region):
# the inner region's context has the outer region's as parent, which has the root (0); one
# context per call path however many instances (REGION totals: 10 outer, 20 inner).
# Tasks created in make_tasks and run by both threads: their samples carry the task context,
# whose parent is the region's context.
# Recursion (rec_recursion: 2046 tasks from two sites of a recursive function): folded into
# at most 5 contexts (the region; A, B, A then B, B then A), not one per task (2047 before).
source "$(dirname "$0")/rec_common.sh"
build rec_nested
build rec_tasks
build rec_recursion -g

record "$W/n" -- "$W/rec_nested"
f=$(datafile "$W/n")
dump "$f"
t="$f.txt"
[ "$(count "$t" '$1 == "CONTEXT"')" = 2 ] || fail "nested: expected 2 contexts (outer, inner)"
outer=$(awk '$1 == "CONTEXT" && $3 == "parent=0" && $4 == "kind=parallel" { sub(/id=/, "", $2); print $2 }' "$t")
[ -n "$outer" ] || fail "nested: no outer region context with parent 0"
inner=$(awk -v p="parent=$outer" '$1 == "CONTEXT" && $3 == p && $4 == "kind=parallel" { sub(/id=/, "", $2); print $2 }' "$t")
[ -n "$inner" ] || fail "nested: no inner region context whose parent is the outer one ($outer)"
grep -q "^REGION context=$outer instances=10 " "$t" || fail "nested: outer region should have 10 instances"
grep -q "^REGION context=$inner instances=20 " "$t" || fail "nested: inner region should have 20 instances"
# samples inside the inner regions run on 4 threads and name the inner context
[ "$(count "$t" '$1 == "THREAD"')" -ge 3 ] || fail "nested: expected at least 3 threads"
ni=$(count "$t" '$1 == "SAMPLE" && v["context"] == '"$inner"' && v["region_context"] == '"$inner")
echo "nested: outer $outer, inner $inner, $ni samples in inner regions"
[ "$ni" -ge 10 ] || fail "nested: too few samples in the inner regions"

record "$W/t" -- "$W/rec_tasks"
f=$(datafile "$W/t")
dump "$f"
t="$f.txt"
region=$(awk '$1 == "CONTEXT" && $3 == "parent=0" && $4 == "kind=parallel" { sub(/id=/, "", $2); print $2 }' "$t")
task=$(awk -v p="parent=$region" '$1 == "CONTEXT" && $3 == p && $4 == "kind=task" { sub(/id=/, "", $2); print $2 }' "$t")
[ -n "$region" ] && [ -n "$task" ] || fail "tasks: expected a task context under the region's context"
[ "$(count "$t" '$1 == "CONTEXT" && v["kind"] == "task"')" = 1 ] || fail "tasks: 64 tasks from one call path must share one context"
for th in 0 1; do
  n=$(count "$t" '$1 == "SAMPLE" && v["thread"] == '$th' && v["context"] == '"$task")
  echo "tasks: thread $th has $n samples in task context $task"
  [ "$n" -ge 3 ] || fail "tasks: thread $th has too few samples in tasks"
done

record "$W/r" -- "$W/rec_recursion"
f=$(datafile "$W/r")
dump "$f"
nc=$(count "$f.txt" '$1 == "CONTEXT"')
echo "recursion: $nc contexts for 2046 tasks"
[ "$nc" -le 5 ] || fail "recursion: expected at most 5 contexts (folded), got $nc"
"$PROF" report "$W/r" --format folded -o "$W/r.folded" 2>/dev/null || fail "report"
grep -qE '^main;.*walk;.*leaf_work' "$W/r.folded" || fail "recursion: leaf_work should sit under main;...;walk"
# folded: walk at most 3 times on a path (region body's call, then each site once), not 11
deep=$(awk '{ n = 0; k = split($1, f, ";"); for (i = 1; i <= k; i++) n += f[i] == "walk"; if (n > m) m = n }
  END { print m + 0 }' "$W/r.folded")
echo "recursion: at most $deep walk frames on a path"
[ "$deep" -ge 2 ] && [ "$deep" -le 3 ] || fail "recursion: expected 2 or 3 walk frames on the deepest path, got $deep"
echo ok
