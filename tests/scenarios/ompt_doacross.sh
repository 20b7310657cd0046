# OMPT for doacross loops (ordered(n) with depend(sink) / depend(source), long and unsigned
# long long): OpenMP 5.2's doacross-source / doacross-sink events as `dependences` callbacks of
# the encountering task, entries of type source / sink with the iteration vector in
# variable.value (tests/ompt/doacross.c).
source "$(dirname "$0")/../ompt/common.sh"
build doacross "$ROOT/tests/ompt/doacross.c"
OMP_NUM_THREADS=1 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/doacross" > "$W/doacross.1.out"
no_errors "$W/doacross.1.out"
grep -q 'a=3,3 b=1' "$W/doacross.1.out"
by_thread < "$W/doacross.1.out" | grep -v " dispatch " | $FILECHECK "$ROOT/tests/ompt/doacross.check"
# two threads: every source and every sink still reported once (4x2 iterations: 8 sources,
# 6 sinks; ull loop: 2 sources, 1 sink)
for i in 1 2 3; do
  OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/doacross" x > "$W/doacross.2.out"
  no_errors "$W/doacross.2.out"
  grep -q 'a=4,4 b=1' "$W/doacross.2.out"
  [ "$(grep -c 'kinds=source' "$W/doacross.2.out")" = 10 ] || exit 1
  [ "$(grep -c 'kinds=sink' "$W/doacross.2.out")" = 7 ] || exit 1
done
echo ok
