/* fork() after parallel regions, preceded by omp_pause_resource_all(omp_pause_hard), which
 * releases the runtime's threads: the portable way, and the one libgomp needs.  Both the
 * parent and the child then run full-size regions again.
 * test-env: TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0:die_after_fork=0
 * test-timeout: 60
 * test-libomp-fails: libomp 14's forked child aborts (signal 6)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static void regions(int n, int reps) {
  for (int r = 0; r < reps; r++) {
    int count = 0;
#pragma omp parallel num_threads(n)
    {
#pragma omp atomic
      count++;
#pragma omp barrier
      if (omp_get_num_threads() != n) exit(3);
    }
    CHECK(count == n);
  }
}

int main(void) {
  for (int round = 0; round < 3; round++) {
    regions(4, 100);
    CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
      alarm(20);
      regions(4, 100);
      regions(2, 100);
      _exit(0);
    }
    regions(3, 100);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      fprintf(stderr, "child: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
              WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  /* a soft pause also leaves the runtime usable */
  CHECK(omp_pause_resource_all(omp_pause_soft) == 0);
  regions(2, 10);
  puts("ok");
  return 0;
}
