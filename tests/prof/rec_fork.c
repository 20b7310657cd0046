/* tomp-prof recorder test: the program forks after a parallel region; the child runs a region
 * of its own and exits normally.  The child must not write into the parent's data file (it
 * records nothing), and the parent's file must stay complete. */
#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) double fork_work(long n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (long i = 0; i < n; i++) s += (double)i / (double)(i + 3);
  return s;
}

int main(void) {
  double s = fork_work(20000000);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    double c = fork_work(20000000);
    return c > 0 ? 0 : 1;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  s += fork_work(20000000);
  printf("sum %g child %d\n", s, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
