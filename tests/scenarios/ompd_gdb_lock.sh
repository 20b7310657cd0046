#!/usr/bin/env bash
# gdb and tomp's OMPD library (tools/gdb, docs/ompd.md) on a thread blocked in omp_set_lock
# while another holds the lock (tests/ompd/states.c lock): live, then on the core gdb writes
# (gcore) and on the one the kernel writes when the process is killed (SIGABRT).
#   ompd threads: the waiter is in state wait_lock with wait id = &test_lock, named
#   ompd bt (the waiter): omp_set_lock's frames left out, the outlined body, then main
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
  expect "$1" "^#0 +lock_region\._omp_fn\.[0-9]+ \(\) at .*states\.c" "$2: bt starts in the outlined body"
  expect "$1" "OpenMP runtime: omp_set_lock" "$2: bt names the runtime entry it is in"
  expect "$1" "parallel region #1 was created by task .* on gdb thread 1" "$2: bt continues on the thread that created the region"
  expect "$1" "^#[0-9]+ +lock_region \(\) at .*states\.c" "$2: then lock_region"
  expect "$1" "^#[0-9]+ +main \(\) at .*states\.c" "$2: then main"
  if grep -E '^#' "$1" | grep -Eq 'GOMP_|tomp_|omp_set_lock'; then bad "$2: runtime frames in ompd bt"; fi
}

OMP_DEBUG=enabled gdb_live live.log "$W/states" lock <<'G'
run
ompd-test-wait wait_lock=1
python gdb.write("test_lock at 0x%x\n" % int(gdb.parse_and_eval("&test_lock")))
thread 2
ompd bt
thread 1
gcore gcore.core
signal SIGABRT
G
check_threads live.log live
#BT check_bt live.log live
[ -s gcore.core ] || bad "gcore wrote no core file"

gdb_core gcore.log "$W/states" gcore.core <<'G'
ompd threads
thread 2
ompd bt
G
check_threads gcore.log gcore
#BT check_bt gcore.log gcore

core=$(kernel_core "$W")
if [ -z "$core" ]; then
  echo "note: the kernel wrote no core file here (core_pattern $(cat /proc/sys/kernel/core_pattern)); kernel core not checked"
else
  gdb_core kcore.log "$W/states" "$core" <<'G'
ompd threads
thread 2
ompd bt
G
  check_threads kcore.log "kernel core"
  #BT check_bt kcore.log "kernel core"
fi
finish
