#!/usr/bin/env bash
# fork() in the ways real programs use it, on tomp and (as a check of the program) on the
# system libgomp:
#   spawn   every thread of a region runs system() and popen() (fork+exec) at once
#   worker  a worker thread forks; the child, without OpenMP, execs /bin/sh and exits
#   child   tests/fork_after_parallel.c (child runs regions without any pause) on one CPU
#           and with OMP_WAIT_POLICY=passive: tomp only, libgomp hangs there
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/fork
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$W"; mkdir -p "$W"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}:die_after_fork=0"
gcc -fopenmp -O2 -x c - -o "$W/spawn" <<'C' || exit 1
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  int bad = 0;
  /* the shells we start need no sanitizer runtime (a preloaded one breaks them) */
  unsetenv("LD_PRELOAD");
  for (int round = 0; round < 5; round++) {
#pragma omp parallel num_threads(4)
    {
      char cmd[64], buf[64] = "";
      int me = omp_get_thread_num();
      snprintf(cmd, sizeof cmd, "exit %d", me + 3);
      int st = system(cmd);
      if (!WIFEXITED(st) || WEXITSTATUS(st) != me + 3) {
#pragma omp atomic write
        bad = 1;
      }
      snprintf(cmd, sizeof cmd, "echo t%d", me);
      FILE *p = popen(cmd, "r");
      if (!p || !fgets(buf, sizeof buf, p) || strncmp(buf, cmd + 5, strlen(cmd + 5)) != 0) {
#pragma omp atomic write
        bad = 2;
      }
      if (p) pclose(p);
    }
  }
  if (bad) { printf("bad %d\n", bad); return 1; }
  /* a worker forks: the child execs without touching OpenMP */
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 2) {
    pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
      _exit(99);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 7) {
#pragma omp atomic write
      bad = 3;
    }
  }
  /* and the runtime still works */
  int n = 0;
#pragma omp parallel num_threads(4)
#pragma omp atomic
  n++;
  if (bad || n != 4) { printf("bad %d n %d\n", bad, n); return 1; }
  return 0;
}
C
gcc -fopenmp -O2 "$ROOT/tests/fork_after_parallel.c" -o "$W/child" || exit 1
fails=0
run() { # name libdir cmd...: exit 0 expected
  local name=$1 lib=$2; shift 2
  if env LD_LIBRARY_PATH="$lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} timeout -k 5 60 "$@" >"$W/$name.log" 2>&1; then
    echo "ok   $name"
  else
    echo "FAIL $name (exit $?)"; tail -5 "$W/$name.log" | sed 's/^/     /'; fails=$((fails + 1))
  fi
}
SYSDIR=$W/system-lib; mkdir -p "$SYSDIR"
ln -sf "$(readlink -f "$(gcc -print-file-name=libgomp.so.1)")" "$SYSDIR/libgomp.so.1"
SANLIB_SAVE=${SANLIB:-}
SANLIB= run spawn-on-libgomp "$SYSDIR" "$W/spawn"
SANLIB=$SANLIB_SAVE
run spawn "$B/lib" "$W/spawn"
run child-one-cpu "$B/lib" taskset -c 0 "$W/child"
run child-passive "$B/lib" env OMP_WAIT_POLICY=passive "$W/child"
run child-active "$B/lib" env OMP_WAIT_POLICY=active "$W/child"
echo "fork: $fails failure(s)"
[ $fails -eq 0 ]
