#!/usr/bin/env bash
# A team far larger than the machine sleeps instead of yielding: a region of 1000 threads
# confined to one CPU (taskset; bench/oversub.c: two sums and a barrier), under a shim that
# counts sched_yield calls.  With 1000 runnable threads per CPU a yield almost never hands
# the CPU to the thread being waited for, so the yield budget shrinks with the threads per
# CPU (src/core/sync.h, tomp_spins): fewer than two yields per thread in all.  Before: 256 yields
# per wait and thread, 13,000-40,000 here (and a region of 10,000 threads on 2 CPUs took
# 18-20 s instead of 1); now about 550, by workers that parked while the team was still
# small (at most 256/k yields for the k-th: about 1500 in all).  Not on the sanitizer
# builds, whose runtimes yield too.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/oversub_sleep
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${SANLIB:-}" ]; then echo "skip: the sanitizer runtime's own yields would be counted"; exit 77; fi
rm -rf "$W"; mkdir -p "$W"
command -v taskset >/dev/null || { echo "taskset (util-linux) is missing"; exit 1; }
gcc -fopenmp -O2 "$ROOT/bench/oversub.c" -o "$W/oversub" || exit 1
gcc -O2 -fPIC -shared -x c - -o "$W/yield-count.so" <<'C' || exit 1
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
static unsigned long n;
int sched_yield(void) {
  __atomic_add_fetch(&n, 1, __ATOMIC_RELAXED);
  return (int)syscall(SYS_sched_yield);
}
__attribute__((destructor)) static void report(void) { fprintf(stderr, "yields=%lu\n", n); }
C
n=1000
if ! env LD_LIBRARY_PATH="$B/lib" LD_PRELOAD="$W/yield-count.so" \
    timeout -k 5 300 taskset -c 0 "$W/oversub" $n 1 >"$W/out" 2>"$W/err"; then
  echo "FAIL: the program failed"; cat "$W/out" "$W/err"; exit 1
fi
y=$(sed -n 's/^yields=//p' "$W/err")
cat "$W/out"
if [ -z "$y" ]; then echo "FAIL: no yield count"; cat "$W/err"; exit 1; fi
if [ "$y" -ge $((2 * n)) ]; then echo "FAIL: $y yields by a team of $n on one CPU"; exit 1; fi
echo "ok: $y yields by a team of $n on one CPU"
