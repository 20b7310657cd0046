/* omp_fulfill_event called by a thread the runtime does not know (a plain pthread): the
 * detached task completes there and its dependent task is released from that thread, so it
 * must be queued where the team finds it (not on a deque of the caller, which has none).
 * test-cflags: -pthread
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* handed over under a pthread mutex (a sanitizer sees it; the program is not instrumented) */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static omp_event_handle_t event;
static int pending, stop;

static void *fulfiller(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&mu);
    int quit = stop, go = pending;
    omp_event_handle_t ev = event;
    pending = 0;
    pthread_mutex_unlock(&mu);
    if (quit) break;
    if (go) omp_fulfill_event(ev);
    usleep(100);
  }
  return NULL;
}

int main(void) {
  pthread_t th;
  CHECK(pthread_create(&th, NULL, fulfiller, NULL) == 0);
  for (int rep = 0; rep < 20; rep++) {
    int dep = 0, first = 0, second = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
      omp_event_handle_t ev;
#pragma omp task depend(out : dep) detach(ev) shared(first)
      {
        first = 1;
        pthread_mutex_lock(&mu);
        event = ev;
        pending = 1;
        pthread_mutex_unlock(&mu);
      }
#pragma omp task depend(in : dep) shared(first, second)
      second = first + 1;
    }
    CHECK(first == 1 && second == 2);
  }
  pthread_mutex_lock(&mu);
  stop = 1;
  pthread_mutex_unlock(&mu);
  pthread_join(th, NULL);
  printf("ok\n");
  return 0;
}
