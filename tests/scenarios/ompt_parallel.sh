# OMPT events of parallel regions (plain, barrier, nested, if(0), num_threads, barrier outside
# a region) as ompt-print sees them on tomp, checked with FileCheck; the tool also checks its
# invariants (pairing, nesting, thread/task/parallel data identity, states, frames).
source "$(dirname "$0")/../ompt/common.sh"
build parallel "$ROOT/tests/ompt/parallel.c"
OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/parallel" > "$W/parallel.out"
no_errors "$W/parallel.out"
by_thread < "$W/parallel.out" | $FILECHECK "$ROOT/tests/ompt/parallel.check"
# workers report thread_end before the finalizer runs, the initial thread's last
grep -E '^[0-9]+: (thread_end|finalize)' "$W/parallel.out" | tail -2 | head -1 | grep -q '^1: thread_end'
grep -E '^[0-9]+: (thread_end|finalize)' "$W/parallel.out" | tail -1 | grep -q 'finalize errors=0'
# repeat: invariants only
for i in 1 2 3 4 5; do
  OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/parallel" > "$W/parallel.$i.out"
  no_errors "$W/parallel.$i.out"
done
echo ok
# a thread the program creates is an initial thread with its own initial task, ended at exit
build initial_threads "$ROOT/tests/ompt/initial_threads.c" -lpthread
OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/initial_threads" > "$W/initial_threads.out"
no_errors "$W/initial_threads.out"
by_thread < "$W/initial_threads.out" | $FILECHECK --check-prefix=THR "$ROOT/tests/ompt/parallel.check"
echo ok
