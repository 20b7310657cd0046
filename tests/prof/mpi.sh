#!/usr/bin/env bash
# MPI + OpenMP with a real MPI (Debian's Open MPI): `mpirun -np 2 tomp-prof record -- ./hybrid`
# writes one file per rank (the tool reads the rank from OMPI_COMM_WORLD_RANK; it does not
# link MPI), and the report merges the ranks, shows one row per rank and names the time
# inside MPI calls `MPI wait` (wait, not work).  tests/prof/mpi_hybrid.c: each step rank 1
# computes four times what rank 0 does, then both meet in MPI_Allreduce and MPI_Barrier, so
# rank 0 waits inside MPI about three quarters of each step.  Checked:
#  - the program's own result check, a file per rank (tomp-prof.r0.*, tomp-prof.r1.*);
#  - rank 0's samples inside MPI_Allreduce/MPI_Barrier are `MPI wait` and outweigh its
#    compute; rank 1's CPU time in the kernel is at least twice rank 0's;
#  - every stack through an MPI call ends in `MPI wait` (never counted as work);
#  - the text view: both ranks in the header, the Ranks table with rank 0's MPI wait larger;
#  - the files given one by one merge as the directory does;
#  - the HTML report in headless Chromium (when installed): a row per rank, four lanes.
# Skips (exit 77) when mpicc or mpirun is missing (Debian: openmpi-bin libopenmpi-dev).
source "$(dirname "$0")/rep_common.sh"
source "$(dirname "$0")/html_common.sh"
for t in mpicc mpirun; do
  command -v $t >/dev/null || { echo "$t not installed (Debian: openmpi-bin libopenmpi-dev): MPI + OpenMP not checked"; exit 77; }
done
mpicc -fopenmp -O2 -g -fomit-frame-pointer -Wall "$ROOT/tests/prof/mpi_hybrid.c" -o "$W/mpi_hybrid" || fail "mpicc"
# CI runs as root (Open MPI refuses that without the flag); 2 ranks on a 2-CPU machine
run=(mpirun -np 2 --oversubscribe)
# containers often forbid the cross-memory attach Open MPI's shared-memory transport uses
export OMPI_MCA_btl_vader_single_copy_mechanism=none
[ "$(id -u)" = 0 ] && run+=(--allow-run-as-root)
OMP_NUM_THREADS=2 timeout 300 "${run[@]}" "$PROF" record -o "$W/d" -- "$W/mpi_hybrid" >"$W/run.out" 2>"$W/run.err" ||
  { cat "$W/run.out" "$W/run.err"; fail "mpirun ... tomp-prof record failed"; }
cat "$W/run.out"
grep -q 'mpi_hybrid: 2 ranks x 2 threads, [0-9]* steps: ok' "$W/run.out" || fail "the hybrid program's result is wrong"
f0=$(ls "$W/d"/tomp-prof.r0.*.dat 2>/dev/null) && f1=$(ls "$W/d"/tomp-prof.r1.*.dat 2>/dev/null) ||
  { ls "$W/d"; fail "no file per rank"; }

folded "$W/d" "$W/pt" --per-thread
folded "$W/d" "$W/cpu" --per-thread --metric cpu
cat "$W/pt"
comm0=$(sum "$W/pt" '^rank 0 thread 0;main;MPI_(Allreduce|Barrier);MPI wait$')
step0=$(sum "$W/pt" '^rank 0 thread 0;main;compute_step(;|$)')
comm1=$(sum "$W/pt" '^rank 1 thread 0;main;MPI_(Allreduce|Barrier);MPI wait$')
k0=$(sum "$W/cpu" '^rank 0 thread [0-9]+;.*;rank_kernel$')
k1=$(sum "$W/cpu" '^rank 1 thread [0-9]+;.*;rank_kernel$')
echo "rank 0: MPI wait in MPI_Allreduce/MPI_Barrier $comm0 us, compute_step $step0 us; rank 1: MPI wait $comm1 us"
echo "rank_kernel cpu: rank 0 $k0 us, rank 1 $k1 us"
[ "$comm0" -gt 0 ] && ratio_ge "$comm0" "$step0" 1 1 || fail "rank 0 should wait in MPI more than it computes ($comm0 vs $step0 us)"
ratio_ge "$comm0" "$comm1" 2 1 || fail "rank 0 should wait in MPI at least twice as long as rank 1 ($comm0 vs $comm1 us)"
[ "$k0" -gt 0 ] && ratio_ge "$k1" "$k0" 2 1 || fail "rank 1 computes 4x rank 0 ($k1 vs $k0 us of CPU)"
bad=$(grep -E ';(P?MPI_[A-Za-z_]+|ompi_[a-z_]+)(;|$)' "$W/pt" | grep -vE ';MPI wait [0-9]+$' || true)
[ -z "$bad" ] || { echo "$bad"; fail "stacks through an MPI call must end in 'MPI wait'"; }
folded "$W/d" "$W/work" --metric work
grep -q 'MPI wait' "$W/work" && fail "MPI wait counted as work"

"$PROF" report "$W/d" >"$W/text" 2>"$W/text.err" || { cat "$W/text.err"; fail "text report"; }
cat "$W/text"
grep -q '^tomp-prof report: .*mpi_hybrid  (pid [0-9]*, rank 0)' "$W/text" && grep -q '(pid [0-9]*, rank 1)' "$W/text" ||
  fail "the header names both ranks"
grep -q '^MPI wait [0-9.]* s' "$W/text" || fail "the header's MPI wait line"
read -r mpi0 mpi1 < <(awk '/^Ranks/ { on = 1; next } on && /^[01] / { m[$1] = $7 } on && /^$/ { exit }
  END { print m[0] + 0, m[1] + 0 }' "$W/text")
echo "Ranks table: MPI wait rank 0 $mpi0 s, rank 1 $mpi1 s"
awk -v a="$mpi0" -v b="$mpi1" 'BEGIN { exit !(a > b && a > 0) }' || fail "the Ranks table should show rank 0's MPI wait larger"
grep -qE '^r0:0 initial ' "$W/text" && grep -qE '^r1:1 ' "$W/text" || fail "threads labelled r<rank>:<index>"

# the files one by one merge as the directory does
"$PROF" report "$f1" "$f0" --format folded --per-thread >"$W/pt2" 2>/dev/null || fail "report FILE FILE"
sort "$W/pt" >"$W/pt.s"; sort "$W/pt2" >"$W/pt2.s"
cmp -s "$W/pt.s" "$W/pt2.s" || { diff "$W/pt.s" "$W/pt2.s" | head; fail "files given one by one merge differently"; }

if html_have_chromium; then
  "$PROF" report "$W/d" --html "$W/mpi.html" 2>/dev/null || fail "report --html"
  html_open "$W/mpi.html" mpi
  html_check mpi rank:2 lanes:4 "lane:rank 0 · thread 0" "lane:rank 1 · thread 1" "tree:MPI_Allreduce" \
    "tree:MPI wait" "flame:MPI wait" threads:4 color:8e5cc4:100
else
  echo "chromium not installed: the HTML report of the ranks is not checked"
fi
echo "prof_mpi: ok"
