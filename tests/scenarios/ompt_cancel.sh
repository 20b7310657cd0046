# OMPT cancel events: activated by `cancel parallel`, detected by the other thread at a
# cancellable explicit barrier, the cancellable end of a loop and of sections, and a
# cancellation point (tests/ompt/cancel.c).  Whether thread 1 waits in the barrier or arrives
# after the cancel, it reports exactly one detection per region.
source "$(dirname "$0")/../ompt/common.sh"
build cancel "$ROOT/tests/ompt/cancel.c"
for i in 1 2 3 4 5; do
  OMP_CANCELLATION=true OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/cancel" > "$W/cancel.out"
  no_errors "$W/cancel.out"
  grep -q 'finalize errors=0' "$W/cancel.out"
  by_thread < "$W/cancel.out" | $FILECHECK "$ROOT/tests/ompt/cancel.check"
done
echo ok
