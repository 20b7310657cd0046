#!/usr/bin/env bash
# Task memory comes back to the thread that needs it without the system allocator: the
# uts-like tree of tests/task_uts.c (about a million tiny untied tasks, mostly freed by a
# thread other than their creator) at 2 and 4 threads, under bench/malloc-count.c, must make
# fewer allocator calls than 1 per 100 tasks (libgomp 12 makes 0.016 and 0.08 per task there:
# this check fails on it).  Not on the sanitizer builds: their allocator would be counted.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/task_memory
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${SANLIB:-}" ]; then echo "skip: the sanitizer's allocator would be counted"; exit 77; fi
rm -rf "$W"; mkdir -p "$W"
gcc -fopenmp -O2 -I"$ROOT/tests" "$ROOT/tests/task_uts.c" -o "$W/uts" || exit 1
gcc -O2 -fPIC -shared "$ROOT/bench/malloc-count.c" -o "$W/malloc-count.so" || exit 1
fails=0
for t in 2 4; do
  if ! env LD_LIBRARY_PATH="$B/lib" LD_PRELOAD="$W/malloc-count.so" OMP_NUM_THREADS=$t \
      timeout -k 5 300 "$W/uts" 30000 1 >"$W/out.$t" 2>"$W/err.$t"; then
    echo "FAIL $t threads: the program failed"; cat "$W/err.$t"; fails=$((fails + 1)); continue
  fi
  nodes=$(sed -n 's/^task_uts: \([0-9]*\) nodes.*/\1/p' "$W/out.$t")
  calls=$(awk '/^malloc-count:/ {for (i = 2; i <= NF; i++) {split($i, kv, "="); if (kv[1] != "free") n += kv[2]}; print n}' "$W/err.$t")
  if [ -z "$nodes" ] || [ -z "$calls" ]; then
    echo "FAIL $t threads: no count"; cat "$W/out.$t" "$W/err.$t"; fails=$((fails + 1))
  elif [ "$calls" -ge $((nodes / 100)) ]; then
    echo "FAIL $t threads: $calls allocator calls for $nodes tasks"; fails=$((fails + 1))
  else
    echo "ok   $t threads: $calls allocator calls for $nodes tasks"
  fi
done
[ $fails -eq 0 ]
