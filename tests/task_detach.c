/* detach + omp_fulfill_event: a detached task completes only when its body has finished
 * and its event is fulfilled; dependents, taskwait, taskgroup and the barrier wait for
 * that.  Fulfilled from another task, from a thread the program created, and from the
 * body itself (before it ends); an undeferred detached task blocks its encountering task.
 * test-libomp-fails: libomp 14 does not wait for the fulfilment of an if(0) detached task
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static int fulfilled, body_done, x;
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
  /* fulfilled by another task; the dependent waits for the fulfilment */
  for (int rep = 0; rep < 20; rep++) {
    fulfilled = body_done = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp masked
      {
        omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : x) shared(body_done, x)
        {
          x = 1;
          __atomic_store_n(&body_done, 1, __ATOMIC_SEQ_CST);
        }
#pragma omp task depend(in : x) shared(fulfilled, x)
        {
          CHECK(__atomic_load_n(&fulfilled, __ATOMIC_SEQ_CST) == 1);
          CHECK(x == 1);
        }
#pragma omp task firstprivate(ev) shared(fulfilled, body_done)
        {
          while (!__atomic_load_n(&body_done, __ATOMIC_SEQ_CST)) {
          }
          __atomic_store_n(&fulfilled, 1, __ATOMIC_SEQ_CST);
          omp_fulfill_event(ev);
        }
#pragma omp taskwait
        CHECK(fulfilled == 1);
      }
    }
  }

  /* fulfilled by a pthread; taskgroup end waits for it */
  fulfilled = 0;
  published_ok = 0;
  pthread_t th;
  CHECK(pthread_create(&th, NULL, fulfiller, NULL) == 0);
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
#pragma omp taskgroup
      {
        omp_event_handle_t ev;
#pragma omp task detach(ev) shared(x)
        x = 2;
        publish(ev);
      }
      CHECK(__atomic_load_n(&fulfilled, __ATOMIC_SEQ_CST) == 1);
      CHECK(x == 2);
    }
  }
  pthread_join(th, NULL);

  /* fulfilled inside the body, before it ends */
  int after = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
      /* gcc 12 copies the task's firstprivate handle before the runtime fills it, so the
       * body reads the handle through a pointer to the original */
      omp_event_handle_t ev, *pev = &ev;
#pragma omp task detach(ev) shared(after) firstprivate(pev)
      {
        omp_fulfill_event(*pev);
        after = 1;
      }
#pragma omp taskwait
      CHECK(after == 1);
    }
  }

  /* undeferred detached task: the encountering task goes on once the body is done (OpenMP
   * 5.2 sec. 12.5; tomp waited for the fulfilment before, as libgomp does); the task is
   * complete, and the taskwait returns, only once the event is fulfilled
   * (task_detach_if0.c has more) */
  fulfilled = 0;
  published_ok = 0;
  CHECK(pthread_create(&th, NULL, fulfiller, NULL) == 0);
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
      omp_event_handle_t ev, *pev = &ev;
#pragma omp task if (0) detach(ev) shared(x) firstprivate(pev)
      {
        x = 4;
        publish(*pev);
      }
      CHECK(x == 4);
#pragma omp taskwait
      CHECK(__atomic_load_n(&fulfilled, __ATOMIC_SEQ_CST) == 1);
    }
  }
  pthread_join(th, NULL);
  puts("ok");
  return 0;
}
