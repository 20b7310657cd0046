/* The error directive's entry point (clang 16 on emits it; clang 14 has no error directive, so
 * the test calls it as such code does): severity 1 (warning) prints and continues, severity 2
 * (fatal) ends the program with a failure status. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.h"

typedef struct ident ident_t;
void __kmpc_error(ident_t *loc, int severity, const char *message);

int main(void) {
  __kmpc_error(NULL, 1, "a warning the test expects");
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
