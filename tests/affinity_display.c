/* OMP_DISPLAY_AFFINITY and the affinity format's implementation-defined choices, which follow
 * the program's compiler: libgomp's for a gcc program, libomp's for a clang program (the clang
 * copy runs on tomp as libomp.so.5 and is validated on libomp 14).
 * - The initial affinity-format-var; clang: a 0 without the dot ("%05n" is left-justified with
 *   spaces) and a field type the table lacks ("undefined", and omp_set_affinity_format keeps
 *   such a format).
 * - Where the lines go: libgomp writes them to stderr, libomp to stdout.
 * - OpenMP 5.1 sec. 6.13: "If affinity of any thread in a parallel region changes then thread affinity
 *   information for all threads in that region is displayed."  On the places {0},{0,1},
 *   proc_bind(close) puts thread 0 on {0} and thread 1 on {0,1} (2 lines), the same region
 *   again shows nothing, proc_bind(master) moves thread 1 to {0} while thread 0 stays: both
 *   threads' lines again (4 in all).  A new format alone changes no information: the same
 *   region with it shows nothing (as libomp; LLVM's affinity_display.1.c).
 * Failed before: as a clang program (stderr, libgomp's default, "%05n" zero-filled,
 * "%{foobar}" refused), and on both (only the thread whose line changed was shown: 3 lines);
 * LLVM's affinity/format tests.  The program runs itself again with the environment set. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#ifdef __clang__
#define CLANG 1
#else
#define CLANG 0
#endif

/* Lines of the file at path beginning with prefix (read through a descriptor of its own: the
 * one standing for stdout or stderr keeps its offset). */
static int count_lines(const char *path, const char *prefix) {
  char line[512];
  int n = 0;
  FILE *f = fopen(path, "r");
  CHECK(f);
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, prefix, strlen(prefix))) n++;
  fclose(f);
  return n;
}

/* Send fd to a new temporary file named in path. */
static void catch_fd(int fd, char *path) {
  int t = mkstemp(path);
  CHECK(t >= 0 && dup2(t, fd) == fd);
  close(t);
}

static void format_choices(void) {
  char buf[256];
  omp_get_affinity_format(buf, sizeof buf);
  CHECKF(!strcmp(buf, CLANG ? "OMP: pid %P tid %i thread %n bound to OS proc set {%A}"
                            : "level %L thread %i affinity %A"),
         "initial format '%s'", buf);
  if (!CLANG) return;
  omp_capture_affinity(buf, sizeof buf, "[%05n][%0.3n][%.3n][%3n]");
  CHECKF(!strcmp(buf, "[0    ][000][  0][0  ]"), "'%s'", buf);
  omp_capture_affinity(buf, sizeof buf, "[%{foobar}][%X][%n]");
  CHECKF(!strcmp(buf, "[undefined][undefined][0]"), "'%s'", buf);
  omp_set_affinity_format("%{foobar}");
  omp_get_affinity_format(buf, sizeof buf);
  CHECK(!strcmp(buf, "%{foobar}"));
}

int main(int argc, char **argv) {
  (void)argc;
  if (!getenv("AFFINITY_DISPLAY_TEST")) {
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
      puts("one processor: nothing to check");
      return 0;
    }
    setenv("AFFINITY_DISPLAY_TEST", "1", 1);
    setenv("OMP_DISPLAY_AFFINITY", "TRUE", 1);
    setenv("OMP_PLACES", "{0},{0,1}", 1);
    unsetenv("OMP_AFFINITY_FORMAT");
    unsetenv("OMP_PROC_BIND");
    execv("/proc/self/exe", argv);
    CHECK(!"execv");
  }
  format_choices();
  CHECK(omp_get_num_places() == 2);

  char out[] = "/tmp/affinity_display.XXXXXX", err[] = "/tmp/affinity_display.XXXXXX";
  fflush(stdout);
  fflush(stderr);
  int save_out = dup(1), save_err = dup(2);
  CHECK(save_out >= 0 && save_err >= 0);
  catch_fd(1, out);
  catch_fd(2, err);
  omp_set_affinity_format("AFFTEST %n %A");
  int on_out[4], on_err[4], ran = 0;
  for (int r = 0; r < 4; r++) { /* (an empty region would be optimised away) */
    if (r == 3) omp_set_affinity_format("AFFTEST %A %n");
    if (r < 2) {
#pragma omp parallel num_threads(2) proc_bind(close)
      __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
    } else {
#pragma omp parallel num_threads(2) proc_bind(master)
      __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
    }
    fflush(stdout);
    on_out[r] = count_lines(out, "AFFTEST ");
    on_err[r] = count_lines(err, "AFFTEST ");
  }
  CHECK(dup2(save_out, 1) == 1 && dup2(save_err, 2) == 2);
  unlink(out);
  unlink(err);
  CHECK(ran == 8);
  CHECKF(on_out[0] == (CLANG ? 2 : 0) && on_err[0] == (CLANG ? 0 : 2),
         "first region: %d lines on stdout, %d on stderr", on_out[0], on_err[0]);
  int n1 = on_out[1] + on_err[1], n2 = on_out[2] + on_err[2], n3 = on_out[3] + on_err[3];
  CHECKF(n1 == 2 && n2 == 4 && n3 == 4, "lines after the second, third, fourth regions: %d %d %d",
         n1, n2, n3);
  return 0;
}
