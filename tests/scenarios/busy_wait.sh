#!/usr/bin/env bash
# Waiting on a busy machine (src/core/wait.c): tomp reads how many threads are runnable from
# /proc/loadavg; more than the CPUs (or than tomp's own threads awake, when those outnumber
# the CPUs) means a yield would hand the CPU to another program for a whole time slice, so a
# wait then sleeps instead of yielding.  This runs tests/scenarios/busy_wait.c under a shim
# that serves /proc/loadavg from a file the program rewrites (busy or idle at will, whatever
# the machine's real load) and counts each thread's sched_yield and futex-wait calls.
# The program runs on one CPU (taskset), so its 2 threads are oversubscribed and yield when
# the machine is otherwise idle.  Checked: idle, a wait for a partner that is not running yields; busy, it does not yield
# and sleeps (before wait.c it yielded 128 times: failed), and short regions stay correct;
# OMP_WAIT_POLICY=active waits as on an idle machine.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/busy_wait
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v taskset >/dev/null || { echo "taskset (util-linux) is missing"; exit 1; }
rm -rf "$W"; mkdir -p "$W"
gcc -fopenmp -O2 -Wall -Wextra "$ROOT/tests/scenarios/busy_wait.c" -o "$W/busy_wait" -ldl || exit 1
gcc -O2 -Wall -Wextra -fPIC -shared -x c - -o "$W/shim.so" -ldl <<'C' || exit 1
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>
static __thread unsigned long yields, sleeps;
unsigned long shim_my_yields(void) { return yields; }
unsigned long shim_my_sleeps(void) { return sleeps; }
int sched_yield(void) {
  yields++;
  return (int)syscall(SYS_sched_yield);
}
long syscall(long n, ...) {
  static long (*real)(long, ...);
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  va_list ap;
  va_start(ap, n);
  long a[6];
  for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
  va_end(ap);
  if (n == SYS_futex && (a[1] & FUTEX_CMD_MASK) == FUTEX_WAIT) sleeps++;
  return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
int open(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  va_list ap;
  va_start(ap, flags);
  int mode = va_arg(ap, int);
  va_end(ap);
  const char *fake = getenv("BUSY_LOADAVG");
  if (fake && strcmp(path, "/proc/loadavg") == 0) path = fake;
  return real(path, flags, mode);
}
C
rc=0
for mode in default active; do
  pol=() && [ $mode = active ] && pol=(OMP_WAIT_POLICY=active)
  if env LD_LIBRARY_PATH="$B/lib" LD_PRELOAD="${SANLIB:+$SANLIB }$W/shim.so" OMP_NUM_THREADS=2 \
      BUSY_LOADAVG="$W/loadavg" "${pol[@]}" timeout -k 5 120 taskset -c 0 "$W/busy_wait" $mode >"$W/$mode.out" 2>&1; then
    cat "$W/$mode.out"
  else
    echo "FAIL: busy_wait $mode"; cat "$W/$mode.out"; rc=1
  fi
done
exit $rc
