#!/bin/bash
# Task memory: allocator calls behind the tasks of tests/task_uts.c (a uts-like tree of tiny
# untied tasks, about a million with the default root of 30000 children), counted by
# bench/malloc-count.c, on tomp, libgomp and libomp, at 1, 2 and 4 threads.  Counts, not
# times: load does not change what they mean.  docs/benchmarks.md, "Task memory".
#
#   bench/task-memory.sh [ROOT_CHILDREN]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
R=${1:-30000}
B=$ROOT/build/bench/task-memory
mkdir -p "$B"
make -s -j2 >/dev/null || { echo "task-memory.sh: build failed" >&2; exit 1; }
gcc -fopenmp -O2 -Itests tests/task_uts.c -o "$B/uts" &&
  gcc -O2 -fPIC -shared bench/malloc-count.c -o "$B/malloc-count.so" || exit 1
KMP_LIB=/usr/lib/llvm-14/lib/libomp.so.5
declare -A LIB=([tomp]=$ROOT/build/libtomp.so [libgomp]=/usr/lib/x86_64-linux-gnu/libgomp.so.1
                [libomp]=$KMP_LIB)
printf '| runtime | threads | tasks | malloc | calloc | realloc | aligned | free | calls per task |\n'
printf '|---|--:|--:|--:|--:|--:|--:|--:|--:|\n'
for rt in tomp libgomp libomp; do
  [ -e "${LIB[$rt]}" ] || { echo "| $rt | n/a: ${LIB[$rt]} missing |"; continue; }
  mkdir -p "$B/$rt" && ln -sfn "${LIB[$rt]}" "$B/$rt/libgomp.so.1"
  for t in 1 2 4; do
    out=$(env LD_LIBRARY_PATH="$B/$rt" LD_PRELOAD="$B/malloc-count.so" OMP_NUM_THREADS=$t \
      "$B/uts" "$R" 1 2>&1)
    nodes=$(sed -n 's/^task_uts: \([0-9]*\) nodes.*/\1/p' <<<"$out")
    line=$(grep '^malloc-count:' <<<"$out")
    [ -n "$nodes" ] && [ -n "$line" ] || { echo "| $rt | $t | failed: $(tail -1 <<<"$out") |"; continue; }
    awk -v rt=$rt -v t=$t -v n="$nodes" '{for (i = 2; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}
      c = v["malloc"] + v["calloc"] + v["realloc"] + v["aligned"]
      printf "| %s | %d | %d | %d | %d | %d | %d | %d | %.4f |\n", rt, t, n, v["malloc"], v["calloc"], v["realloc"], v["aligned"], v["free"], c / n}' <<<"$line"
  done
done
