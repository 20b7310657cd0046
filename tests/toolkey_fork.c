/* fork() while another thread starts and stops Collector API sessions (each START and STOP
 * rewrites the tool keys under two locks, src/collector/collector.c and src/core/toolkey.c).
 * A child has only the forking thread: had the fork come while the other thread held either
 * lock, the child would inherit it held and hang at its own first START.  Every child here
 * opens a session (closing the one it may have inherited open), sees OMP_EVENT_FORK from a
 * parallel region it runs (the keys turned on in the child), closes it and exits 0 within
 * the parent's deadline.
 * test-no-libgomp: libgomp has no __omp_collector_api
 * test-env: TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0:die_after_fork=0
 * test-timeout: 120
 * test-no-libomp: libomp 14 has no __omp_collector_api
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "collector_client.h"

enum { FORKS = 60 };

static int stop_flipping;
static long forks_seen; /* OMP_EVENT_FORK deliveries (in a child: its own) */

static void on_fork(OMP_COLLECTORAPI_EVENT e) {
  (void)e;
  __atomic_add_fetch(&forks_seen, 1, __ATOMIC_RELAXED);
}

static void *flipper(void *arg) {
  (void)arg;
  long n = 0;
  while (!__atomic_load_n(&stop_flipping, __ATOMIC_ACQUIRE)) {
    CHECK(request(OMP_REQ_START, NULL, 0) == OMP_ERRCODE_OK);
    CHECK(request(OMP_REQ_STOP, NULL, 0) == OMP_ERRCODE_OK);
    n++;
  }
  CHECK(n > 0);
  return NULL;
}

static int child(void) {
  if (request(OMP_REQ_START, NULL, 0) == OMP_ERRCODE_SEQUENCE_ERR) {
    /* forked inside the other thread's session: it is ours now */
    if (request(OMP_REQ_STOP, NULL, 0) != OMP_ERRCODE_OK) return 10;
    if (request(OMP_REQ_START, NULL, 0) != OMP_ERRCODE_OK) return 11;
  }
  __atomic_store_n(&forks_seen, 0, __ATOMIC_RELAXED);
  if (reg(OMP_EVENT_FORK, on_fork) != OMP_ERRCODE_OK) return 12;
  int n = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    n++;
  }
  if (n != 2) return 13;
  if (__atomic_load_n(&forks_seen, __ATOMIC_RELAXED) < 1) return 14;
  if (request(OMP_REQ_STOP, NULL, 0) != OMP_ERRCODE_OK) return 15;
  return 0;
}

int main(void) {
  api = (int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  CHECK(api != NULL);
  int n = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    n++;
  }
  CHECK(n == 2);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, flipper, NULL) == 0);
  for (int i = 0; i < FORKS; i++) {
    struct timespec pause = {0, 200000 + 37000 * (i % 7)}; /* land at varied points */
    nanosleep(&pause, NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) _exit(child());
    int status = 0, waited_ms = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, WNOHANG)) == 0 && waited_ms < 20000) {
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
      waited_ms++;
    }
    if (w == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      fprintf(stderr, "fork %d: the child hung (a lock inherited held?)\n", i);
      exit(1);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "fork %d: child status %#x\n", i, status);
      exit(1);
    }
  }
  __atomic_store_n(&stop_flipping, 1, __ATOMIC_RELEASE);
  CHECK(pthread_join(t, NULL) == 0);
  printf("%d forks, every child ran a session\n", FORKS);
  return 0;
}
