/* tomp-prof record: run a program with libtomp-prof.so attached through OMP_TOOL_LIBRARIES
 * and say where its data went.
 *   --runtime tomp     (default) tomp's libgomp.so.1 (<dir of tomp-prof>/lib) first on
 *                      LD_LIBRARY_PATH: gcc -fopenmp programs run on tomp
 *   --runtime libomp   clang -fopenmp programs: they load LLVM's libomp themselves, which
 *   --runtime system   reads OMP_TOOL_LIBRARIES too; the library path is left alone */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tomp-prof.h"
#include "tp-format.h"

static int record_usage(void) {
  fputs("usage: tomp-prof record [-F HZ] [-o DIR] [--trace] [--counters LIST] [--sample-on EVENT:N]\n"
        "                        [--runtime tomp|libomp|system] -- PROGRAM [ARGS...]\n"
        "  -F HZ        samples per second per thread (default 200)\n"
        "  -o DIR       where the data files go (default ./tomp-prof-data)\n"
        "  --trace      also record OpenMP events (regions, tasks, waits, locks)\n"
        "  --counters LIST  perf counters per sample, e.g. cycles,instructions,cache-misses\n"
        "               (at most 4; software events: task-clock, page-faults, context-switches...)\n"
        "  --sample-on EVENT:N  sample each thread every N events of EVENT (e.g. cycles:10000000)\n"
        "               instead of the timer; where the kernel refuses, the timer samples\n"
        "  --runtime R  tomp (default: gcc programs run on tomp), libomp or system (leave the\n"
        "               program's own runtime; clang -fopenmp programs load LLVM's libomp)\n",
        stderr);
  return 2;
}

static int mkdir_p(const char *dir) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, 0777) && errno != EEXIST) return -1;
  struct stat st;
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* The END record of a data file, if it has one. */
static int read_end(const char *path, tp_end_t *end) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  tp_rec_t h;
  int found = 0;
  while (fread(&h, sizeof h, 1, f) == 1) {
    if (h.size < sizeof h || h.size % 8) break;
    if (h.type == TP_REC_END && h.size >= sizeof(tp_rec_t) + 32) {
      memset(end, 0, sizeof *end);
      end->h = h;
      size_t want = h.size < sizeof *end ? h.size : sizeof *end;
      found = fread((char *)end + sizeof h, want - sizeof h, 1, f) == 1;
      break;
    }
    if (fseek(f, h.size - sizeof h, SEEK_CUR)) break;
  }
  fclose(f);
  return found;
}

static int report_files(const char *dir, pid_t pid) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  char suffix[64];
  snprintf(suffix, sizeof suffix, ".%ld.dat", (long)pid);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name), sl = strlen(suffix);
    if (strncmp(e->d_name, "tomp-prof.", 10) || len < sl || strcmp(e->d_name + len - sl, suffix))
      continue;
    char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    tp_end_t end;
    if (read_end(path, &end))
      fprintf(stderr,
              "tomp-prof: wrote %s (%llu samples from %llu threads, %llu lost, %llu contexts)\n",
              path, (unsigned long long)end.samples, (unsigned long long)end.threads,
              (unsigned long long)end.lost, (unsigned long long)end.contexts);
    else
      fprintf(stderr, "tomp-prof: wrote %s (incomplete: the program ended before the tool's "
                      "finalize, e.g. by a signal or _exit)\n", path);
    n++;
  }
  closedir(d);
  return n;
}

int tp_cmd_record(int argc, char **argv) {
  const char *dir = "tomp-prof-data", *runtime = "tomp", *counters = NULL, *sample_on = NULL;
  long hz = 200;
  int trace = 0, i;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    } else if (!strcmp(a, "-F") && i + 1 < argc) {
      char *end;
      hz = strtol(argv[++i], &end, 10);
      if (*end || hz < 1 || hz > 10000) {
        fprintf(stderr, "tomp-prof record: -F '%s' is not a rate in 1..10000 Hz\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      dir = argv[++i];
    } else if (!strcmp(a, "--trace")) {
      trace = 1;
    } else if (!strcmp(a, "--counters") && i + 1 < argc) {
      counters = argv[++i];
    } else if (!strcmp(a, "--sample-on") && i + 1 < argc) {
      sample_on = argv[++i];
    } else if (!strcmp(a, "--runtime") && i + 1 < argc) {
      runtime = argv[++i];
      if (strcmp(runtime, "tomp") && strcmp(runtime, "libomp") && strcmp(runtime, "system")) {
        fprintf(stderr, "tomp-prof record: --runtime '%s' is not tomp, libomp or system\n", runtime);
        return 2;
      }
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      record_usage();
      return 0;
    } else if (a[0] == '-') {
      fprintf(stderr, "tomp-prof record: unknown option '%s'\n", a);
      return record_usage();
    } else {
      break; /* the program, without a "--" */
    }
  }
  if (i >= argc) return record_usage();

  char tool[PATH_MAX], absdir[PATH_MAX], buf[64];
  snprintf(tool, sizeof tool, "%s/libtomp-prof.so", tp_self_dir());
  if (access(tool, R_OK)) {
    fprintf(stderr, "tomp-prof record: %s is missing (build it with `make prof`)\n", tool);
    return 1;
  }
  if (mkdir_p(dir) || !realpath(dir, absdir)) {
    fprintf(stderr, "tomp-prof record: cannot create the directory %s (%s)\n", dir, strerror(errno));
    return 1;
  }
  setenv("OMP_TOOL_LIBRARIES", tool, 1);
  setenv("TOMP_PROF_DIR", absdir, 1);
  snprintf(buf, sizeof buf, "%ld", hz);
  setenv("TOMP_PROF_HZ", buf, 1);
  setenv("TOMP_PROF_TRACE", trace ? "1" : "0", 1);
  /* the tool checks the names (one message for unknown ones or what the kernel refuses) */
  if (counters) setenv("TOMP_PROF_COUNTERS", counters, 1);
  else unsetenv("TOMP_PROF_COUNTERS");
  if (sample_on) setenv("TOMP_PROF_SAMPLE_ON", sample_on, 1);
  else unsetenv("TOMP_PROF_SAMPLE_ON");
  if (!strcmp(runtime, "tomp")) {
    char lib[PATH_MAX + 8];
    snprintf(lib, sizeof lib, "%s/lib", tp_self_dir());
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    if (!path) return 1;
    snprintf(path, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", path, 1);
    free(path);
  }

  pid_t pid = fork();
  if (pid < 0) {
    perror("tomp-prof record: fork");
    return 1;
  }
  if (pid == 0) {
    execvp(argv[i], argv + i);
    fprintf(stderr, "tomp-prof record: cannot run %s: %s\n", argv[i], strerror(errno));
    _exit(127);
  }
  /* Ctrl-C goes to the program; we stay to say where the data went */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!report_files(absdir, pid)) {
    fprintf(stderr, "tomp-prof: no data file from %s in %s: the tool was not loaded. ", argv[i], absdir);
    if (!strcmp(runtime, "tomp"))
      fprintf(stderr, "Is the program an OpenMP program (gcc -fopenmp), dynamically linked to "
                      "libgomp.so.1? OMP_TOOL=disabled in the environment also prevents it.\n");
    else
      fprintf(stderr, "The program's OpenMP runtime must support OMPT (LLVM's libomp does; GCC's "
                      "libgomp does not: use --runtime tomp for gcc programs).\n");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    fprintf(stderr, "tomp-prof: the program was killed by signal %d\n", WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return 1;
}
