/* tomp-prof recorder test: omp_control_tool.  Phase 2 runs between pause and start, so no
 * sample may fall inside it; flush writes what is buffered; after end nothing more is
 * recorded (phase 4) and start is ignored.  The program prints the phase boundaries
 * (CLOCK_MONOTONIC ns, the clock of the samples) and the return codes.  omp_control_tool is
 * looked up at run time: GCC's libgomp does not define it. */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

typedef int (*control_fn)(int, int, void *);

static unsigned long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

__attribute__((noinline)) double phase_work(long n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 13);
  return s;
}

int main(void) {
  control_fn control = (control_fn)dlsym(RTLD_DEFAULT, "omp_control_tool");
  if (!control) {
    puts("no omp_control_tool");
    return 1;
  }
  const long n = 50000000;
  double s = phase_work(n);
  int rc_pause = control(2 /* pause */, 0, NULL);
  unsigned long long p0 = now_ns();
  s += phase_work(n);
  unsigned long long p1 = now_ns();
  int rc_start = control(1 /* start */, 0, NULL);
  s += phase_work(n);
  int rc_flush = control(3 /* flush */, 0, NULL);
  int rc_bad = control(99, 0, NULL);
  int rc_end = control(4 /* end */, 0, NULL);
  unsigned long long e0 = now_ns();
  s += phase_work(n);
  int rc_restart = control(1 /* start */, 0, NULL);
  s += phase_work(n);
  printf("paused %llu %llu ended %llu rc %d %d %d %d %d %d sum %g\n", p0, p1, e0, rc_pause, rc_start,
         rc_flush, rc_bad, rc_end, rc_restart, s);
  return 0;
}
