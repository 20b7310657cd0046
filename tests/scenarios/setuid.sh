#!/usr/bin/env bash
# Secure execution (set-user-ID programs): an unprivileged user who runs a setuid-root
# gcc -fopenmp program on tomp must not make it write a file or load code of the user's
# choosing through tomp's variables or tomp-prof's.  Creates a user (useradd; removed at the
# end), installs setuid-root copies of a program (one linked with tomp only, one with
# libtomp-prof.so too) with tomp beside them (absolute RUNPATH: the loader ignores
# LD_LIBRARY_PATH in secure-execution mode), runs them as that user with
#   OMP_TOOL_VERBOSE_INIT=<existing root file, mode 600> and =<new path>,
#   OMP_TOOL_LIBRARIES=<a library whose constructor would create a file>,
#   TOMP_PROF_DIR=<a directory>,
# and checks that nothing was created or changed; OMP_TOOL_VERBOSE_INIT=stderr still logs,
# and says what it ignored.  Needs root (exit 77 otherwise, as when the program does not
# run in secure-execution mode, e.g. on a nosuid mount).
set -u
B=$(cd "${TOMP_BUILD:-build}" && pwd)
skip() { echo "$*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root to create a user and a setuid-root program"
[ -n "${SANLIB:-}" ] && skip "sanitizer runtimes are not loaded into setuid programs (LD_PRELOAD is ignored)"
for c in useradd userdel setpriv; do command -v $c >/dev/null || skip "$c is missing"; done
[ -e "$B/libtomp.so" ] || { echo "no $B/libtomp.so"; exit 1; }

user=tompsu$$
dir=$(mktemp -d "${TMPDIR:-/tmp}/tomp-setuid.XXXXXX") || exit 1
cleanup() { userdel "$user" >/dev/null 2>&1; rm -rf "$dir"; }
trap cleanup EXIT
useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || { echo "useradd failed"; exit 1; }
chmod 755 "$dir"
mkdir -m 755 "$dir/lib" "$dir/bin"
mkdir -m 777 "$dir/out" # where a confused runtime could write: anyone may create files here
cp "$B/libtomp.so" "$dir/lib/libgomp.so.1"
have_prof=0
if [ -e "$B/libtomp-prof.so" ]; then cp "$B/libtomp-prof.so" "$dir/lib/"; have_prof=1; fi

cat >"$dir/prog.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n++;
  printf("secure=%lu euid=%d uid=%d threads=%d\n", getauxval(AT_SECURE), (int)geteuid(),
         (int)getuid(), n);
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  while (f && fgets(line, sizeof line, f))
    if (strstr(line, "libgomp") || strstr(line, "libtomp")) {
      char *p = strchr(line, '/');
      if (p) printf("mapped %s", p);
      break;
    }
  return 0;
}
C
# a "tool" whose mere loading creates a file
cat >"$dir/evil.c" <<C
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void loaded(void) {
  int fd = open("$dir/out/evil-loaded", O_WRONLY | O_CREAT, 0644);
  if (fd >= 0) close(fd);
}
C
gcc -fopenmp -O2 "$dir/prog.c" -o "$dir/bin/prog" -L"$dir/lib" -Wl,-rpath,"$dir/lib" || exit 1
gcc -shared -fPIC -O2 "$dir/evil.c" -o "$dir/lib/evil.so" || exit 1
progs=prog
if [ $have_prof = 1 ]; then
  gcc -fopenmp -O2 "$dir/prog.c" -o "$dir/bin/prog-prof" -L"$dir/lib" -Wl,--no-as-needed \
    "$dir/lib/libtomp-prof.so" -Wl,--as-needed -Wl,-rpath,"$dir/lib" || exit 1
  progs="prog prog-prof"
fi
for p in $progs; do chown root:root "$dir/bin/$p" && chmod 4755 "$dir/bin/$p"; done

# root's files the user must not be able to touch
printf 'root secret\n' >"$dir/victim"
chmod 600 "$dir/victim"
victim_sum=$(stat -c '%s %a %U %Y' "$dir/victim")$(md5sum <"$dir/victim")

touch "$dir/.start" # what the runs below create is newer
as_user() { # VAR=value... program: run as the user, stdout+stderr in $dir/run.log; the
  # working directory is $dir/out, where anything written to "." would show
  (cd "$dir/out" && setpriv --reuid="$user" --regid=nogroup --clear-groups \
    env -i PATH=/usr/bin:/bin "$@") >"$dir/run.log" 2>&1
}
fail=0
bad() { echo "FAIL: $*"; sed 's/^/    | /' "$dir/run.log"; fail=1; }

as_user "$dir/bin/prog" || { cat "$dir/run.log"; echo "the setuid program does not run"; exit 1; }
grep -q '^secure=1 euid=0 ' "$dir/run.log" ||
  skip "the setuid program did not run in secure-execution mode as root ($(head -1 "$dir/run.log"))"
grep -q "^mapped $dir/lib/libgomp.so.1" "$dir/run.log" || { bad "tomp is not the runtime loaded"; exit 1; }
grep -q 'threads=2' "$dir/run.log" || bad "no team of two"

for p in $progs; do
  as_user OMP_TOOL_VERBOSE_INIT="$dir/victim" "$dir/bin/$p" || bad "$p fails with OMP_TOOL_VERBOSE_INIT=victim"
  grep -q 'OMP_TOOL_VERBOSE_INIT.*ignored' "$dir/run.log" || bad "$p: no word that the path was ignored"
  as_user OMP_TOOL_VERBOSE_INIT="$dir/out/created" "$dir/bin/$p" || bad "$p fails with OMP_TOOL_VERBOSE_INIT=new file"
  as_user OMP_TOOL_LIBRARIES="$dir/lib/evil.so" "$dir/bin/$p" || bad "$p fails with OMP_TOOL_LIBRARIES"
  as_user OMP_TOOL_VERBOSE_INIT=stderr OMP_TOOL_LIBRARIES="$dir/lib/evil.so" "$dir/bin/$p" ||
    bad "$p fails with OMP_TOOL_VERBOSE_INIT=stderr"
  grep -q 'LOGGING OF TOOL REGISTRATION' "$dir/run.log" || bad "$p: OMP_TOOL_VERBOSE_INIT=stderr does not log"
  grep -q 'OMP_TOOL_LIBRARIES ignored: secure-execution' "$dir/run.log" ||
    bad "$p: the stderr log does not say OMP_TOOL_LIBRARIES was ignored"
  as_user OMP_TOOL_VERBOSE_INIT=stdout "$dir/bin/$p" || bad "$p fails with OMP_TOOL_VERBOSE_INIT=stdout"
  grep -q 'LOGGING OF TOOL REGISTRATION' "$dir/run.log" || bad "$p: OMP_TOOL_VERBOSE_INIT=stdout does not log"
done
if [ $have_prof = 1 ]; then
  as_user TOMP_PROF_DIR="$dir/out/prof" "$dir/bin/prog-prof" || bad "prog-prof fails with TOMP_PROF_DIR"
  grep -q 'tomp-prof: .*secure-execution' "$dir/run.log" || bad "tomp-prof does not say why it does not record"
  as_user "$dir/bin/prog-prof" || bad "prog-prof fails"
  # the same program not setuid records (the tool really is there)
  cp "$dir/bin/prog-prof" "$dir/bin/prog-prof-plain" && chmod 755 "$dir/bin/prog-prof-plain" &&
    (cd "$dir" && env TOMP_PROF_DIR="$dir/plain" "$dir/bin/prog-prof-plain" >"$dir/run.log" 2>&1) ||
    bad "the tomp-prof program does not run unprivileged"
  ls "$dir/plain"/tomp-prof.*.dat >/dev/null 2>&1 || bad "tomp-prof does not record outside secure mode"
fi

now_sum=$(stat -c '%s %a %U %Y' "$dir/victim")$(md5sum <"$dir/victim")
[ "$now_sum" = "$victim_sum" ] || { echo "FAIL: the root-owned file was changed:"; ls -l "$dir/victim"; cat "$dir/victim"; fail=1; }
created=$(find "$dir" -newer "$dir/.start" -type f ! -name run.log ! -name victim ! -path "$dir/plain/*" ! -name prog-prof-plain)
[ -z "$created" ] || { echo "FAIL: files created by the setuid runs:"; ls -l $created; fail=1; }
[ $fail = 0 ] && echo ok
exit $fail
