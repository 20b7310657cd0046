#!/usr/bin/env bash
# A pool worker parked on its last team's park word and recruited into a team nested deeper
# than the team cache (such a team has no park word) can wake (another hand-over bumps the
# word it sleeps on) and start the region before its recruiter reads which word it sleeps
# on: the word is then NULL, and the recruiter woke NULL (SIGSEGV; found by review).  gdb in
# non-stop mode holds the recruiter in hand_wake for 50 ms while the other threads run on,
# which opens that window every time.  Release build only (gdb and ptrace).
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/fork_park_null
rm -rf "$W"; mkdir -p "$W"
skip() { echo "$*"; exit 77; }
case "$(basename "$B")" in build) ;; *) skip "release build only (gdb)" ;; esac
command -v gdb >/dev/null || skip "gdb is not installed (Debian: gdb)"
gdb -nx -batch -ex run --args /bin/true >"$W/ptrace.log" 2>&1
grep -q "exited normally" "$W/ptrace.log" || skip "gdb cannot run a program here: $(tail -1 "$W/ptrace.log")"
nm "$B/lib/libgomp.so.1" 2>/dev/null | grep -q ' hand_wake' || nm -D "$B/lib/libgomp.so.1" | grep -q hand_wake ||
  skip "no symbol hand_wake in $B/lib/libgomp.so.1"
gcc -fopenmp -O1 -g -x c - -o "$W/prog" <<'C' || exit 1
#include <omp.h>
#include <stdio.h>
static int sum;
static void nest(int d) {
  if (d == 8) { /* deeper than the team cache: a team without a park word */
#pragma omp parallel num_threads(3)
#pragma omp atomic
    sum++;
    return;
  }
#pragma omp parallel num_threads(1)
  nest(d + 1);
}
int main(void) {
  int want = 0;
  for (int it = 0; it < 20; it++) {
#pragma omp parallel num_threads(6)
#pragma omp atomic
    sum++;
    want += 6;
#pragma omp parallel num_threads(1) /* the 5 workers go back to the pool, parked */
    ;
    nest(0);
    want += 3;
  }
  printf("sum %d of %d\n", sum, want);
  return sum == want ? 0 : 1;
}
C
cat >"$W/cmds" <<'G'
set pagination off
set non-stop on
set breakpoint pending on
break hand_wake
commands
silent
shell sleep 0.05
continue
end
run
G
OMP_WAIT_POLICY=passive OMP_MAX_ACTIVE_LEVELS=4 LD_LIBRARY_PATH="$B/lib" \
  timeout -k 5 300 gdb -nx -batch -x "$W/cmds" "$W/prog" >"$W/gdb.log" 2>&1
if grep -q "received signal SIGSEGV" "$W/gdb.log"; then
  echo "FAIL: SIGSEGV"; grep -A8 "SIGSEGV" "$W/gdb.log" | head -20; exit 1
fi
grep -q "sum 180 of 180" "$W/gdb.log" || { echo "FAIL: no right answer"; tail -20 "$W/gdb.log"; exit 1; }
grep -q "exited normally" "$W/gdb.log" || { echo "FAIL: did not exit normally"; tail -20 "$W/gdb.log"; exit 1; }
echo "ok: $(grep -c 'Breakpoint\|hand_wake' "$W/gdb.log") breakpoint lines"
