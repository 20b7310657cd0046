#!/usr/bin/env bash
# docs/ompd.md's walk-through, run: two threads that take two locks in opposite orders
# (tests/ompd/deadlock.c) hang; gdb with tomp's OMPD library shows why, live and from the
# core the kernel writes when the hung process is aborted:
#   ompd threads: both threads in wait_lock, one on lock_a, the other on lock_b
#   ompd bt (each): move() with its arguments (which lock it holds, which it wants), the
#   outlined body, and main below (for the worker: continued on the thread that created
#   the region); no runtime frame
source "$(dirname "$0")/../ompd/gdb_common.sh"
ompd_setup ompd_gdb_deadlock
cd "$W"
P="$W/deadlock"

check() { # LOG WHAT
  expect "$1" "^[* ] +[0-9]+ +[0-9]+ +#1 +1 +[01] +wait_lock +0x[0-9a-f]+ \(lock_a\)" "$2: a thread waits for lock_a"
  expect "$1" "^[* ] +[0-9]+ +[0-9]+ +#1 +1 +[01] +wait_lock +0x[0-9a-f]+ \(lock_b\)" "$2: a thread waits for lock_b"
  expect "$1" "^#0 +move \(from_lock=0x[0-9a-f]+ <lock_a>, .*to_lock=0x[0-9a-f]+ <lock_b>.*\) at .*deadlock\.c:[0-9]+" "$2: bt of thread 0: move from A to B"
  expect "$1" "^#0 +move \(from_lock=0x[0-9a-f]+ <lock_b>, .*to_lock=0x[0-9a-f]+ <lock_a>.*\) at .*deadlock\.c:[0-9]+" "$2: bt of thread 1: move from B to A"
  [ "$(grep -Ec '^#[0-9]+ +main \(.*\) at .*deadlock\.c' "$1")" = 2 ] || bad "$2: both bts end in main"
  expect "$1" "parallel region #1 was created on gdb thread [0-9]+, in:" "$2: the worker's bt continues on thread 1"
  if grep -E '^#.*\]$' "$1" | grep -Eq 'tomp_|GOMP_|omp_set_lock|worker_main|syscall'; then bad "$2: runtime frames in ompd bt"; fi
}
OMP_DEBUG=enabled gdb_live live.log "$P" trap <<'G'
run
ompd-test-wait wait_lock=2
ompd-test-bt-all
kill
G
check live.log live

ulimit -c unlimited 2>/dev/null
OMP_DEBUG=enabled LD_LIBRARY_PATH="$B/lib" timeout -k 5 120 "$P" abort >run.log 2>&1
echo "deadlock abort: exit $?"
core=$(kernel_core "$W")
if [ -n "$core" ]; then
  gdb_core kcore.log "$P" "$core" <<'G'
ompd threads
ompd-test-bt-all
G
  check kcore.log "kernel core"
  grep -Eq '^\* ' kcore.log && bad "kernel core: the selected thread (the watchdog that aborted) is no OpenMP thread"
fi
finish
