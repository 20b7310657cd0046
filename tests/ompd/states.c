/* A program that puts its OpenMP threads into a known state and then says so, for the gdb
 * tests of tomp's OMPD support (tests/scenarios/ompd_gdb*.sh; not a self-checking test).
 *
 *   states MODE
 *
 * Once the state is set up, one thread (the "signaller") calls ompd_test_ready(), which
 * raises SIGTRAP again and again: gdb stops on each, the test checks with `ompd threads`
 * whether every thread has reached its state (a thread may still be on its way into a
 * wait) and continues if not.  So nothing depends on timing.  Run it under gdb only (without
 * a debugger SIGTRAP ends it).  Modes and the states they reach:
 *
 *   lock      thread 0 holds the lock `test_lock` (a global) and signals; thread 1 waits in
 *             omp_set_lock(&test_lock): wait_lock, wait id &test_lock
 *   critical  thread 0 is inside `critical(test_section)` and signals; thread 1 waits to
 *             enter it: wait_critical, wait id &.gomp_critical_user_test_section
 *   taskwait  3 threads: thread 0 creates a task (body: the compiler's outlined
 *             taskwait_region._omp_fn.N) and waits for it in taskwait (wait_taskwait); the
 *             task runs on thread 1 or 2 and signals; the other one waits in an explicit
 *             barrier (wait_barrier_explicit)
 *   nested    2 threads, each starting an inner region of 2 (2x2): inner thread 0 of outer
 *             thread 0 signals, its team mate waits in an explicit barrier; both threads of
 *             outer thread 1's inner region wait for test_lock, which the initial thread
 *             took before the regions (wait_lock)
 *   nested3   3 levels: 2 threads, each in a team of one (level 2, inactive), each starting
 *             a region of 3 (level 3): inner thread 0 under outer thread 0 signals, its two
 *             team mates wait in an explicit barrier; the three under outer thread 1 wait for
 *             test_lock (wait_lock)
 *   idle      a region of 4 threads ends; the initial thread, outside any region, signals
 *             while the three workers are idle (state idle, in no team).  ICVs are also set
 *             by API calls here: omp_set_num_threads(3), omp_set_schedule(guided, 7),
 *             omp_set_max_active_levels(2), omp_set_dynamic(1) after the region.
 */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

omp_lock_t test_lock;
static volatile int task_started;

/* The signaller: gdb stops here (SIGTRAP) until the test has seen what it expects. */
__attribute__((noinline)) void ompd_test_ready(void) {
  for (;;) {
    raise(SIGTRAP);
    usleep(2000);
  }
}

static void lock_region(void) {
  omp_init_lock(&test_lock);
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) omp_set_lock(&test_lock);
#pragma omp barrier
    if (omp_get_thread_num() == 0)
      ompd_test_ready();
    else
      omp_set_lock(&test_lock);
  }
}

static void critical_region(void) {
  volatile int in = 0;
#pragma omp parallel num_threads(2) shared(in)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp critical(test_section)
      {
        in = 1;
        ompd_test_ready();
      }
    } else {
      while (!in) {
      }
#pragma omp critical(test_section)
      in = 2;
    }
  }
}

__attribute__((noinline)) static void taskwait_region(void) {
#pragma omp parallel num_threads(3)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp task
      {
        task_started = 1;
        ompd_test_ready();
      }
      while (!task_started) {
      }
#pragma omp taskwait
    } else {
#pragma omp barrier
    }
  }
}

static void nested_regions(void) {
  omp_set_max_active_levels(2);
  omp_init_lock(&test_lock);
  omp_set_lock(&test_lock);
#pragma omp parallel num_threads(2)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
    {
      if (outer == 0) {
        if (omp_get_thread_num() == 0) ompd_test_ready();
#pragma omp barrier
      } else {
        omp_set_lock(&test_lock);
      }
    }
  }
}

/* Three levels, as LLVM's ompd_parallel test nests them, the middle one a team of one (an
 * inactive region, still a level of its own).  Thread 0 of the innermost region under outer
 * thread 0 signals; every other innermost thread waits in an explicit barrier or for
 * test_lock. */
static void nested3_regions(void) {
  omp_set_max_active_levels(3);
  omp_init_lock(&test_lock);
  omp_set_lock(&test_lock);
#pragma omp parallel num_threads(2)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(1)
    {
#pragma omp parallel num_threads(3)
      {
        if (outer == 0) {
          if (omp_get_thread_num() == 0) ompd_test_ready();
#pragma omp barrier
        } else {
          omp_set_lock(&test_lock);
        }
      }
    }
  }
}

static void idle_workers(void) {
  int n = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp atomic
    n++;
  }
  if (n != 4) {
    fprintf(stderr, "states: region of %d threads, not 4\n", n);
    exit(1);
  }
  omp_set_num_threads(3);
  omp_set_schedule(omp_sched_guided, 7);
  omp_set_max_active_levels(2);
  omp_set_dynamic(1);
  ompd_test_ready();
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "lock"))
    lock_region();
  else if (!strcmp(mode, "critical"))
    critical_region();
  else if (!strcmp(mode, "taskwait"))
    taskwait_region();
  else if (!strcmp(mode, "nested"))
    nested_regions();
  else if (!strcmp(mode, "nested3"))
    nested3_regions();
  else if (!strcmp(mode, "idle"))
    idle_workers();
  else {
    fprintf(stderr, "usage: states lock|critical|taskwait|nested|idle\n");
    return 2;
  }
  return 0;
}
