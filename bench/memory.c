/* The workloads of bench/memory.sh, measured from /proc/self/status (VmRSS, VmHWM, VmSize):
 *   memory idle N       a team of N threads that ran one region and is now idle (parked)
 *   memory tasks N M    one thread of a team of N creates M tasks (a 64-byte firstprivate
 *                       block each, a trivial body) in a single; the others run them
 * Prints "base" (before any region) and "after" figures in KiB, and for tasks the most tasks
 * ever created but not yet finished (sampled by the producer): every runtime bounds that by
 * its own cut-off, so the peak is the cost of the tasks each one lets wait.  Checks that
 * every task ran once. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long status_kib(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, n) && line[n] == ':') v = atol(line + n + 1);
  if (f) fclose(f);
  return v;
}

struct payload {
  long v[8];
};

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: memory idle N | memory tasks N M\n");
    return 64;
  }
  int n = atoi(argv[2]), bad = 0;
  long base_rss = status_kib("VmRSS"), base_vm = status_kib("VmSize");
  if (!strcmp(argv[1], "idle")) {
#pragma omp parallel num_threads(n) reduction(+ : bad)
    bad += omp_get_num_threads() != n;
  } else if (!strcmp(argv[1], "tasks") && argc == 4) {
    long m = atol(argv[3]), created = 0, finished = 0, most = 0, sum = 0;
#pragma omp parallel num_threads(n) reduction(+ : bad)
    {
      bad += omp_get_num_threads() != n;
#pragma omp single
      for (long i = 0; i < m; i++) {
        struct payload p = {{i, 1, 2, 3, 4, 5, 6, 7}};
#pragma omp task firstprivate(p) shared(finished, sum)
        {
          __atomic_add_fetch(&sum, p.v[0] + p.v[7] - 7, __ATOMIC_RELAXED);
          __atomic_add_fetch(&finished, 1, __ATOMIC_RELAXED);
        }
        created++;
        if ((i & 1023) == 0) {
          long pending = created - __atomic_load_n(&finished, __ATOMIC_RELAXED);
          if (pending > most) most = pending;
        }
      }
    }
    if (sum != m * (m - 1) / 2 || finished != m) bad++;
    printf("most_pending %ld\n", most);
  } else {
    fprintf(stderr, "memory: unknown workload %s\n", argv[1]);
    return 64;
  }
  if (bad) {
    fprintf(stderr, "memory: wrong team size or result\n");
    return 2;
  }
  printf("base_rss %ld base_vm %ld rss %ld hwm %ld vm %ld\n", base_rss, base_vm,
         status_kib("VmRSS"), status_kib("VmHWM"), status_kib("VmSize"));
  return 0;
}
