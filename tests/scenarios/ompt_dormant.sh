# A tool that registers no callback and looks up nothing that reads runtime records stays
# attached with the tool path off, and turns it on when it asks for more (at initialize or
# later).  tests/ompt/dormant.c, its tool in the executable; validated on LLVM's libomp too.
# A scenario, not a tests/ompt directive test: the tool under test is the program itself
# (no ompt-print), each mode's OMP_TOOL_VERBOSE_INIT log is checked, and the same binary is
# validated on LLVM's libomp.
source "$(dirname "$0")/../ompt/common.sh"
build dormant "$ROOT/tests/ompt/dormant.c" -ldl
fail() { echo "FAIL: $*"; exit 1; }
run_mode() { # RUNTIME MODE -- runs and checks one mode
  local rt=$1 mode=$2 out=$W/dormant.$1.$2.out
  if [ "$rt" = tomp ]; then
    on_tomp DORMANT_MODE=$mode OMP_TOOL_VERBOSE_INIT=$W/dormant.$mode.log timeout 60 "$W/dormant" >"$out" ||
      { cat "$out"; fail "$rt $mode: exit status"; }
  else
    DORMANT_MODE=$mode LD_PRELOAD=/usr/lib/llvm-14/lib/libomp.so.5 timeout 60 "$W/dormant" >"$out" ||
      { cat "$out"; fail "$rt $mode: exit status"; }
  fi
  no_errors "$out"
  grep -qx "ok $mode" "$out" || fail "$rt $mode: no ok line"
  [ "$(grep -cx finalize "$out")" = 1 ] || fail "$rt $mode: finalize not run exactly once"
  echo "$rt $mode: ok"
}
for mode in none late info chunk; do run_mode tomp $mode; done
grep -q 'tool path off' "$W/dormant.none.log" || fail "none: the log does not say the tool path is off"
grep -q 'tool path off' "$W/dormant.info.log" && fail "info: tool path off despite get_task_info"
if [ -e /usr/lib/llvm-14/lib/libomp.so.5 ] && [ -z "${SANLIB:-}" ]; then
  for mode in none late info chunk; do run_mode libomp $mode; done
fi
echo ok
