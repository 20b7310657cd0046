/* The thread table (src/core/thread_table.h), read the way a debugger or a signal handler
 * reads it: found by name (dlsym of the exported data symbol tomp_thread_table), walked with
 * the documented protocol and field offsets only, no call into tomp.  Checks: the header;
 * the main thread is number 0, an initial thread, in state work_serial outside any region;
 * in a region every thread finds its own entry (by pthread_t) with its number and the team,
 * and the master sees the others waiting in an explicit barrier with a wait id (state and
 * wait id are current without any tool attached); numbers are never reused: after a hard
 * pause the ended workers' entries are empty and new workers get new numbers; a thread the
 * program creates gets a number on first use and its entry empties when it exits; in the
 * child of fork() only the forking thread is listed.
 * test-no-libgomp: libgomp has no thread table
 * test-cflags: -Isrc/core -ldl
 * test-env: TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0:die_after_fork=0
 * test-no-libomp: libomp 14 has no tomp thread table
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "thread_table.h"

static const tomp_thread_table_t *tab;

/* The entry of number g, as the header's reading protocol says. */
static const char *entry(uint32_t g) {
  struct tomp_thread **chunk =
      __atomic_load_n((struct tomp_thread ***)&tab->chunks[g / tab->chunk_size], __ATOMIC_ACQUIRE);
  return chunk ? __atomic_load_n((const char **)&chunk[g % tab->chunk_size], __ATOMIC_ACQUIRE)
               : NULL;
}
static uint32_t count(void) {
  return __atomic_load_n(&tab->count, __ATOMIC_ACQUIRE);
}
static uint32_t u32_at(const char *t, uint32_t off) {
  return __atomic_load_n((const uint32_t *)(t + off), __ATOMIC_RELAXED);
}
static int int_at(const char *t, uint32_t off) {
  return __atomic_load_n((const int *)(t + off), __ATOMIC_RELAXED);
}
static uint64_t u64_at(const char *t, uint32_t off) {
  return __atomic_load_n((const uint64_t *)(t + off), __ATOMIC_RELAXED);
}
static void *ptr_at(const char *t, uint32_t off) {
  return __atomic_load_n((void *const *)(t + off), __ATOMIC_RELAXED);
}

/* The calling thread's number, found by its pthread_t; -1 if it is not listed. */
static long self_gtid(void) {
  pthread_t me = pthread_self();
  long found = -1;
  for (uint32_t g = 0, n = count(); g < n; g++) {
    const char *t = entry(g);
    if (!t || !pthread_equal(*(const pthread_t *)(t + tab->off_pthread), me)) continue;
    CHECK(found == -1); /* listed once */
    CHECK(u32_at(t, tab->off_gtid) == g);
    found = g;
  }
  return found;
}

static uint32_t live(void) {
  uint32_t k = 0;
  for (uint32_t g = 0, n = count(); g < n; g++)
    k += entry(g) != NULL;
  return k;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long program_thread_gtid;
static void *program_thread(void *arg) {
  (void)arg;
  CHECK(omp_get_thread_num() == 0); /* first use: tomp makes it an initial thread */
  program_thread_gtid = self_gtid();
  CHECK(program_thread_gtid > 0);
  CHECK(int_at(entry((uint32_t)program_thread_gtid), tab->off_type) == 1);
  return NULL;
}

int main(void) {
  CHECK(omp_get_max_threads() >= 1); /* tomp is loaded */
  tab = dlsym(RTLD_DEFAULT, "tomp_thread_table");
  CHECK(tab != NULL);
  CHECK(tab->version == 1);
  CHECK(tab->chunk_size >= 1 && (tab->chunk_size & (tab->chunk_size - 1)) == 0);
  CHECK(tab->max_chunks >= 1);
  uint32_t offs[] = {tab->off_gtid,    tab->off_state, tab->off_wait_id, tab->off_type,
                     tab->off_pthread, tab->off_task,  tab->off_team};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++)
    CHECK(offs[i] + sizeof(uint32_t) <= tab->thread_size);

  /* the main thread: number 0, initial, serial, outside any team */
  CHECK(count() >= 1);
  CHECK(self_gtid() == 0);
  const char *main_t = entry(0);
  CHECK(int_at(main_t, tab->off_type) == 1);
  CHECK(int_at(main_t, tab->off_state) == 0 /* ompt_state_work_serial */);
  CHECK(ptr_at(main_t, tab->off_team) == NULL && ptr_at(main_t, tab->off_task) != NULL);

  /* a region: every thread listed once, with its team; the others seen waiting */
  enum { N = 4 };
  long gt[N];
  void *team[N];
  int ok_wait = 1;
#pragma omp parallel num_threads(N)
  {
    int i = omp_get_thread_num();
    gt[i] = self_gtid();
    const char *me = gt[i] >= 0 ? entry((uint32_t)gt[i]) : NULL;
    team[i] = me ? ptr_at(me, tab->off_team) : NULL;
    if (me) CHECK(int_at(me, tab->off_state) == 1 /* ompt_state_work_parallel */);
    if (me) CHECK(int_at(me, tab->off_type) == (i == 0 ? 1 : 2));
#pragma omp barrier
    if (i == 0) {
      /* the others are (or soon will be) in the next barrier: explicit, with a wait id */
      double limit = now() + 30;
      for (int k = 1; k < N; k++) {
        const char *t = entry((uint32_t)gt[k]);
        while (!(int_at(t, tab->off_state) == 0x14 /* ompt_state_wait_barrier_explicit */ &&
                 u64_at(t, tab->off_wait_id) != 0)) {
          if (now() > limit) {
            ok_wait = 0;
            break;
          }
          sched_yield();
        }
      }
    }
#pragma omp barrier
  }
  CHECK(ok_wait);
  CHECK(gt[0] == 0);
  for (int i = 0; i < N; i++) {
    CHECK(gt[i] >= 0);
    CHECK(team[i] != NULL && team[i] == team[0]);
    for (int j = 0; j < i; j++)
      CHECK(gt[i] != gt[j]);
  }
  CHECK(live() >= N);

  /* a hard pause ends the workers: their entries empty, their numbers retired */
  uint32_t before = count();
  CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
  for (int i = 1; i < N; i++)
    CHECK(entry((uint32_t)gt[i]) == NULL);
  CHECK(live() == 1);
#pragma omp parallel num_threads(N)
  {
    long g = self_gtid();
    if (omp_get_thread_num() != 0)
      CHECK(g >= (long)before);
    else
      CHECK(g == 0);
  }

  /* a thread of the program's own: numbered on first use, gone when it exits */
  pthread_t p;
  CHECK(pthread_create(&p, NULL, program_thread, NULL) == 0);
  CHECK(pthread_join(p, NULL) == 0);
  CHECK(program_thread_gtid >= (long)before);
  CHECK(entry((uint32_t)program_thread_gtid) == NULL);

  /* fork: the child lists only itself (workers are parked in the parent now) */
  CHECK(live() >= 2);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    if (live() != 1 || self_gtid() != 0) _exit(3);
    int ok = 1;
#pragma omp parallel num_threads(2)
    if (self_gtid() < 0) ok = 0;
    _exit(ok && live() == 2 ? 0 : 4);
  }
  int st;
  CHECK(waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  return 0;
}
