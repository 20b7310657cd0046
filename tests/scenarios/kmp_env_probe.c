/* Helper for tests/scenarios/kmp_env.sh (not a test by itself): what libomp's environment
 * variables (KMP_*) did, one key=value per line.  Built by clang (libomp's omp.h declares the
 * kmp_* routines) and by gcc (weak declarations: the system libgomp has none, tomp has them),
 * so one probe serves both ABIs.  argv[1], when given, is a stack size in bytes every worker
 * must have at least (ws_ok). */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int kmp_get_blocktime(void) __attribute__((weak));
int kmp_get_library(void) __attribute__((weak));
size_t kmp_get_stacksize_s(void) __attribute__((weak));

static int cpu_ok = 1;

/* A thread with a place runs on exactly that place's processors. */
static void check_binding(void) {
  int p = omp_get_place_num();
  if (p < 0) return;
  int ids[1024];
  cpu_set_t want, got;
  CPU_ZERO(&want);
  omp_get_place_proc_ids(p, ids);
  for (int k = omp_get_place_num_procs(p); k-- > 0;)
    CPU_SET(ids[k], &want);
  if (sched_getaffinity(0, sizeof got, &got) == 0 && !CPU_EQUAL(&want, &got)) cpu_ok = 0;
}

int main(int argc, char **argv) {
  if (kmp_get_blocktime) printf("blocktime=%d\n", kmp_get_blocktime());
  if (kmp_get_library) printf("library=%d\n", kmp_get_library());
  if (kmp_get_stacksize_s) printf("stack=%zu\n", kmp_get_stacksize_s());
  printf("procs=%d\nmax_threads=%d\n", omp_get_num_procs(), omp_get_max_threads());
  printf("proc_bind=%d\n", (int)omp_get_proc_bind());
  printf("num_places=%d\nplaces=", omp_get_num_places());
  for (int i = 0; i < omp_get_num_places(); i++) {
    int ids[1024], n = omp_get_place_num_procs(i);
    omp_get_place_proc_ids(i, ids);
    for (int j = 0; j < n; j++)
      printf("%s%d", j ? "," : i ? "|" : "", ids[j]);
  }
  printf("\n");
  size_t want = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;
  int team = 0, tplace[2] = {-9, -9}, ws_ok = 1;
  check_binding();
#pragma omp parallel num_threads(2)
  {
    check_binding();
    int t = omp_get_thread_num();
    if (t < 2) tplace[t] = omp_get_place_num();
    if (t == 0) team = omp_get_num_threads();
    pthread_attr_t a;
    size_t sz = 0;
    if (t > 0 && pthread_getattr_np(pthread_self(), &a) == 0) {
      pthread_attr_getstacksize(&a, &sz);
      pthread_attr_destroy(&a);
      if (sz < want) {
#pragma omp atomic write
        ws_ok = 0;
      }
    }
  }
  printf("team=%d\ntplaces=%d,%d\nbound_ok=%d\nws_ok=%d\n", team, tplace[0], tplace[1], cpu_ok,
         ws_ok);
  int nteams = 0;
#pragma omp teams
  {
    if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
  }
  printf("nteams=%d\n", nteams);
  return 0;
}
