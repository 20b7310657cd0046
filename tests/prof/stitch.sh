#!/usr/bin/env bash
# Stitching at the edges of nested regions: rep_forkjoin forks and joins a nested region
# (2 x 2 threads, tiny bodies) for a second, recorded at 2 kHz, so that hundreds of samples
# fall on a thread forking, joining or starting the inner region.  An implicit task is
# current before its implicit_task callback gives it its region's context; a sample there
# used to keep context 0 and was rooted at the outer outlined body (about 4% of the time on
# tomp here; 1 sample in ~150 in prof_report's rep_nested).  Every sample must now read
# main;outer;... when it is in inner or tiny, and be rooted at main (or be idle, or in the
# runtime's own code: `omp ...`) otherwise.  On tomp, and on
# LLVM's libomp when clang is installed.
source "$(dirname "$0")/rep_common.sh"
runtimes=tomp
if command -v clang >/dev/null && echo 'int main(void){return 0;}' | clang -fopenmp -x c - -o "$W/c" 2>/dev/null; then
  runtimes="tomp libomp"
fi
for rt in $runtimes; do
  cc=gcc
  [ $rt = libomp ] && cc=clang
  $cc -fopenmp -O2 -g -fomit-frame-pointer -Wall "$ROOT/tests/prof/rep_forkjoin.c" -o "$W/fj_$cc" || fail "build ($cc)"
  record "$W/fj_$cc.d" -F 2000 --runtime $rt -- "$W/fj_$cc"
  folded "$W/fj_$cc.d" "$W/fj_$cc.txt"
  total=$(sum "$W/fj_$cc.txt" '.')
  bad=$(awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s)
               if (s !~ /^(main|omp )/ || (s ~ /;(inner|tiny)(;|$)/ && s !~ /^main;outer;/)) t += n }
               END { print t + 0 }' "$W/fj_$cc.txt")
  echo "$rt: $bad of $total us misplaced"
  grep -E '^([^mo]|m[^a]|o[^m])|;(inner|tiny)( |;)' "$W/fj_$cc.txt" | grep -vE '^main;outer;' | sort -t' ' -k2 -nr | head -5
  [ "$total" -gt 0 ] || fail "$rt: no samples"
  # tomp: none.  libomp: one sample in ~8,000 (503 us of 4 s, a sample in libomp's code
  # under inner, rooted at the outer outlined body) was seen once at a load average of ~10;
  # libomp's answers at a region's edge are its own: up to 0.1% there
  limit=0
  [ $rt = libomp ] && limit=$((total / 1000))
  [ "$bad" -le "$limit" ] || fail "$rt: samples in inner or tiny not under main;outer, or not rooted at main ($bad us, at most $limit)"
done
echo "prof_stitch: ok"
