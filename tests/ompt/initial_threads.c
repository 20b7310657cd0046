/* A thread the program creates is an initial thread: thread_begin(initial), its initial task, its
 * own parallel region, and its end when it exits.
 *
 * test-cflags: -lpthread
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
volatile int sink;
static void *run(void *a) {
  (void)a;
#pragma omp parallel num_threads(2)
  sink += omp_get_thread_num();
  return NULL;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, run, NULL);
  pthread_join(t, NULL);
  return 0;
}
