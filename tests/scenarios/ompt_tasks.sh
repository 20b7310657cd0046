# OMPT task events: create/schedule/complete, undeferred, final, dependences, taskwait,
# taskgroup, taskloop (work + chunk dispatch), detach (early and late fulfill), cancel
# taskgroup, task reduction, error directive.  FileCheck on a one-thread run; on two threads
# ompt-print checks that every explicit task completes exactly once, waits nest, etc.
source "$(dirname "$0")/../ompt/common.sh"
build tasks "$ROOT/tests/ompt/tasks.c"
OMP_CANCELLATION=true OMP_THREAD_LIMIT=1 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/tasks" > "$W/tasks.1.out" 2>/dev/null
no_errors "$W/tasks.1.out"
by_thread < "$W/tasks.1.out" | $FILECHECK "$ROOT/tests/ompt/tasks.check"
late=0
for i in 1 2 3 4 5 6 7 8; do
  OMP_CANCELLATION=true OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/tasks" > "$W/tasks.2.out" 2>/dev/null
  no_errors "$W/tasks.2.out"
  grep -q 'finalize errors=0' "$W/tasks.2.out"
  # each detachable task: early_fulfill then complete, or detach then late_fulfill
  [ "$(grep -cE 'status=(early_fulfill|late_fulfill)' "$W/tasks.2.out")" = 2 ] || { echo fulfill; exit 1; }
  [ "$(grep -c 'status=detach ' "$W/tasks.2.out")" = "$(grep -c 'status=late_fulfill' "$W/tasks.2.out")" ] || { echo detach; exit 1; }
  late=$((late + $(grep -c 'status=late_fulfill' "$W/tasks.2.out" || true)))
done
echo "ok (late fulfills seen: $late)"
