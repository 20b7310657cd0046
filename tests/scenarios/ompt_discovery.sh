# Tool discovery and lifecycle: OMP_TOOL, OMP_TOOL_LIBRARIES (missing entry, library without
# ompt_start_tool, one returning NULL, then the tool), OMP_TOOL_VERBOSE_INIT, initialize
# returning 0, a tool in an -rdynamic executable, in LD_PRELOAD, in a library loaded after
# tomp, omp_control_tool results, ompt_finalize_tool and silence afterwards.
# A scenario, not a tests/ompt directive test: each of the eleven set-ups needs its own tool
# libraries, builds, link order or loader environment, and checks stderr, a log file or the
# exit of omp_control_tool rather than ompt-print's events.
source "$(dirname "$0")/../ompt/common.sh"
build discovery "$ROOT/tests/ompt/discovery.c" -L"$TOMP_BUILD/lib"
P=$W/discovery
echo 'int not_a_tool;' > "$W/notool.c"
gcc -shared -fPIC "$W/notool.c" -o "$W/libnotool.so"
printf '%s\n' '#include <stddef.h>' 'void *ompt_start_tool(unsigned v, const char *r);' \
  'void *ompt_start_tool(unsigned v, const char *r) { (void)v; (void)r; return NULL; }' > "$W/nulltool.c"
gcc -shared -fPIC "$W/nulltool.c" -o "$W/libnulltool.so"
fail() { echo "FAIL: $*"; exit 1; }
tool_lines() { grep -cE '^[0-9]+: ' "$1" || true; }

# 1. no tool anywhere: control_tool says notool (-2)
on_tomp "$P" > "$W/d1.out" 2> "$W/d1.err"
grep -q 'control_tool(start)=-2' "$W/d1.out" || fail "no tool: notool expected"
[ "$(tool_lines "$W/d1.out")" = 0 ] || fail "no tool: tool output"
[ ! -s "$W/d1.err" ] || fail "no tool: unexpected messages: $(cat "$W/d1.err")"

# 2. OMP_TOOL=disabled: the libraries are not even opened
OMP_TOOL=disabled OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > "$W/d2.out"
[ "$(tool_lines "$W/d2.out")" = 0 ] || fail "OMP_TOOL=disabled: tool ran"
grep -q 'control_tool(start)=-2' "$W/d2.out" || fail "disabled: notool expected"
OMP_TOOL=' Enabled ' OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > "$W/d2b.out"
grep -q '^1: thread_begin' "$W/d2b.out" || fail "OMP_TOOL=' Enabled ': tool not started"

# 3. a bad OMP_TOOL value: one clear warning, tool support off
OMP_TOOL=maybe OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > "$W/d3.out" 2> "$W/d3.err"
[ "$(grep -c 'OMP_TOOL' "$W/d3.err")" = 1 ] || fail "bad OMP_TOOL: expected one warning, got: $(cat "$W/d3.err")"
grep -q "tomp: OMP_TOOL='maybe'" "$W/d3.err" || fail "bad OMP_TOOL: warning does not name the value"
[ "$(tool_lines "$W/d3.out")" = 0 ] || fail "bad OMP_TOOL: tool ran"

# 4. search order through OMP_TOOL_LIBRARIES, logged to stderr
OMP_TOOL_VERBOSE_INIT=stderr OMP_TOOL_LIBRARIES=/nonexistent/libx.so:$W/libnotool.so:$W/libnulltool.so:$TOOL \
  on_tomp "$P" > "$W/d4.out" 2> "$W/d4.err"
no_errors "$W/d4.out"
$FILECHECK --check-prefix=VERBOSE "$ROOT/tests/ompt/discovery-scenario.check" < "$W/d4.err"
grep -q 'control_tool(start)=0' "$W/d4.out" || fail "control_tool with a tool: 0 expected"
grep -q 'control_tool(100,5)=5' "$W/d4.out" || fail "control_tool: the tool's result is not returned"
grep -qE '^1: control_tool command=1 modifier=0 arg=null codeptr=main' "$W/d4.out" || fail "control_tool event"

# 5. verbose log to a file; stdout logging
rm -f "$W/verbose.log"
OMP_TOOL_VERBOSE_INIT=$W/verbose.log OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > /dev/null
grep -q 'Tool was started and is using the OMPT interface' "$W/verbose.log" || fail "verbose log file"
OMP_TOOL_VERBOSE_INIT=stdout on_tomp "$P" > "$W/d5.out"
grep -q 'No OMP tool loaded' "$W/d5.out" || fail "verbose stdout"

# 6. initialize returns 0: no event, no finalize, omp_control_tool says notool
OMPT_PRINT_INIT_RESULT=0 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > "$W/d6.out"
grep -q '^0: initialize returns 0' "$W/d6.out" || fail "init 0: tool not initialized"
[ "$(tool_lines "$W/d6.out")" = "$(grep -cE '^0: ' "$W/d6.out")" ] || fail "init 0: events after initialize returned 0"
grep -q 'control_tool(start)=-2' "$W/d6.out" || fail "init 0: notool expected"

# 7. the tool has no control_tool callback: nocallback (-1)
OMPT_PRINT_NO_CONTROL=1 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > "$W/d7.out"
grep -q 'control_tool(start)=-1' "$W/d7.out" || fail "nocallback expected"

# 8. a tool defined in the executable, exported with -rdynamic
build discovery_exe "$ROOT/tests/ompt/discovery.c" "$ROOT/tools/ompt-print/ompt-print.c" -ldl -L"$TOMP_BUILD/lib"
on_tomp "$W/discovery_exe" > "$W/d8.out"
no_errors "$W/d8.out"
grep -q '^1: parallel_begin' "$W/d8.out" || fail "tool in executable not found"

# 9. a tool in LD_PRELOAD
LD_PRELOAD="${SANLIB:+$SANLIB }$TOOL" LD_LIBRARY_PATH="$TOMP_BUILD/lib" "$P" > "$W/d9.out"
no_errors "$W/d9.out"
grep -q '^1: parallel_begin' "$W/d9.out" || fail "LD_PRELOAD tool not found"

# 10. a tool library the executable links after the runtime (found through RTLD_NEXT)
gcc -fopenmp -O1 -rdynamic -I"$ROOT/include" "$ROOT/tests/ompt/discovery.c" -o "$W/discovery_after" \
  -L"$TOMP_BUILD/lib" -lgomp -Wl,--no-as-needed "$TOOL" -Wl,-rpath,"$W"
[ "$(readelf -d "$W/discovery_after" | grep NEEDED | grep -n 'libgomp\|ompt-print' | head -1 | grep -c libgomp)" = 1 ] \
  || fail "link order: libgomp is not before the tool"
on_tomp "$W/discovery_after" > "$W/d10.out"
no_errors "$W/d10.out"
grep -q '^1: parallel_begin' "$W/d10.out" || fail "tool linked after the runtime not found"

# 11. ompt_finalize_tool (from the control_tool callback): finalize once, then silence
DISCOVERY_END=1 OMPT_PRINT_FINALIZE_ON_END=1 OMP_TOOL_LIBRARIES=$TOOL on_tomp "$P" > "$W/d11.out"
no_errors "$W/d11.out"
$FILECHECK --check-prefix=FINI "$ROOT/tests/ompt/discovery-scenario.check" < "$W/d11.out"
[ "$(grep -c 'finalize errors' "$W/d11.out")" = 1 ] || fail "finalize not exactly once"
echo ok
