# Shared by tests/prof/record*.sh: build tomp-prof and the rec_* programs, record
# them, and read the data files through `tomp-prof dump`.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "prof-rec-$(basename "$0" .sh)"

fail() { echo "FAIL: $*"; exit 1; }

# build NAME [cc args]: tests/prof/NAME.c with gcc -fopenmp -O2 (no frame pointers)
build() {
  local name=$1
  shift
  gcc -fopenmp -O2 -Wall "$ROOT/tests/prof/$name.c" -o "$W/$name" "$@"
}

# record DIR [record options] -- PROGRAM...: a fresh DIR; the program's output in DIR.out,
# tomp-prof's messages in DIR.err; fails when the program fails.
record() {
  local dir=$1
  shift
  rm -rf "$dir"
  local rc=0
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$PROF" record -o "$dir" "$@" >"$dir.out" 2>"$dir.err" || rc=$?
  [ $rc = 0 ] || { cat "$dir.err"; fail "record $* exited $rc"; }
  cat "$dir.err"
}

# the single data file in DIR
datafile() {
  local n
  n=$(ls "$1"/tomp-prof.*.dat 2>/dev/null | wc -l)
  [ "$n" = 1 ] || fail "expected one data file in $1, found $n"
  ls "$1"/tomp-prof.*.dat
}

# dump FILE: the records as text in FILE.txt; the file must be well-formed and complete
dump() {
  "$PROF" dump "$1" >"$1.txt" || fail "tomp-prof dump $1 reports a malformed file"
  "$PROF" dump --summary "$1" >"$1.sum"
  grep -q ' lost=0$' "$1.sum" || fail "samples were lost: $(head -1 "$1.sum")"
  grep -q ' outside_code=0$' "$1.sum" || fail "unwound frames outside the code: $(sed -n 2p "$1.sum")"
}

# count TXT AWK-CONDITION: records matching, fields as key=value (use v["key"]; numbers
# compare as numbers)
count() {
  awk -v cond="$2" 'BEGIN { n = 0 }
    { delete v; v["type"] = $1
      for (i = 2; i <= NF; i++) { p = index($i, "="); if (!p) continue
        x = substr($i, p + 1); if (x ~ /^-?[0-9]+(\.[0-9]+)?$/) x += 0; v[substr($i, 1, p - 1)] = x } }
    '"$2"' { n++ } END { print n }' "$1"
}
