/* fork() after parallel regions, with no preparation: the child (and a grandchild) must be
 * able to run parallel regions of full size, and the parent's pool keeps working.  Only the
 * forking thread exists in a child, so the runtime has to start the child with a fresh pool.
 * test-libgomp-fails: libgomp 12 hangs in the child's first region unless omp_pause_resource_all is called before fork (see fork_after_pause.c)
 * test-env: TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0:die_after_fork=0
 * test-timeout: 60
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static void regions(int n, int reps) {
  for (int r = 0; r < reps; r++) {
    int count = 0, size = 0;
#pragma omp parallel num_threads(n)
    {
#pragma omp atomic
      count++;
#pragma omp barrier
      if (omp_get_thread_num() == 0) size = omp_get_num_threads();
    }
    CHECK(count == n && size == n);
  }
}

/* Fork; the child runs body() under a watchdog and exits with its result. */
static void in_child(void (*body)(void)) {
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    alarm(10); /* a hung child dies of SIGALRM instead of hanging the test */
    body();
    _exit(0);
  }
  int st;
  CHECK(waitpid(pid, &st, 0) == pid);
  if (WIFSIGNALED(st)) fprintf(stderr, "child killed by signal %d\n", WTERMSIG(st));
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void grandchild_body(void) { regions(3, 50); }

static void child_body(void) {
  CHECK(omp_get_level() == 0);
  regions(4, 100);
  regions(2, 100);
  in_child(grandchild_body);
  regions(4, 10);
}

static void child_exits_only(void) {}

int main(void) {
  regions(4, 100);
  in_child(child_body);
  /* a child that never touches OpenMP and exits: its exit must not wait for anything */
  in_child(child_exits_only);
  regions(4, 100);
  in_child(child_body);
  regions(2, 10);
  puts("ok");
  return 0;
}
