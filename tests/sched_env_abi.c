/* run-sched-var's initial value, as each compiler's code reads it.  OpenMP 5.2 leaves it to
 * the implementation ("The initial value of run-sched-var is implementation defined"), and
 * programs rely on their incumbent's: gcc code reads libgomp's (dynamic,1, and OMP_SCHEDULE as
 * libgomp reads it: static is monotonic, libomp's own kinds are refused), clang code libomp's
 * (static, OMP_SCHEDULE without the monotonic libgomp adds, static_steal and trapezoidal
 * accepted).  The program re-runs itself under each OMP_SCHEDULE and checks omp_get_schedule,
 * a schedule(runtime) loop where the schedule decides who runs what, and that a value set
 * by omp_set_schedule is what both read afterwards.  Its clang copy failed before (tomp
 * answered libgomp's values to clang code); validated on libgomp and on libomp 14. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#ifdef __clang__
#define ABI 1 /* LLVM's libomp */
#else
#define ABI 0 /* libgomp */
#endif

#define MONO ((int)omp_sched_monotonic)

/* OMP_SCHEDULE (NULL: unset), then what gcc code and clang code read: kind, chunk (kind -1:
 * not checked; libgomp 12 refuses static_steal but keeps the monotonic:static its parse had
 * read, where tomp keeps the default, as it does for every refused value: src/core/env.c) */
static const struct {
  const char *env;
  int kind[2], chunk[2];
} cases[] = {
    {NULL, {omp_sched_dynamic, omp_sched_static}, {1, 0}},
    {"static", {MONO | omp_sched_static, omp_sched_static}, {0, 0}},
    {"static,10", {MONO | omp_sched_static, omp_sched_static}, {10, 10}},
    {"monotonic:dynamic,3", {MONO | omp_sched_dynamic, MONO | omp_sched_dynamic}, {3, 3}},
    {"guided,12", {omp_sched_guided, omp_sched_guided}, {12, 12}},
    {"auto", {omp_sched_auto, omp_sched_auto}, {1, 1}},
    {"static_steal,14", {-1, omp_sched_dynamic}, {1, 14}},
    {"trapezoidal", {omp_sched_dynamic, 101}, {1, 1}},
};

static int child(int c) {
  omp_sched_t k;
  int ch;
  omp_get_schedule(&k, &ch);
  CHECKF(cases[c].kind[ABI] == -1 || ((int)k == cases[c].kind[ABI] && ch == cases[c].chunk[ABI]),
         "OMP_SCHEDULE=%s: (%#x, %d), want (%#x, %d)", cases[c].env ? cases[c].env : "(unset)",
         (unsigned)k, ch, (unsigned)cases[c].kind[ABI], cases[c].chunk[ABI]);
  if (c == 0) {
    /* unset: clang code runs schedule(runtime) as static, one block of 16 per thread */
    enum { N = 64, T = 4 };
    int who[N], bad = 0;
    omp_set_dynamic(0);
#pragma omp parallel for schedule(runtime) num_threads(T)
    for (int i = 0; i < N; i++)
      who[i] = omp_get_thread_num();
    for (int i = 0; i < N; i++)
      if (ABI == 1 && who[i] != i / (N / T)) bad++;
    CHECKF(bad == 0, "schedule(runtime) with run-sched-var unset: %d iterations off static", bad);
  }
  /* a value set is what code of either compiler reads, in the tasks that inherit it */
  omp_set_schedule(omp_sched_guided, 5);
  int ok = 1;
#pragma omp parallel num_threads(2)
  {
    omp_sched_t k2;
    int c2;
    omp_get_schedule(&k2, &c2);
    if (k2 != omp_sched_guided || c2 != 5) __atomic_store_n(&ok, 0, __ATOMIC_RELAXED);
  }
  CHECK(ok);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) return child(atoi(argv[1]));
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
      if (cases[c].env)
        setenv("OMP_SCHEDULE", cases[c].env, 1);
      else
        unsetenv("OMP_SCHEDULE");
      char arg[16];
      snprintf(arg, sizeof arg, "%u", c);
      execl("/proc/self/exe", argv[0], arg, (char *)NULL);
      _exit(127);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "case OMP_SCHEDULE=%s failed",
           cases[c].env ? cases[c].env : "(unset)");
  }
  return 0;
}
