/* The deadlock of docs/ompd.md's walk-through: two threads take two locks in opposite
 * orders.  Thread 0 moves from account A to account B (lock_a, then lock_b), thread 1 from
 * B to A (lock_b, then lock_a); the barrier between the two lock calls makes sure each holds
 * its first lock when it asks for the second, so the program always hangs.
 *
 *   deadlock            hang (find out why with gdb: docs/ompd.md)
 *   deadlock trap       for tests/scenarios/ompd_gdb_deadlock.sh: a watchdog thread (not an
 *                       OpenMP thread) raises SIGTRAP again and again, so that gdb stops
 *   deadlock abort      a watchdog aborts the process (a kernel core dump) once both threads
 *                       wait in omp_set_lock: each says it is about to ask for its second
 *                       lock, and the watchdog waits until the kernel shows both blocked in a
 *                       futex wait (/proc/self/task/TID/syscall), which they only leave
 *                       with the lock
 */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

omp_lock_t lock_a, lock_b;
static int balance_a = 100, balance_b = 100;
static volatile pid_t asking[2]; /* the thread ids of the two threads, once they ask */

__attribute__((noinline)) static void move(omp_lock_t *from_lock, int *from, omp_lock_t *to_lock,
                                           int *to, int amount) {
  omp_set_lock(from_lock);
#pragma omp barrier
  asking[omp_get_thread_num()] = (pid_t)syscall(SYS_gettid);
  omp_set_lock(to_lock); /* the other thread holds it and waits for ours */
  *from -= amount;
  *to += amount;
  omp_unset_lock(to_lock);
  omp_unset_lock(from_lock);
}

static int in_futex_wait(pid_t tid) {
  char path[64], line[64] = "";
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int ok = fgets(line, sizeof line, f) && !strncmp(line, "202 ", 4); /* x86-64 futex */
  fclose(f);
  return ok;
}

static void *watchdog(void *arg) {
  int abort_mode = arg != NULL;
  for (;;) {
    if (!abort_mode)
      raise(SIGTRAP);
    else if (asking[0] && asking[1] && in_futex_wait(asking[0]) && in_futex_wait(asking[1]))
      abort();
    usleep(2000);
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  omp_init_lock(&lock_a);
  omp_init_lock(&lock_b);
  if (!strcmp(mode, "trap") || !strcmp(mode, "abort")) {
    pthread_t w;
    pthread_create(&w, NULL, watchdog, !strcmp(mode, "abort") ? (void *)1 : NULL);
  }
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0)
      move(&lock_a, &balance_a, &lock_b, &balance_b, 10);
    else
      move(&lock_b, &balance_b, &lock_a, &balance_a, 20);
  }
  printf("balances %d %d\n", balance_a, balance_b);
  return 0;
}
