#!/usr/bin/env bash
# tomp-prof record --trace: EVENT records, begin and end paired per thread and kind (never
# an end without a begin, nothing left open), for regions, implicit tasks, barrier waits,
# idle workers (rec_nested), explicit tasks and worksharing (rec_tasks), lock and critical
# waits and holds (rec_lock); the header says the file was traced.
source "$(dirname "$0")/rec_common.sh"
build rec_nested
build rec_tasks
build rec_lock

# check_events FILE KIND...: paired events of every listed kind
check_events() {
  local t=$1
  shift
  local res
  res=$(awk '$1 == "EVENT" { th = $2; k = $5; ph = $6; key = th " " k; seen[k]++
      if (ph == "phase=begin") d[key]++
      else if (ph == "phase=end") { if (--d[key] < 0) { bad = bad " " key ":end-without-begin"; d[key] = 0 } } }
    END { for (key in d) if (d[key]) bad = bad " " key ":open=" d[key]
      for (k in seen) printf "%s(%d) ", k, seen[k]; print (bad == "" ? "PAIRED" : "UNPAIRED" bad) }' "$t")
  echo "$(basename "$t"): $res"
  [[ "$res" == *PAIRED ]] && [[ "$res" != *UNPAIRED* ]] || fail "events are not paired"
  for k in "$@"; do [[ "$res" == *"kind=$k("* ]] || fail "no $k events"; done
}

for prog in rec_nested rec_tasks rec_lock; do
  record "$W/d-$prog" --trace -- "$W/$prog"
  f=$(datafile "$W/d-$prog")
  dump "$f"
  head -1 "$f.txt" | grep -q ' flags=0x1 ' || fail "header does not say traced"
  case $prog in
    rec_nested) check_events "$f.txt" parallel implicit_task sync_wait idle ;;
    rec_tasks) check_events "$f.txt" parallel implicit_task task work sync_wait ;;
    rec_lock) check_events "$f.txt" mutex_wait mutex_held sync_wait ;;
  esac
done
# 64 explicit tasks: each ran (begin) and completed (end) once
n=$(count "$(datafile "$W/d-rec_tasks").txt" '$1 == "EVENT" && v["kind"] == "task" && v["phase"] == "begin"')
[ "$n" = 64 ] || fail "expected 64 task begin events, got $n"
# ... and was created once (an instant on the creating thread, named by the same id)
n=$(count "$(datafile "$W/d-rec_tasks").txt" '$1 == "EVENT" && v["kind"] == "task_create" && v["phase"] == "instant"')
[ "$n" = 64 ] || fail "expected 64 task_create events, got $n"
echo ok
