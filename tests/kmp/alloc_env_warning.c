/* An OMP_ALLOCATOR value that names no allocator gets a warning in libomp's form, "OMP:
 * Warning #N: ...", in a clang program (the text is the implementation's; libomp's users and
 * LLVM's env/omp_alloc_env_invalid.c look for that form), and the default allocator stays
 * omp_default_mem_alloc.  Failed before (tomp's "tomp: OMP_ALLOCATOR: ..." form).  The program
 * runs itself again with each value and its stderr in a file. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.h"

int main(int argc, char **argv) {
  (void)argc;
  if (getenv("ALLOC_ENV_WARNING_CHILD")) {
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
    return 0;
  }
  static const char *const values[] = {"111", "omp_default_mem_alloc_xyz"};
  for (int v = 0; v < 2; v++) {
    char path[] = "/tmp/alloc_env_warning.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
      dup2(fd, 2);
      setenv("ALLOC_ENV_WARNING_CHILD", "1", 1);
      setenv("OMP_ALLOCATOR", values[v], 1);
      execv("/proc/self/exe", argv);
      _exit(127);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    FILE *f = fopen(path, "r");
    CHECK(f);
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f))
      found += !strncmp(line, "OMP: Warning #", 14);
    fclose(f);
    close(fd);
    unlink(path);
    CHECKF(found == 1, "OMP_ALLOCATOR=%s: %d lines 'OMP: Warning #...'", values[v], found);
  }
  return 0;
}
