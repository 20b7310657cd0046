#!/usr/bin/env bash
# tomp-prof record: omp_control_tool.  No sample in the paused phase, samples before and
# after it; flush, an unknown command (ignored: 1), end (then nothing more is recorded, and
# start is ignored); the file stays well-formed with one END record.
source "$(dirname "$0")/rec_common.sh"
build rec_control -ldl
record "$W/c" -- "$W/rec_control"
read -r _ p0 p1 _ e0 _ rcs <<<"$(cut -d' ' -f1-12 "$W/c.out")"
echo "program: $(cat "$W/c.out")"
[ "$rcs" = "0 0 0 1 0 1" ] || fail "omp_control_tool return codes: $rcs (want pause 0, start 0, flush 0, unknown 1, end 0, start after end 1)"
f=$(datafile "$W/c")
dump "$f"
t="$f.txt"
[ "$(grep -c '^END' "$t")" = 1 ] || fail "expected exactly one END record"
# a handler that passed the check just before the pause may stamp its sample up to ~1 ms late
before=$(count "$t" '$1 == "SAMPLE" && v["ts"] < '"$p0")
inside=$(count "$t" '$1 == "SAMPLE" && v["ts"] > '"$((p0 + 1000000))"' && v["ts"] < '"$p1")
between=$(count "$t" '$1 == "SAMPLE" && v["ts"] > '"$p1"' && v["ts"] < '"$e0")
after=$(count "$t" '$1 == "SAMPLE" && v["ts"] > '"$((e0 + 1000000))")
echo "samples: before pause $before, paused $inside, resumed $between, after end $after"
[ "$inside" = 0 ] || fail "samples recorded while paused"
[ "$after" = 0 ] || fail "samples recorded after end"
[ "$before" -ge 3 ] && [ "$between" -ge 3 ] || fail "too few samples outside the paused phase"
echo ok
