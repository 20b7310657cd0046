/* kmp_set_blocktime changes how long an idle worker polls before it sleeps: after
 * kmp_set_blocktime(60000) a worker of an ended region is still polling (runnable, 'R' in
 * /proc) 300 ms later; after kmp_set_blocktime(0) the next region's worker goes to sleep
 * ('S') at once.  Before, tomp kept the value for kmp_get_blocktime only and its workers
 * slept after their usual 2 ms: the first check failed. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../check.h"

static char state_of(pid_t tid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f) return '?';
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *p = strrchr(buf, ')'); /* "tid (comm) S ..." */
  return p && p[1] == ' ' ? p[2] : '?';
}

static void pause_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

static pid_t worker(void) {
  pid_t tid = 0;
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) tid = gettid();
  return tid;
}

int main(void) {
  omp_set_dynamic(0);
  kmp_set_blocktime(60000);
  CHECK(kmp_get_blocktime() == 60000);
  pid_t w = worker();
  CHECK(w > 0);
  pause_ms(300);
  char s = state_of(w);
  CHECKF(s == 'R', "worker %d is '%c' 300 ms after the region with a blocktime of 60 s", (int)w, s);

  kmp_set_blocktime(0);
  CHECK(kmp_get_blocktime() == 0);
  w = worker();
  for (int i = 0; i < 500 && (s = state_of(w)) != 'S'; i++)
    pause_ms(20);
  CHECKF(s == 'S', "worker %d is '%c' 10 s after the region with a blocktime of 0", (int)w, s);
  return 0;
}
