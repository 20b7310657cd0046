/* no_perf ERRNO PROGRAM [ARGS...]: runs PROGRAM where perf_event_open(2) fails with ERRNO
 * (EACCES, EPERM or ENOSYS), as in a container whose seccomp profile forbids it: a seccomp
 * filter answers that system call with the error, every other call is allowed.  The tests
 * use it to check tomp-prof's message and its fallback to the timer. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: no_perf EACCES|EPERM|ENOSYS PROGRAM [ARGS...]\n", stderr);
    return 2;
  }
  int err = !strcmp(argv[1], "EACCES") ? EACCES : !strcmp(argv[1], "ENOSYS") ? ENOSYS : EPERM;
  struct sock_filter prog[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog fp = {sizeof prog / sizeof prog[0], prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp)) {
    perror("no_perf: seccomp");
    return 77;
  }
  execvp(argv[2], argv + 2);
  perror("no_perf: exec");
  return 127;
}
