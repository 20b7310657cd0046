# Sourced by tests/scenarios/ompd_gdb*.sh: the set-up of the gdb tests of tomp's OMPD support.
#   ompd_setup NAME         skip (exit 77) unless gdb with Python, ptrace and libtompd.so are
#                           there; $W is the test's scratch directory; builds the programs
#   gdb_live LOG ARGS...    gdb in batch mode on a program started under it, with the
#                           extension and ompd-test-wait loaded; the commands are read
#                           from stdin (set pagination off etc. come first)
#   gdb_core LOG PROG CORE  the same on a core file
#   kernel_core DIR         the core file the kernel wrote in DIR (empty, and a note on
#                           stderr, if none)
#   expect LOG ERE WHAT     LOG has a line matching ERE, or the test fails saying WHAT
#   fails / bad             count the failures; finish ends the test
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=${TOMP_BUILD:?}
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
skip() { echo "$*"; exit 77; }

ompd_setup() {
  W=${TEST_OUT:-/tmp}/$1
  rm -rf "$W"; mkdir -p "$W"
  case "$(basename "$B")" in
    build) ;;
    *) skip "the gdb tests run on the release build only (a sanitizer runtime under gdb and ptrace adds nothing here)" ;;
  esac
  command -v gdb >/dev/null || skip "gdb is not installed (Debian: gdb)"
  gdb -nx -batch -ex 'python import ctypes' >/dev/null 2>&1 || skip "this gdb has no Python"
  [ -e "$B/libtompd.so" ] || skip "no $B/libtompd.so (make ompd)"
  gdb -nx -batch -ex run --args /bin/true >"$W/ptrace.log" 2>&1
  grep -q "exited normally" "$W/ptrace.log" ||
    skip "gdb cannot run a program here (ptrace not permitted?): $(tail -1 "$W/ptrace.log")"
  for src in "$ROOT"/tests/ompd/states.c "$ROOT"/tests/ompd/deadlock.c; do
    [ -e "$src" ] || continue
    gcc -fopenmp -O1 -g -Wall -o "$W/$(basename "$src" .c)" "$src" || { echo "build of $src failed"; exit 1; }
  done
}

GDB_INIT=(-nx -batch -iex "set pagination off" -iex "set confirm off" -iex "set width 0"
          -iex "set print thread-events off" -x "$ROOT/tools/gdb/tomp-ompd.py"
          -x "$ROOT/tests/ompd/ompd_wait.py")

gdb_live() { # LOG PROG ARGS... (commands on stdin)
  local log=$1; shift
  cat >"$log.cmd"
  LD_LIBRARY_PATH="$B/lib" timeout -k 5 240 gdb "${GDB_INIT[@]}" -x "$log.cmd" --args "$@" >"$log" 2>&1
  echo "== $log"; cat "$log"
}

gdb_core() { # LOG PROG CORE (commands on stdin)
  local log=$1 prog=$2 core=$3
  cat >"$log.cmd"
  LD_LIBRARY_PATH="$B/lib" timeout -k 5 120 gdb "${GDB_INIT[@]}" -x "$log.cmd" "$prog" "$core" >"$log" 2>&1
  echo "== $log"; cat "$log"
}

kernel_core() { # DIR: the core the kernel wrote there (core_pattern "core" or "core.%p")
  local c
  c=$(ls -t "$1"/core "$1"/core.* 2>/dev/null | head -1)
  [ -n "$c" ] || echo "note: the kernel wrote no core file in $1 (core_pattern $(cat /proc/sys/kernel/core_pattern)); kernel core not checked" >&2
  echo "$c"
}

expect() { # LOG ERE WHAT
  grep -Eq -- "$2" "$1" || bad "$3 (no line matching /$2/ in $1)"
}

finish() {
  if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
  echo "all checks passed"
  exit 0
}
