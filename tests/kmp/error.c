/* The error directive's entry point (clang 16 on emits it; clang 14 has no error directive, so
 * the test calls it as such code does): severity 1 (warning) prints and continues, severity 2
 * (fatal) ends the program with a failure status.  The warning's text is libomp's (clang-built
 * programs' users and LLVM's ompt/misc/runtime_error match "OMP: Warning"): tomp printed
 * libgomp's before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.h"

typedef struct ident ident_t;
void __kmpc_error(ident_t *loc, int severity, const char *message);

int main(void) {
  /* the warning goes to stderr: catch it in a file */
  FILE *f = tmpfile();
  CHECK(f);
  fflush(stderr);
  int saved = dup(2);
  CHECK(saved >= 0 && dup2(fileno(f), 2) == 2);
  __kmpc_error(NULL, 1, "a warning the test expects");
  fflush(stderr);
  CHECK(dup2(saved, 2) == 2);
  char text[256] = "";
  rewind(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  CHECKF(strstr(text, "OMP: Warning #283: unknown: Encountered user-directed warning: a warning "
                      "the test expects.") != NULL,
         "stderr: '%s'", text);
  fflush(stdout);
  pid_t p = fork();
  CHECK(p >= 0);
  if (p == 0) {
    __kmpc_error(NULL, 2, "a fatal error the test expects");
    _exit(0); /* not reached when the runtime terminates the program */
  }
  int st;
  CHECK(waitpid(p, &st, 0) == p);
  CHECK(!(WIFEXITED(st) && WEXITSTATUS(st) == 0));
  return 0;
}
