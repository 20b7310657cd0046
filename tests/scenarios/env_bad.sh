#!/usr/bin/env bash
# Every malformed value of every environment variable tomp reads: the program still runs
# (exit 0), prints exactly one "tomp: VAR='value' ..." line on stderr, and every ICV keeps its
# default (the probe's output equals the run without the variable).
set -u
B=${TOMP_BUILD:-build}
OUT=${TEST_OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
probe=$OUT/env_probe
gcc -fopenmp -O2 "$here/env_probe.c" -o "$probe" || exit 1
run() { env "$@" LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$probe"; }

base=$(run 2>"$OUT/env_bad.base.err") || { echo "baseline run failed"; exit 1; }
[ -s "$OUT/env_bad.base.err" ] && { echo "baseline printed messages:"; cat "$OUT/env_bad.base.err"; exit 1; }

fails=0 count=0
check() { # VAR VALUE
  local var=$1 val=$2 out rc
  count=$((count+1))
  out=$(run "$var=$val" 2>"$OUT/env_bad.err"); rc=$?
  local nlines; nlines=$(wc -l <"$OUT/env_bad.err")
  local first; first=$(head -1 "$OUT/env_bad.err")
  if [ $rc -ne 0 ]; then echo "FAIL $var='$val': exit $rc"; fails=$((fails+1)); return; fi
  if [ "$nlines" -ne 1 ]; then
    echo "FAIL $var='$val': $nlines message lines:"; sed 's/^/    /' "$OUT/env_bad.err"; fails=$((fails+1)); return
  fi
  case "$first" in
    "tomp: $var='$val'"*) ;;
    *) echo "FAIL $var='$val': message does not name the variable and value: $first"; fails=$((fails+1)); return ;;
  esac
  if [ "$out" != "$base" ]; then
    echo "FAIL $var='$val': ICVs differ from the defaults:"; diff <(echo "$base") <(echo "$out") | sed 's/^/    /'
    fails=$((fails+1)); return
  fi
}

# classes every variable must refuse: not a number/keyword, empty, negative, overflow,
# trailing junk
generic=("abc" "" "-1" "99999999999999999999" "4abc" " 4 x")
for var in OMP_NUM_THREADS OMP_SCHEDULE OMP_DYNAMIC OMP_NESTED OMP_MAX_ACTIVE_LEVELS \
           OMP_THREAD_LIMIT OMP_STACKSIZE GOMP_STACKSIZE OMP_WAIT_POLICY GOMP_SPINCOUNT OMP_PROC_BIND OMP_PLACES \
           OMP_DISPLAY_ENV OMP_DISPLAY_AFFINITY OMP_CANCELLATION OMP_DEFAULT_DEVICE \
           OMP_MAX_TASK_PRIORITY OMP_NUM_TEAMS OMP_TEAMS_THREAD_LIMIT OMP_TARGET_OFFLOAD \
           GOMP_CPU_AFFINITY; do
  for v in "${generic[@]}"; do check "$var" "$v"; done
done

# variable-specific classes: zero where positive is required, bad lists, unknown keywords,
# bad suffixes, bad modifiers
for v in 0 "2,,3" "2," ",2" "2;3" "2 3" "3,0" "1.5"; do check OMP_NUM_THREADS "$v"; done
for v in "dynamic," "dynamic,0" "dynamic,-2" "monotonic:" "bogus:dynamic" "static,4x" \
         "dynamic,99999999999" "dynamic:4" "static;4" "dyn"; do check OMP_SCHEDULE "$v"; done
for v in "close," "close,,spread" "true,close" "close false" "spread,bogus" "false,false" \
         "spreadclose"; do check OMP_PROC_BIND "$v"; done
for v in "{0,1" "{0:0}" "cores(0)" "threads(x)" "cores(2" "{0}:2:" "{}" "{0}," "{0};{1}" \
         "{99999}" "sockets(1)x" "{0}:0" "{0:2:}" "!" "{!}" "{-1}" "cores()" "bogus(2)"; do
  check OMP_PLACES "$v"; done
for v in 0 "4Q" "4 K x" "99999999999G" "K" "4KB" "0M"; do check OMP_STACKSIZE "$v"; done
for v in "activ" "active,passive" "ACTIVE PASSIVE"; do check OMP_WAIT_POLICY "$v"; done
for v in "10x" "infinit" "99999999999T" "1kk"; do check GOMP_SPINCOUNT "$v"; done
for v in "%z" "x %{bogus}" "%{thread_num"; do check OMP_AFFINITY_FORMAT "$v"; done
check OMP_AFFINITY_FORMAT ""
for v in "verbos" "1" "true,verbose"; do check OMP_DISPLAY_ENV "$v"; done
for v in "1" "yes" "truex" "on"; do
  for var in OMP_DYNAMIC OMP_NESTED OMP_CANCELLATION OMP_DISPLAY_AFFINITY; do check "$var" "$v"; done
done
for v in "1.5" "0x10"; do check OMP_DEFAULT_DEVICE "$v"; check OMP_MAX_TASK_PRIORITY "$v"; done
for v in "2x" "0x2"; do check OMP_MAX_ACTIVE_LEVELS "$v"; done
for v in "mandatory,default" "enabled" "mandatoryx" "1"; do check OMP_TARGET_OFFLOAD "$v"; done
for v in "0,,1" "0," ",0" "1-0" "0-1:0" "0-" "0:2" "0x1" "0 - 1" "0;1" "{0}" "99999" \
         "0-99999999"; do check GOMP_CPU_AFFINITY "$v"; done
for v in 0; do check OMP_THREAD_LIMIT "$v"; check OMP_NUM_TEAMS "$v"; check OMP_TEAMS_THREAD_LIMIT "$v"; done

echo "$count bad values checked, $fails failures"
[ $fails -eq 0 ]
