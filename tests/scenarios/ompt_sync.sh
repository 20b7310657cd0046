# OMPT mutex events: critical (unnamed, named), locks and nest locks (set, test, nesting scope
# events, hinted init, destroy), atomic through GOMP_atomic_start; pairing per wait_id is
# checked by ompt-print on two-thread runs.
source "$(dirname "$0")/../ompt/common.sh"
# omp_init_nest_lock_with_hint is missing from gcc 12's libgomp: link against tomp
build sync "$ROOT/tests/ompt/sync.c" "$TOMP_BUILD/lib/libgomp.so.1"
OMP_THREAD_LIMIT=1 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/sync" > "$W/sync.1.out"
no_errors "$W/sync.1.out"
by_thread < "$W/sync.1.out" | $FILECHECK "$ROOT/tests/ompt/sync.check"
for i in 1 2 3 4 5; do
  OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/sync" > "$W/sync.2.out"
  no_errors "$W/sync.2.out"
  grep -q 'finalize errors=0' "$W/sync.2.out"
  [ "$(grep -c 'mutex_acquired kind=critical' "$W/sync.2.out")" = 4 ] || exit 1
  [ "$(grep -c 'mutex_released kind=atomic' "$W/sync.2.out")" = 2 ] || exit 1
done
echo ok
