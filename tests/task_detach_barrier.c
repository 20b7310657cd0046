/* A detached task whose event is fulfilled by a thread outside the team, after the team
 * reached the implicit barrier: the barrier must wait for it and then be released.
 * test-timeout: 20
 * test-libgomp-fails: libgomp 12 misses the wake-up and hangs in the barrier
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static int fulfilled, x;
static omp_event_handle_t published;
static int published_ok;

/* handed over under a pthread mutex, which ThreadSanitizer sees even in this
 * uninstrumented program */
static pthread_mutex_t pub_lock = PTHREAD_MUTEX_INITIALIZER;

static void publish(omp_event_handle_t ev) {
  pthread_mutex_lock(&pub_lock);
  published = ev;
  published_ok = 1;
  pthread_mutex_unlock(&pub_lock);
}

static void *fulfiller(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&pub_lock);
    int ok = published_ok;
    pthread_mutex_unlock(&pub_lock);
    if (ok) break;
    usleep(100);
  }
  usleep(20000);
  __atomic_store_n(&fulfilled, 1, __ATOMIC_SEQ_CST);
  omp_fulfill_event(published);
  return NULL;
}

int main(void) {
  pthread_t th;
  for (int rep = 0; rep < 5; rep++) {
  /* fulfilled by a pthread; only the implicit barrier waits for it */
  fulfilled = 0;
  published_ok = 0;
  CHECK(pthread_create(&th, NULL, fulfiller, NULL) == 0);
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
      omp_event_handle_t ev;
#pragma omp task detach(ev) shared(x)
      x = 3;
      publish(ev);
    }
  }
  CHECK(__atomic_load_n(&fulfilled, __ATOMIC_SEQ_CST) == 1);
  CHECK(x == 3);
  pthread_join(th, NULL);

  }
  puts("ok");
  return 0;
}
