/* tomp-prof: a sampling profiler for OpenMP programs, built on OMPT.
 *   tomp-prof record [-F HZ] [-o DIR] [--trace] -- ./app args...
 *   tomp-prof report [DIR|FILE...] [--format text|folded|speedscope|pprof|chrome] [-o FILE]
 *   tomp-prof html [DIR|FILE...] [-o FILE]   (report --format html; default tomp-prof.html)
 *   tomp-prof diff A B           (what changed between two recordings)
 *   tomp-prof dump FILE          (the records of a data file, for debugging) */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tomp-prof.h"

const char *tp_self_dir(void) {
  static char dir[PATH_MAX];
  if (!dir[0]) {
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) return ".";
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
  }
  return dir;
}

static int usage(FILE *f) {
  fputs("usage: tomp-prof record [-F HZ] [-o DIR] [--trace] [--runtime tomp|libomp|system] -- PROGRAM [ARGS...]\n"
        "       tomp-prof report [DIR|FILE...] [--format text|folded|speedscope|pprof|chrome] [-o FILE]\n"
        "       tomp-prof html [DIR|FILE...] [-o FILE]   (one page for a browser; default tomp-prof.html)\n"
        "       tomp-prof diff A B [--metric M] [--top N]\n"
        "       tomp-prof dump FILE\n",
        f);
  return f == stderr ? 2 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  const char *cmd = argv[1];
  if (!strcmp(cmd, "record")) return tp_cmd_record(argc - 1, argv + 1);
  if (!strcmp(cmd, "report")) return tp_cmd_report(argc - 1, argv + 1);
  if (!strcmp(cmd, "html")) return tp_cmd_html(argc - 1, argv + 1);
  if (!strcmp(cmd, "dump")) return tp_cmd_dump(argc - 1, argv + 1);
  if (!strcmp(cmd, "diff")) return tp_cmd_diff(argc - 1, argv + 1);
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) return usage(stdout);
  fprintf(stderr, "tomp-prof: unknown command '%s'\n", cmd);
  return usage(stderr);
}
