#!/usr/bin/env bash
# gdb and tomp's OMPD library (tools/gdb, docs/ompd.md): breakpoints and set-up.
#   ompd break task / parallel with OMP_DEBUG=enabled: gdb stops where the explicit task of
#     tests/ompd/states.c taskwait begins, and names its function (the outlined body); a
#     parallel region's begin stops on the encountering thread, where the region beginning is
#     the current one (OpenMP 5.2)
#   without OMP_DEBUG: ompd break says the breakpoint will not be hit, and it is not; the
#     other commands still work (the library is found beside the runtime)
#   a program on GCC's libgomp: a clear message, no Python error; a core file: no breakpoints
#   make install: the extension is auto-loaded beside the installed libtomp and finds
#     libtompd.so through ompd_dll_locations
source "$(dirname "$0")/../ompd/gdb_common.sh"
ompd_setup ompd_gdb_break
cd "$W"
S="$W/states"

OMP_DEBUG=enabled gdb_live break.log "$S" taskwait <<'G'
ompd break parallel
ompd break task
run
ompd-test-continue-until OpenMP task begins: explicit task
info breakpoints
kill
G
expect break.log "^OpenMP parallel region #1 begins on gdb thread 1: level 1, team of 3, taskwait_region\._omp_fn\.0 \(states\.c:[0-9]+\)" "a stop where the region begins, with the new region's team and body"
expect break.log "^OpenMP task begins: implicit task, taskwait_region\._omp_fn\.0 " "stops where the implicit tasks begin"
expect break.log "^OpenMP task begins: explicit task, taskwait_region\._omp_fn\.1 \(states\.c:[0-9]+\)" "a stop where the explicit task begins, with its outlined body"
expect break.log "hit Breakpoint 2, ompd_bp_task_begin" "gdb's breakpoint on ompd_bp_task_begin"
if grep -q "warning: OMP_DEBUG" break.log; then bad "a warning about OMP_DEBUG although it is enabled"; fi
if grep -q "Traceback" break.log; then bad "a Python error"; fi

gdb_live nodebug.log "$S" lock <<'G'
ompd break task
run
ompd threads
kill
G
expect nodebug.log "warning: OMP_DEBUG is not set in the program's environment: tomp calls ompd_bp_task_begin only with OMP_DEBUG=enabled" "the warning without OMP_DEBUG"
expect nodebug.log "received signal SIGTRAP" "the program ran to its SIGTRAP"
if grep -q "hit Breakpoint" nodebug.log; then bad "a breakpoint hit without OMP_DEBUG"; fi
expect nodebug.log "ompd_dll_locations is NULL .*looking for libtompd.so beside the runtime" "without OMP_DEBUG the library is found beside the runtime"
expect nodebug.log "wait_lock" "ompd threads without OMP_DEBUG"

# GCC's libgomp: the same binary without tomp on the library path
gdb -nx -batch -x "$ROOT/tools/gdb/tomp-ompd.py" -ex run -ex "ompd threads" -ex kill --args "$S" lock >libgomp.log 2>&1
echo "== libgomp.log"; cat libgomp.log
expect libgomp.log "ompd: this process does not run on tomp" "the message for a program on libgomp"
gdb -nx -batch -x "$ROOT/tools/gdb/tomp-ompd.py" -ex "ompd threads" "$S" >noproc.log 2>&1
expect noproc.log "ompd: no process" "the message without a process"
if grep -q "Traceback" libgomp.log noproc.log; then bad "a Python error"; fi

# a core file cannot stop anywhere
OMP_DEBUG=enabled gdb_live mkcore.log "$S" lock <<'G'
run
ompd-test-wait wait_lock=1
gcore lock.core
kill
G
gdb_core corebreak.log "$S" lock.core <<'G'
ompd break task
G
expect corebreak.log "ompd break: a core file cannot run" "ompd break on a core file"

# installed: gdb auto-loads the extension beside libtomp (a safe path allowed)
P=$W/prefix
make -C "$ROOT" --no-print-directory install PREFIX="$P" >install.log 2>&1 || { cat install.log; bad "make install"; finish; }
for f in share/tomp/gdb/tomp-ompd.py share/tomp/gdb/tomp_ompd/commands.py lib/libtomp.so-gdb.py lib/libtompd.so; do
  [ -e "$P/$f" ] || bad "make install did not install $f"
done
OMP_DEBUG=enabled LD_LIBRARY_PATH="$P/lib/tomp" timeout -k 5 120 gdb -nx -batch -iex "set pagination off" \
  -iex "add-auto-load-safe-path $P/lib" -x "$ROOT/tests/ompd/ompd_wait.py" \
  -ex run -ex "ompd-test-wait wait_lock=1" -ex "ompd info" -ex kill --args "$S" lock >installed.log 2>&1
echo "== installed.log"; cat installed.log
expect installed.log "OMPD library: $P/lib/libtompd.so" "the installed library, through ompd_dll_locations"
expect installed.log "wait_lock +0x[0-9a-f]+ \(test_lock\)" "ompd threads from the auto-loaded extension"
OMP_DEBUG=enabled LD_LIBRARY_PATH="$P/lib/tomp" timeout -k 5 120 gdb -nx -batch -iex "set pagination off" \
  -x "$P/share/tomp/gdb/tomp-ompd.py" -x "$ROOT/tests/ompd/ompd_wait.py" \
  -ex run -ex "ompd-test-wait wait_lock=1" -ex kill --args "$S" lock >sourced.log 2>&1
expect sourced.log "wait_lock +0x[0-9a-f]+ \(test_lock\)" "ompd threads from the installed script, sourced"
finish
