/* Helper for the env_*.sh scenarios (not a test by itself): prints the ICVs and places the
 * runtime derived from the environment, one key=value per line, so a scenario can compare
 * runs.  Uses only parallel regions and omp_* queries. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static size_t worker_stack;
static int inner_max[2];
static int team_size;
static int cpu_ok = 1;

/* The thread's CPU mask must equal its place's processors when it has a place. */
static void check_binding(void) {
  int p = omp_get_place_num();
  if (p < 0) return;
  int n = omp_get_place_num_procs(p), ids[1024];
  omp_get_place_proc_ids(p, ids);
  cpu_set_t s;
  if (sched_getaffinity(0, sizeof s, &s)) return;
  int cnt = CPU_COUNT(&s);
  if (cnt != n) cpu_ok = 0;
  for (int i = 0; i < n; i++)
    if (!CPU_ISSET(ids[i], &s)) cpu_ok = 0;
}

int main(int argc, char **argv) {
  omp_sched_t k;
  int chunk;
  omp_get_schedule(&k, &chunk);
  printf("max_threads=%d\n", omp_get_max_threads());
  printf("dynamic=%d\n", omp_get_dynamic());
  printf("nested=%d\n", omp_get_nested());
  printf("schedule=%#x,%d\n", (unsigned)k, chunk);
  printf("thread_limit=%d\n", omp_get_thread_limit());
  printf("max_active_levels=%d\n", omp_get_max_active_levels());
  printf("cancellation=%d\n", omp_get_cancellation());
  printf("default_device=%d\n", omp_get_default_device());
  printf("proc_bind=%d\n", omp_get_proc_bind());
  printf("max_teams=%d\n", omp_get_max_teams());
  printf("teams_thread_limit=%d\n", omp_get_teams_thread_limit());
  printf("num_places=%d\n", omp_get_num_places());
  for (int i = 0; i < omp_get_num_places(); i++) {
    int ids[1024], n = omp_get_place_num_procs(i);
    omp_get_place_proc_ids(i, ids);
    printf("place%d=", i);
    for (int j = 0; j < n; j++) printf("%s%d", j ? "," : "", ids[j]);
    printf("\n");
  }
  char fmt[256];
  omp_get_affinity_format(fmt, sizeof fmt);
  printf("affinity_format=%s\n", fmt);
  check_binding();
#pragma omp parallel num_threads(2)
  {
    check_binding();
    if (omp_get_thread_num() == 1) {
      pthread_attr_t a;
      if (pthread_getattr_np(pthread_self(), &a) == 0) {
        pthread_attr_getstacksize(&a, &worker_stack);
        pthread_attr_destroy(&a);
      }
    }
    inner_max[omp_get_thread_num()] = omp_get_max_threads();
    if (omp_get_thread_num() == 0) team_size = omp_get_num_threads();
  }
  printf("level1_max_threads=%d\n", inner_max[0]);
  /* -1: no worker to look at (dynamic adjustment gave a team of one) */
  printf("worker_stack_at_least_32M=%d\n", team_size > 1 ? worker_stack >= 32u << 20 : -1);
  printf("bound_ok=%d\n", cpu_ok);
  if (argc > 1 && !strcmp(argv[1], "display")) omp_display_env(argc > 2);
  return 0;
}
