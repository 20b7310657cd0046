#!/usr/bin/env bash
# tomp-prof record: creation contexts.  Nested regions (main -> outer_region -> inner_region):
# the inner region's context has the outer region's as parent, which has the root (0); one
# context per call path however many instances (REGION totals: 10 outer, 20 inner).
# Tasks created in make_tasks and run by both threads: their samples carry the task context,
# whose parent is the region's context.
source "$(dirname "$0")/rec_common.sh"
build rec_nested
build rec_tasks

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
echo ok
