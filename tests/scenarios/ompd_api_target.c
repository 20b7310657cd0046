/* The target of ompd_api.sh: a program that reaches a known state and holds it while the test
 * (its parent) reads it through libtompd.  Phase 1, with OMP_NUM_THREADS=2,2: a 2x2 nest of
 * parallel regions (outer_region, inner_region) in which
 *   A = (0,0), the initial thread: runs, after omp_set_schedule(guided, 7)
 *   B = (0,1): blocked in omp_set_lock(&lk) (the initial task holds lk)
 *   C = (1,0): runs an undeferred explicit task (spawn_task's), after omp_set_dynamic(1) and
 *              an undeferred task that ended (warm_up's)
 *   D = (1,1): waits in an explicit barrier
 * plus a worker idle in the pool (from an earlier team of 5) and a plain pthread that never
 * uses OpenMP.  It prints one line "ROLE lwp pthread" per thread, "LOCK addr" and READY, then
 * waits until the test writes 1 into `phase` (through /proc/PID/mem).  Phase 2: the regions
 * end, omp_pause_resource_all ends every worker; it prints PHASE2 and waits for phase 2.  */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile int phase;
static omp_lock_t lk;
static volatile int arrived;

static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *role) {
  pthread_mutex_lock(&out);
  printf("%s %d %lu\n", role, (int)gettid(), (unsigned long)pthread_self());
  fflush(stdout);
  pthread_mutex_unlock(&out);
  __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
}

static void wait_phase(int p) {
  while (phase < p)
    usleep(1000);
}

/* A task that ends at once: without a listener, the next undeferred task on this thread may
 * take the tiny path and reuse its block (and find its function there). */
static volatile int warm;
static void warm_up(void) {
#pragma omp task if (0)
  warm++;
}

__attribute__((noinline)) static void spawn_task(void) {
#pragma omp task if (0)
  {
    say("C");
    wait_phase(1);
  }
}

__attribute__((noinline)) static void inner_region(int outer) {
#pragma omp parallel
  {
    int me = omp_get_thread_num();
    if (outer == 0 && me == 0) {
      omp_set_schedule(omp_sched_guided, 7);
      say("A");
      while (arrived < 5)
        usleep(1000);
      printf("LOCK %p\nREADY\n", (void *)&lk);
      fflush(stdout);
      wait_phase(1);
      omp_unset_lock(&lk); /* lets B go */
    } else if (outer == 0) {
      say("B");
      omp_set_lock(&lk);
      omp_unset_lock(&lk);
    } else if (me == 0) {
      omp_set_dynamic(1);
      warm_up();
      spawn_task();
#pragma omp barrier
    } else {
      say("D");
#pragma omp barrier
    }
  }
}

__attribute__((noinline)) static void outer_region(void) {
#pragma omp parallel
  inner_region(omp_get_thread_num());
}

static void *plain(void *arg) {
  (void)arg;
  say("P");
  wait_phase(2);
  return NULL;
}

int main(void) {
  omp_init_lock(&lk);
  omp_set_lock(&lk);
  static volatile int started;
#pragma omp parallel num_threads(5)
  __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED); /* not empty: gcc drops an empty region */
  pthread_t p;
  pthread_create(&p, NULL, plain, NULL);
  outer_region();
  omp_pause_resource_all(omp_pause_hard);
  printf("PHASE2\n");
  fflush(stdout);
  wait_phase(2);
  pthread_join(p, NULL);
  return 0;
}
