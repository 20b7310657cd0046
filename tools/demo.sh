#!/usr/bin/env bash
# make demo: build tomp and tomp-prof, run the bundled examples (plain `gcc -fopenmp`
# programs, linked against the system libgomp as any user's program is) on tomp, then profile
# one of them with tomp-prof and print its report.
# On a fresh Debian 12 machine it first installs what the build needs (as root; otherwise it
# says what is missing): gcc, make, and elfutils' libdw + zlib for tomp-prof's report.
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
DEBS="gcc make libc6-dev libdw-dev zlib1g-dev"
source tools/debs.sh
# shellcheck disable=SC2086
need_debs demo 1 $DEBS

mkdir -p "$B"
make --no-print-directory -j2 all examples >"$B/demo-build.log" 2>&1 ||
  { tail -20 "$B/demo-build.log"; echo "demo: build failed (log $B/demo-build.log)"; exit 1; }

export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
for x in "$B"/examples/*; do
  case $x in *.out) continue ;; esac
  echo "== $x (built with gcc -fopenmp), run with LD_LIBRARY_PATH=$B/lib"
  LD_LIBRARY_PATH="$PWD/$B/lib" "$x" >"$x.out" 2>&1
  rc=$?
  cat "$x.out"
  [ $rc -eq 0 ] || { echo "demo: $x failed ($rc)"; exit 1; }
  grep -q '(tomp)$' "$x.out" || { echo "demo: $x did not run on tomp"; exit 1; }
done

# The same program under the profiler: tomp-prof record runs it on tomp with the OMPT tool
# attached, report shows the user-model call tree, the threads and the parallel regions.
data=$B/demo-prof
rm -rf "$data"
echo
echo "== $B/tomp-prof record -o $data -- $B/examples/task_sort"
"$B/tomp-prof" record -o "$data" -- "$B/examples/task_sort" || { echo "demo: tomp-prof record failed"; exit 1; }
echo
echo "== $B/tomp-prof report $data"
"$B/tomp-prof" report "$data" || { echo "demo: tomp-prof report failed"; exit 1; }
echo
echo "demo: other views of the same data: $B/tomp-prof report $data --format folded|speedscope|pprof|chrome -o FILE"
