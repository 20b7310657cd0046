#!/usr/bin/env bash
# tomp-prof's numbers where they used to be wrong (issue 18), each on a program whose
# behaviour is known, on tomp (gcc) and on LLVM's libomp (clang-14) when installed:
#  1. conservation of undirected blame in a task program (rep_taskblame): threads that run
#     tasks inside a barrier are working; the blame charged equals the barrier wait it
#     explains (the report scales the charges per region instance to the wait sampled in it;
#     it was 0 before) and at least half of it lands on long_task (on a machine not too
#     loaded to run the program as designed);
#  2. runtime wait loops (rep_rtwait, OMP_WAIT_POLICY=passive, 4 threads on one CPU): the
#     user code does next to nothing, so work stays under 10% of thread time although the
#     runtimes report work states while they yield (tomp's join, libomp's task waits);
#     the `omp runtime wait` leaf shows it;
#  3. timer overruns (rep_loaded: 4 computing threads on one CPU, so their wall-clock timers
#     overrun): thread time adds up to threads x recorded wall time within 5%, and the report
#     says how many samples stood for more than one period;
#  4. lock blame through a tail-call release (rep_tailcall: `set; work; unset;` at -O2): the
#     directed blame lands on holder(), not on its caller;
#  5. workers after their region (rep_idle_tail: 0.3 s of 4 threads, then 0.6 s serial): idle,
#     not waiting in the region's barrier (libomp keeps naming the ended region to its waiting
#     workers; the recorder drops a region after its parallel_end);
#  and CPU time next to wall time: rep_loaded's 4 threads on one CPU used at most its wall
#  time; a thread waiting in a barrier spins with OMP_WAIT_POLICY=active (libomp: and
#  KMP_USE_YIELD=0) and sleeps with passive (rep_spin): the barrier wait's CPU time must be
#  larger spinning (on a loaded machine a spinner gets little CPU: the bar is > 2x the
#  sleeper's + 1% of the wait).
# The programs make their own load (taskset on one CPU), so other load on the machine only
# adds to it.
source "$(dirname "$0")/rep_common.sh"
command -v taskset >/dev/null || { echo "taskset (util-linux) missing"; exit 77; }
CPU=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')
LIBOMP=/usr/lib/llvm-14/lib/libomp.so.5
RUNTIMES="tomp"
command -v clang-14 >/dev/null && [ -e "$LIBOMP" ] && RUNTIMES="tomp libomp" ||
  echo "clang-14 or $LIBOMP missing: tomp only"

# text DIR: the text report's header lines
header() { "$PROF" report "$1" --min-percent 100 2>/dev/null | sed -n '2,6p'; }
# field "LINE" WORD: the number before " s" after WORD in a header line
num() { sed -E "s/.*$2 ([0-9.]+) s.*/\1/" <<<"$1"; }
us() { awk -v x="$1" 'BEGIN { printf "%d", x * 1000000 }'; }

for rt in $RUNTIMES; do
  if [ $rt = tomp ]; then cc=gcc; else cc=clang-14; fi
  for t in rep_taskblame rep_rtwait rep_loaded rep_tailcall rep_spin rep_idle_tail; do
    $cc -fopenmp -O2 -g -fomit-frame-pointer -Wall "$ROOT/tests/prof/$t.c" -o "$W/$t.$rt" || fail "build $t with $cc"
  done

  # ---- 1. blame conservation ----
  record "$W/tb.$rt" --runtime $rt -- "$W/rep_taskblame.$rt"
  time_and_blame "$W/tb.$rt" "$W/tb.$rt.f" >/dev/null
  bw=$(sum "$W/tb.$rt.f" 'omp barrier wait$')
  bt=$(sum "$W/tb.$rt.f.blame" '.')
  bl=$(sum "$W/tb.$rt.f.blame" '(^|;)long_task(;|$)')
  echo "$rt taskblame: barrier wait $bw us, blame $bt us ($bl on long_task)"
  [ "$bw" -ge 100000 ] || fail "$rt: rep_taskblame should wait in the barrier ($bw us)"
  ratio_ge "$bt" "$bw" 75 100 && ratio_ge "$bw" "$bt" 75 100 ||
    fail "$rt: blame ($bt us) should equal the barrier wait it explains ($bw us) within 25%"
  # Where it lands needs the program to behave as designed: under heavy load (other jobs on
  # the machine: load averages of 15 to 150 were seen) its threads got 4-8% of a CPU, a
  # preempted short task stretched from 10 ms to hundreds, and the short tasks outlasted
  # the long one, so the waiting was no longer mostly behind long_task.  Judged when the
  # threads got at least 10% of a CPU (the header's cpu line) and 150 samples (it failed
  # at 4-5% of a CPU and held at 8-9%: 10% leaves a margin).
  read -r ns cs ts < <("$PROF" report "$W/tb.$rt" 2>/dev/null |
    awk 'NR == 2 { n = $3 } /^cpu / { c = $2; t = $5 } END { print n + 0, c + 0, t + 0 }')
  if [ "$ns" -ge 150 ] && awk -v c="$cs" -v t="$ts" 'BEGIN { exit !(t > 0 && c >= 0.10 * t) }'; then
    ratio_ge "$bl" "$bt" 50 100 || fail "$rt: blame should land on long_task ($bl of $bt)"
  else
    echo "$rt taskblame: $ns samples, cpu $cs s of $ts s (a loaded machine): where blame lands is not judged"
  fi

  # ---- 2. runtime wait loops ----
  OMP_WAIT_POLICY=passive record "$W/rw.$rt" --runtime $rt -- taskset -c "$CPU" "$W/rep_rtwait.$rt"
  folded "$W/rw.$rt" "$W/rw.$rt.f"
  folded "$W/rw.$rt" "$W/rw.$rt.w" --metric work
  tot=$(sum "$W/rw.$rt.f" '.')
  work=$(sum "$W/rw.$rt.w" '.')
  rtw=$(sum "$W/rw.$rt.f" 'omp runtime wait$')
  echo "$rt rtwait: thread time $tot us, work $work us, omp runtime wait $rtw us"
  ratio_ge "$tot" "$work" 10 1 || fail "$rt: work ($work us of $tot) should be under 10%: runtime wait loops counted as work"
  [ "$rtw" -gt 0 ] || fail "$rt: no sample in a runtime wait loop (omp runtime wait)"
  # --fold-recursion: fib's recursion (through its task bodies) shows as one fib per path
  folded "$W/rw.$rt" "$W/rw.$rt.fold" --fold-recursion
  grep -q ';fib;.*;fib;' "$W/rw.$rt.f" || fail "$rt: rep_rtwait should show fib's recursion"
  grep -q 'fib;.*;fib[; ]' "$W/rw.$rt.fold" && fail "$rt: --fold-recursion left a recursion"
  ftot=$(sum "$W/rw.$rt.fold" '.')
  # folded lines are rounded to microseconds: merged lines differ by at most 1 us each
  [ $((ftot - tot)) -le 1000 ] && [ $((tot - ftot)) -le 1000 ] ||
    fail "$rt: --fold-recursion changed the total ($tot -> $ftot us)"

  # ---- 3. overruns: thread time = threads x wall ----
  record "$W/ld.$rt" --runtime $rt -- taskset -c "$CPU" "$W/rep_loaded.$rt"
  h=$(header "$W/ld.$rt")
  echo "$h"
  dur=$(num "$(sed -n 1p <<<"$h")" ',')
  tt=$(num "$(sed -n 2p <<<"$h")" 'thread time')
  nth=$(sed -n 1p <<<"$h" | awk '{ print $1 }')
  expect=$(awk -v d="$dur" -v n="$nth" 'BEGIN { print d * n }')
  echo "$rt loaded: $nth threads x $dur s = $expect s; thread time $tt s"
  [ "$nth" = 4 ] || fail "$rt: expected 4 threads"
  awk -v a="$tt" -v b="$expect" 'BEGIN { exit !(a >= 0.95 * b && a <= 1.05 * b) }' ||
    fail "$rt: thread time $tt s is not threads x wall time ($expect s) within 5%"
  grep -q 'samples stand for more than one period' <<<"$h" ||
    fail "$rt: 4 threads on one CPU and no sample stood for more than a period?"
  # CPU time: 4 threads shared one CPU, so their CPU time is at most the wall time
  cpu=$(sed -n '/^cpu /p' <<<"$h" | awk '{ print $2 }')
  awk -v c="${cpu:-0}" -v d="$dur" 'BEGIN { exit !(c > 0 && c <= d * 1.05 + 0.02) }' ||
    fail "$rt: CPU time ${cpu:-none} s of 4 threads on one CPU should be > 0 and <= the wall time $dur s"

  # ---- 4. tail-call release ----
  record "$W/tc.$rt" --runtime $rt -- "$W/rep_tailcall.$rt"
  time_and_blame "$W/tc.$rt" "$W/tc.$rt.f" >/dev/null
  lw=$(sum "$W/tc.$rt.f" 'omp lock wait$')
  bt=$(sum "$W/tc.$rt.f.blame" '.')
  bh=$(sum "$W/tc.$rt.f.blame" '(^|;)holder(;|$)')
  echo "$rt tailcall: lock wait $lw us, blame $bt us, on holder $bh us"
  [ "$lw" -gt 0 ] || fail "$rt: no lock wait in rep_tailcall"
  ratio_ge "$bh" "$bt" 70 100 || fail "$rt: directed blame should land on holder ($bh of $bt us)"

  # ---- workers after their region: idle (libomp keeps naming the ended region) ----
  record "$W/it.$rt" --runtime $rt -- "$W/rep_idle_tail.$rt"
  time_and_blame "$W/it.$rt" "$W/it.$rt.f" >/dev/null
  idle=$(sum "$W/it.$rt.f" '^omp idle$')
  bw=$(sum "$W/it.$rt.f" 'omp barrier wait$')
  bt=$(sum "$W/it.$rt.f.blame" '.')
  echo "$rt idle tail: omp idle $idle us, barrier wait $bw us, blame $bt us"
  ratio_ge "$idle" $((bw + 1)) 2 1 || fail "$rt: workers after their region should be idle ($idle us), not in a barrier ($bw us)"
  [ "$bt" -le $((bw + 5000)) ] || fail "$rt: blame ($bt us) beyond the barrier wait ($bw us)"

  # ---- spin versus blocked ----
  for pol in active passive; do
    KMP_USE_YIELD=0 OMP_WAIT_POLICY=$pol record "$W/sp.$rt.$pol" --runtime $rt -- "$W/rep_spin.$rt"
    folded "$W/sp.$rt.$pol" "$W/sp.$rt.$pol.t"
    folded "$W/sp.$rt.$pol" "$W/sp.$rt.$pol.c" --metric cpu
    eval "w_$pol=\$(sum \"\$W/sp.\$rt.\$pol.t\" 'omp barrier wait\$')"
    eval "c_$pol=\$(sum \"\$W/sp.\$rt.\$pol.c\" 'omp barrier wait\$')"
  done
  echo "$rt spin: barrier wait active $w_active us (cpu $c_active us), passive $w_passive us (cpu $c_passive us)"
  [ "$w_active" -ge 100000 ] && [ "$w_passive" -ge 100000 ] || fail "$rt: rep_spin should wait in the barrier"
  awk -v ca="$c_active" -v wa="$w_active" -v cp="$c_passive" -v wp="$w_passive" \
    'BEGIN { exit !(ca / wa > 2 * cp / wp + 0.01) }' ||
    fail "$rt: a spinning barrier wait should show more CPU time than a sleeping one"
done
echo "prof_numbers: ok"
