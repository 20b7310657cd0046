#!/usr/bin/env bash
# tomp-prof record: directed blame.  Two threads take turns holding a lock, then a critical
# section: samples in wait_lock / wait_critical, and BLAME records from the releases of
# both kinds (ompt_mutex_lock = 1, ompt_mutex_critical = 5) whose sample counts add up to no
# more than the wait samples.
source "$(dirname "$0")/rec_common.sh"
build rec_lock
record "$W/l" -- "$W/rec_lock"
f=$(datafile "$W/l")
dump "$f"
t="$f.txt"
wl=$(count "$t" '$1 == "SAMPLE" && v["state"] == "wait_lock"')
wc=$(count "$t" '$1 == "SAMPLE" && v["state"] == "wait_critical"')
bl=$(awk '$1 == "BLAME" && $3 == "kind=1" { sub(/samples=/, "", $6); n += $6 } END { print n + 0 }' "$t")
bc=$(awk '$1 == "BLAME" && $3 == "kind=5" { sub(/samples=/, "", $6); n += $6 } END { print n + 0 }' "$t")
echo "wait samples: lock $wl, critical $wc; blamed: lock $bl, critical $bc"
[ "$wl" -ge 8 ] && [ "$wc" -ge 8 ] || fail "too few samples waiting for the lock / critical"
# Each wait sample is charged once; one taken while nobody held the mutex goes to its last
# holder, reported at that thread's next release, which may be of the other kind: so the
# totals match and each kind is right within a few samples.
[ $((bl + bc)) -le $((wl + wc)) ] || fail "more blame ($bl + $bc) than waiting ($wl + $wc)"
[ "$bl" -ge 1 ] && [ "$bl" -le $((wl + 3)) ] || fail "lock blame ($bl) should be in 1..$wl (+3)"
[ "$bc" -ge 1 ] && [ "$bc" -le $((wc + 3)) ] || fail "critical blame ($bc) should be in 1..$wc (+3)"
# the releasing stacks are unwound (the region body that releases, at least)
[ "$(count "$t" '$1 == "BLAME" && v["nframes"] < 2')" = 0 ] || fail "blame records without a stack"
echo ok
