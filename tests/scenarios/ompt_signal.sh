# Async-signal safety: per-thread SIGPROF timers at 20 kHz call every OMPT inquiry entry
# point from the handler while parallel regions, barriers and nested regions run.
source "$(dirname "$0")/../ompt/common.sh"
build signal "$ROOT/tests/ompt/signal.c" -lrt
for i in 1 2; do
  timeout -k 5 60 env LD_LIBRARY_PATH="$TOMP_BUILD/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$W/signal"
done
echo ok
