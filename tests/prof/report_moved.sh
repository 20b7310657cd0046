#!/usr/bin/env bash
# The report's arrays move while it reads them (b8a4ac9: `report --format otf2` read a
# location through a pointer taken before a call that added a location and moved the array,
# and crashed in construct_name on a CI recording of rec_lock).  Under TOMP_PROF_TEST_MOVE=1
# every growth of the report's arrays (locations, strings, stacks, samples, threads, ...)
# moves them and poisons the old copy, so any such stale read crashes or shows: each view of
# rec_lock and rep_nested recorded with --trace (creation contexts, named construct bodies,
# blame, trace events) must come out the same as without it.  Failed before b8a4ac9 (checked:
# the chrome view named rec_lock's region 'omp parallel in main', not 'omp parallel @
# rec_lock.c:70 in main', read from the poisoned copy).
source "$(dirname "$0")/rep_common.sh"
build rec_lock
build rep_nested
OMP_NUM_THREADS=2 record "$W/l" --trace -- "$W/rec_lock"
record "$W/n" --trace -- "$W/rep_nested"
formats="text folded chrome speedscope pprof html"
command -v otf2-print >/dev/null && formats="$formats otf2"
for d in l n; do
  for f in $formats; do
    for mode in 0 1; do
      out=$W/$d.$f.$mode
      rc=0
      TOMP_PROF_TEST_MOVE=$mode "$PROF" report "$W/$d" --format "$f" -o "$out" >"$out.log" 2>&1 || rc=$?
      if [ "$f" = otf2 ] && grep -q 'built without OTF2' "$out.log"; then continue 2; fi
      [ $rc = 0 ] || { cat "$out.log"; fail "report $d --format $f with TOMP_PROF_TEST_MOVE=$mode exited $rc"; }
      if [ "$f" = otf2 ]; then
        otf2-print "$out/traces.otf2" >"$out.print" 2>&1 || fail "otf2-print $d (TOMP_PROF_TEST_MOVE=$mode)"
      fi
    done
    a=$W/$d.$f.0 b=$W/$d.$f.1
    [ "$f" = otf2 ] && { a=$a.print b=$b.print; }
    # the HTML page and the otf2 archive name where they were written: compare without it
    cmp -s <(sed "s|$W/$d\.$f\.[01]|OUT|g" "$a") <(sed "s|$W/$d\.$f\.[01]|OUT|g" "$b") || {
      diff <(sed "s|$W/$d\.$f\.[01]|OUT|g" "$a") <(sed "s|$W/$d\.$f\.[01]|OUT|g" "$b") | head -20
      fail "report $d --format $f differs when the arrays move"
    }
    echo "$d --format $f: the same with moving arrays ($(wc -c <"$a") bytes)"
  done
done
echo "prof_report_moved: ok"
