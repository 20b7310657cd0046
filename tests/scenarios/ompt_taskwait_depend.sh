# OMPT for `taskwait depend(...)`: the as-if included task of OpenMP 5.1/5.2 (task_create with
# ompt_task_taskwait | undeferred | mergeable, dependences, task_dependence from the pending
# predecessor, taskwait sync region, task_schedule(taskwait_complete)); tests/ompt/taskwait_depend.c.
source "$(dirname "$0")/../ompt/common.sh"
build taskwait_depend "$ROOT/tests/ompt/taskwait_depend.c"
OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/taskwait_depend" > "$W/taskwait_depend.out"
no_errors "$W/taskwait_depend.out"
grep -q 'finalize errors=0' "$W/taskwait_depend.out"
grep -q 'done a=1' "$W/taskwait_depend.out"
by_thread < "$W/taskwait_depend.out" | $FILECHECK "$ROOT/tests/ompt/taskwait_depend.check"
# two threads: the predecessor may run on the other thread; the taskwait task still completes
for i in 1 2 3; do
  OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/taskwait_depend" > "$W/taskwait_depend.2.out"
  no_errors "$W/taskwait_depend.2.out"
  [ "$(grep -c 'status=taskwait_complete' "$W/taskwait_depend.2.out")" = 2 ] || exit 1
done
echo ok
