#!/usr/bin/env bash
# Nesting controlled from the environment: OMP_NUM_THREADS lists, OMP_MAX_ACTIVE_LEVELS,
# the deprecated OMP_NESTED, OMP_THREAD_LIMIT.  A probe runs a three-level nest and prints
# what it saw; each case's expected line follows OpenMP 5.1 and is checked on the system
# libgomp too (a disagreement there means the expectation is wrong: reported as such).
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/nested
rm -rf "$W"; mkdir -p "$W"
gcc -fopenmp -O2 -x c - -o "$W/probe" <<'C' || exit 1
#include <omp.h>
#include <stdio.h>
/* prints: mal=<max active levels, capped at 9> sizes=<team sizes seen at levels 1-3 by the
   first thread of each level> leaves=<innermost implicit tasks> sum2=<threads at level 2> */
int main(void) {
  int s1 = 0, s2 = 0, s3 = 0, leaves = 0, sum2 = 0;
#pragma omp parallel
  {
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) {
#pragma omp atomic
        sum2 += omp_get_num_threads();
      }
#pragma omp parallel
      {
#pragma omp atomic
        leaves++;
        if (omp_get_ancestor_thread_num(1) == 0 && omp_get_ancestor_thread_num(2) == 0 &&
            omp_get_thread_num() == 0) {
          s1 = omp_get_team_size(1);
          s2 = omp_get_team_size(2);
          s3 = omp_get_team_size(3);
        }
      }
    }
  }
  int mal = omp_get_max_active_levels();
  printf("mal=%d sizes=%d,%d,%d leaves=%d sum2=%d\n", mal > 9 ? 9 : mal, s1, s2, s3, leaves, sum2);
  return 0;
}
C
SYSDIR=$W/system-lib; mkdir -p "$SYSDIR"
ln -sf "$(readlink -f "$(gcc -print-file-name=libgomp.so.1)")" "$SYSDIR/libgomp.so.1"
fails=0
# case ENV EXPECTED: EXPECTED is an extended regex matched against the whole probe line
case_() {
  local envs=$1 expect=$2 got lgot
  got=$(env -i PATH="$PATH" TSAN_OPTIONS="${TSAN_OPTIONS:-}" ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
          OMP_DYNAMIC=false $envs LD_LIBRARY_PATH="$B/lib" \
          ${SANLIB:+LD_PRELOAD="$SANLIB"} timeout -k 5 60 "$W/probe" 2>&1)
  lgot=$(env -i PATH="$PATH" OMP_DYNAMIC=false $envs LD_LIBRARY_PATH="$SYSDIR" timeout -k 5 60 "$W/probe" 2>&1)
  if ! [[ "$lgot" =~ ^$expect$ ]]; then
    echo "INVALID [$envs]: libgomp prints '$lgot', expected /$expect/"; fails=$((fails + 1))
  elif [[ "$got" =~ ^$expect$ ]]; then
    echo "ok   [$envs] $got"
  else
    echo "FAIL [$envs]: tomp prints '$got', expected /$expect/ (libgomp: $lgot)"; fails=$((fails + 1))
  fi
}
case_ "OMP_NUM_THREADS=3,2 OMP_MAX_ACTIVE_LEVELS=2" "mal=2 sizes=3,2,1 leaves=6 sum2=6"
case_ "OMP_NUM_THREADS=3,2,2 OMP_MAX_ACTIVE_LEVELS=3" "mal=3 sizes=3,2,2 leaves=12 sum2=6"
case_ "OMP_NUM_THREADS=2 OMP_MAX_ACTIVE_LEVELS=1" "mal=1 sizes=2,1,1 leaves=2 sum2=2"
# a list of more than one value, OMP_MAX_ACTIVE_LEVELS unset: as many active levels as
# supported; levels past the list's end use its last value
case_ "OMP_NUM_THREADS=3,2" "mal=9 sizes=3,2,2 leaves=12 sum2=6"
# OMP_NESTED=true: as many active levels as supported; the last list value repeats
case_ "OMP_NESTED=true OMP_NUM_THREADS=2" "mal=9 sizes=2,2,2 leaves=8 sum2=4"
case_ "OMP_NESTED=false OMP_NUM_THREADS=3,2" "mal=1 sizes=3,1,1 leaves=3 sum2=3"
# OMP_MAX_ACTIVE_LEVELS wins over OMP_NESTED
case_ "OMP_NESTED=true OMP_MAX_ACTIVE_LEVELS=2 OMP_NUM_THREADS=2" "mal=2 sizes=2,2,1 leaves=4 sum2=4"
# the thread limit caps the contention group: at most 4 threads at level 2 in all
# Inner teams are sized when each is created, so how many extra threads each gets depends on
# how the outer threads interleave (libgomp: 2,2,1 or 2,1,1): only the bounds are fixed.
case_ "OMP_THREAD_LIMIT=4 OMP_NUM_THREADS=3,3 OMP_MAX_ACTIVE_LEVELS=2" "mal=2 sizes=3,[12],1 leaves=[3-6] sum2=[3-6]"
echo "nested: $fails failure(s)"
[ $fails -eq 0 ]
