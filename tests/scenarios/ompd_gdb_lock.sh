#!/usr/bin/env bash
# gdb and tomp's OMPD library (tools/gdb, docs/ompd.md) on a thread blocked in omp_set_lock
# while another holds the lock (tests/ompd/states.c lock): live, then on the core gdb writes
# (gcore) and on the one the kernel writes when the process is killed (SIGABRT); live on a
# stripped libtomp too.
#   ompd threads: the waiter is in state wait_lock with wait id = &test_lock, named
#   ompd bt (the waiter): omp_set_lock's frames left out, the outlined body, then the call
#   path on the thread that created the region: lock_region, main
#   ompd parallel, ompd tasks: the region of 2 and its implicit tasks (live only)
source "$(dirname "$0")/../ompd/gdb_common.sh"
ompd_setup ompd_gdb_lock
cd "$W"
ulimit -c unlimited 2>/dev/null

check_threads() { # LOG WHAT
  lock=$(sed -n 's/^test_lock at 0x//p' live.log)
  [ -n "$lock" ] || bad "$2: no address of test_lock"
  expect "$1" "^ +[0-9]+ +[0-9]+ .*wait_lock +0x0*$lock \(test_lock\)" "$2: a thread in wait_lock on test_lock (0x$lock)"
  expect "$1" "^\* +1 .*work_parallel" "$2: thread 1 (holding the lock) in work_parallel"
}
check_bt() { # LOG WHAT
  expect "$1" "^#0 +lock_region\._omp_fn\.[0-9]+ \(.*\) at .*states\.c" "$2: bt starts in the outlined body"
  expect "$1" "OpenMP runtime: omp_set_lock" "$2: bt names the runtime entry it is in"
  expect "$1" "OpenMP runtime: GOMP_parallel\]" "$2: bt leaves out GOMP_parallel on the creating thread"
  expect "$1" "parallel region #1 was created on gdb thread 1, in:" "$2: bt continues on the thread that created the region"
  expect "$1" "^#[0-9]+ +lock_region \(.*\) at .*states\.c" "$2: then lock_region"
  expect "$1" "^#[0-9]+ +main \(.*\) at .*states\.c" "$2: then main"
  if grep -E '^#.*\]$' "$1" | grep -Eq 'GOMP_|tomp_|omp_set_lock'; then bad "$2: runtime frames in ompd bt"; fi
}

OMP_DEBUG=enabled gdb_live live.log "$W/states" lock <<'G'
run
ompd-test-wait wait_lock=1
python gdb.write("test_lock at 0x%x\n" % int(gdb.parse_and_eval("&test_lock")))
thread 2
ompd bt
thread 1
ompd parallel
ompd tasks
gcore gcore.core
signal SIGABRT
G
check_threads live.log live
check_bt live.log live
expect live.log "^parallel region #1: level 1, team of 2, lock_region\._omp_fn\.[0-9]+ \(states\.c:[0-9]+\)" "ompd parallel: the region"
expect live.log "^  thread 1: gdb thread 2 \(LWP [0-9]+\), wait_lock 0x[0-9a-f]+ \(test_lock\)" "ompd parallel: its thread 1"
expect live.log "^gdb thread 2 \(LWP [0-9]+\), thread 1 of region #1, wait_lock:" "ompd tasks: thread 2"
expect live.log "^  task [0-9]+: implicit, running, lock_region\._omp_fn\.[0-9]+ " "ompd tasks: the implicit task"
[ -s gcore.core ] || bad "gcore wrote no core file"

gdb_core gcore.log "$W/states" gcore.core <<'G'
ompd threads
thread 2
ompd bt
G
check_threads gcore.log gcore
check_bt gcore.log gcore

# a stripped libtomp (only its dynamic symbols): the same from the extension
mkdir -p stripped
strip --strip-all -o stripped/libgomp.so.1 "$B/libtomp.so"
cp "$B/libtompd.so" stripped/
OMP_DEBUG=enabled LD_LIBRARY_PATH="$W/stripped" timeout -k 5 240 gdb "${GDB_INIT[@]}" \
  -ex run -ex "ompd-test-wait wait_lock=1" -ex "ompd info" -ex "thread 2" -ex "ompd bt" -ex kill \
  --args "$W/states" lock >stripped.log 2>&1
echo "== stripped.log"; cat stripped.log
expect stripped.log "OMPD library: $W/stripped/libtompd.so" "stripped: the library beside the runtime"
expect stripped.log "wait_lock +0x[0-9a-f]+ \(test_lock\)" "stripped: the waiting thread"
expect stripped.log "OpenMP runtime: omp_set_lock" "stripped: bt leaves out the runtime"
expect stripped.log "^#[0-9]+ +main \(.*\) at .*states\.c" "stripped: bt reaches main"
# ... and without OMP_DEBUG (no task frames): the runtime's frames left out by library, the
# library being the one that defines ompd_dll_locations_valid, whatever its name
LD_LIBRARY_PATH="$W/stripped" timeout -k 5 240 gdb "${GDB_INIT[@]}" \
  -ex run -ex "ompd-test-wait wait_lock=1" -ex "thread 2" -ex "ompd bt" -ex kill \
  --args "$W/states" lock >stripped-nodebug.log 2>&1
echo "== stripped-nodebug.log"; cat stripped-nodebug.log
expect stripped-nodebug.log "no task frames .*runtime frames left out by library" "stripped, no OMP_DEBUG: bt says how it works"
expect stripped-nodebug.log "^#0 +lock_region\._omp_fn\.[0-9]+ \(.*\) at .*states\.c" "stripped, no OMP_DEBUG: bt starts in the outlined body"
if grep -E '^#.*\]$' stripped-nodebug.log | grep -Eq '\?\?|libgomp|syscall'; then bad "stripped, no OMP_DEBUG: runtime frames in ompd bt"; fi

core=$(kernel_core "$W")
if [ -n "$core" ]; then
  gdb_core kcore.log "$W/states" "$core" <<'G'
ompd threads
thread 2
ompd bt
G
  check_threads kcore.log "kernel core"
  check_bt kcore.log "kernel core"
fi
finish
