# The end of a tool's life with busy threads: no callback in flight or started after the tool's
# finalize; every thread that got thread_begin gets exactly one thread_end before it, made on
# the finalizing thread for threads that cannot (busy in a region, exit() elsewhere).  Modes of
# tests/ompt/finalize.c; the tool (tests/ompt/finalize_tool.c) naps inside worker callbacks.
# A scenario, not a tests/ompt directive test: the tool is tests/ompt/finalize_tool.c (built
# here, with TSan on the TSan build), and in one mode the program must not finish.
source "$(dirname "$0")/../ompt/common.sh"
FT=$W/libfinalize-tool.so
TSANF=; case "${SANLIB:-}" in *tsan*) TSANF=-fsanitize=thread ;; esac # the tool's state races too
gcc -O1 -g -Wall -Wextra -Werror $TSANF -shared -fPIC -I"$ROOT/include" "$ROOT/tests/ompt/finalize_tool.c" -o "$FT"
build finalize "$ROOT/tests/ompt/finalize.c" -L"$TOMP_BUILD/lib"
fail() { echo "FAIL: $*"; exit 1; }
for i in 1 2 3; do
  for mode in region exit main; do
    out=$W/finalize.$mode.out
    OMP_TOOL_LIBRARIES=$FT timeout 60 env LD_LIBRARY_PATH="$TOMP_BUILD/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} \
      "$W/finalize" $mode > "$out" || fail "$mode: exit status $?"
    no_errors "$out"
    grep -qE '^finalize begun=[0-9]+ ended=[0-9]+$' "$out" || fail "$mode: no finalize line"
    [ "$(grep -c '^finalize ' "$out")" = 1 ] || fail "$mode: finalize not once"
    case $mode in
      exit) ! grep -q '^end' "$out" || fail "exit: the program went on" ;;
      *) grep -q '^end' "$out" || fail "$mode: the program did not finish" ;;
    esac
  done
done
cat "$W"/finalize.*.out | grep '^finalize'
echo ok
