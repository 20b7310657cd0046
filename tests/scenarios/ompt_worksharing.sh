# OMPT work and dispatch events of loops (every schedule), sections, single (with its deferred
# end), ordered, doacross, combined parallel loops and copyprivate, as ompt-print sees them;
# FileCheck on a one-thread run (deterministic), invariants on two-thread runs.
source "$(dirname "$0")/../ompt/common.sh"
build worksharing "$ROOT/tests/ompt/worksharing.c"
OMP_THREAD_LIMIT=1 OMP_SCHEDULE=guided,5 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/worksharing" > "$W/worksharing.1.out"
no_errors "$W/worksharing.1.out"
by_thread < "$W/worksharing.1.out" | grep -v sync_region_wait | $FILECHECK "$ROOT/tests/ompt/worksharing.check"
for i in 1 2 3; do
  OMP_SCHEDULE=dynamic,3 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/worksharing" > "$W/worksharing.2.out"
  no_errors "$W/worksharing.2.out"
  grep -q 'finalize errors=0' "$W/worksharing.2.out"
  # every chunk of the first loop (dynamic, 10) is dispatched exactly once, whoever takes it
  n=$(grep -E 'dispatch kind=ws_loop_chunk parallel=1 task=[0-9]+ start=[0-9]+ iterations=10$' "$W/worksharing.2.out" | awk '{print $6}' | sort -u | wc -l)
  [ "$n" -ge 10 ] || { echo "dynamic chunks: $n distinct"; exit 1; }
  # the sections are dispatched once each
  [ "$(grep -c 'dispatch kind=section' "$W/worksharing.2.out")" = 3 ] || { echo sections; exit 1; }
  # one single executor per single construct (3 singles), the other thread single_other
  [ "$(grep -c 'work_begin type=single_executor' "$W/worksharing.2.out")" = 3 ] || { echo single; exit 1; }
  [ "$(grep -c 'work_end type=single_executor' "$W/worksharing.2.out")" = 3 ] || { echo single end; exit 1; }
  [ "$(grep -c 'work_begin type=single_other' "$W/worksharing.2.out")" = 3 ] || { echo single_other; exit 1; }
done
echo ok
