# Shared by tests/prof/report*.sh: build tomp-prof and the rep_* programs, record
# them and read the report's folded output.  Folded lines are `root;...;leaf MICROSECONDS`.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "prof-rep-${REP_TAG:-$(basename "$0" .sh)}"

fail() { echo "FAIL: $*"; exit 1; }

# build NAME [cc args]: tests/prof/NAME.c with gcc -fopenmp -O2 (no frame pointers), -g for
# file:line
build() {
  local name=$1
  shift
  gcc -fopenmp -O2 -g -fomit-frame-pointer -Wall "$ROOT/tests/prof/$name.c" -o "$W/$name" "$@"
}

# record DIR [record options] -- PROGRAM...: fails when the program fails
record() {
  local dir=$1
  shift
  rm -rf "$dir"
  local rc=0
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$PROF" record -o "$dir" "$@" >"$dir.out" 2>"$dir.err" || rc=$?
  [ $rc = 0 ] || { cat "$dir.out" "$dir.err"; fail "record $* exited $rc"; }
}

# folded DIR OUT [report options]: the folded view of DIR into OUT
folded() {
  local dir=$1 out=$2
  shift 2
  "$PROF" report "$dir" --format folded "$@" >"$out" 2>"$out.err" || { cat "$out.err"; fail "report $dir failed"; }
}

# time_and_blame DIR OUT: the folded time view in OUT, the blame view in OUT.blame, shown
time_and_blame() {
  folded "$1" "$2"
  folded "$1" "$2.blame" --metric blame
  cat "$2" "$2.blame"
}

# sum FILE REGEX: microseconds of the folded lines whose stack matches the awk REGEX
sum() {
  awk -v re="$2" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); if (s ~ re) t += n } END { print t + 0 }' "$1"
}

# ratio_ge A B NUM DEN: A/B >= NUM/DEN (integers)
ratio_ge() { [ $(($1 * $4)) -ge $(($2 * $3)) ]; }
