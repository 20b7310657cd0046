#!/usr/bin/env bash
# One OMPT test: tests/ompt/NAME.c run under the ompt-print tool (tools/ompt-print), its
# output checked against tests/ompt/NAME.check with FileCheck and the assertions of the
# test's leading comment.  tests/run.sh calls it for every tests/ompt/*.c that has a sibling
# .check file (test name ompt_NAME); by hand:
#   TOMP_BUILD=build tests/ompt/run-test.sh tests/ompt/parallel.c
#
# Directives, each on a line of its own in the leading comment of NAME.c:
#   test-cflags: FLAGS         extra gcc flags (the build is gcc -fopenmp -O1 -g -rdynamic)
#   test-timeout: N            seconds per run (default 120)
#   test-skip-tsan: REASON     not run on the TSan build (a known open problem: say which)
#   ompt-link-tomp: REASON     link against the build's libgomp.so.1 (tomp), not the system's
#   ompt-compiler: clang       build with clang-14 -fopenmp (LLVM's ABI; tomp serves it as
#                              libomp.so.5) instead of gcc
#   ompt-run: [xN] [VAR=value ...] [-- ARG ...]
#                              a run of the program under the tool, N times (default 1),
#                              with that environment and those arguments.  Every run must
#                              exit 0, print no ERROR line (the tool's invariant checks) and
#                              end with the tool's "finalize errors=0".  The directives below,
#                              up to the next ompt-run, check each of its outputs (stdout):
#   ompt-filecheck: [PREFIX] [raw] [drop=ERE]
#                              FileCheck --check-prefix=PREFIX (default CHECK) of NAME.check
#                              over the tool's lines sorted by thread (each thread's lines in
#                              order; `raw`: the output as written), without the lines that
#                              match ERE (grep -E, to the end of the directive's line)
#   ompt-grep: ERE             some line of the output matches ERE
#   ompt-count: ERE == N       exactly N lines match ERE; also `ERE >= N`, and `ERE == ERE2`
#                              (as many lines match ERE as match ERE2)
# A test without ompt-run lines is run once and checked with `ompt-filecheck: CHECK`.
# Exit status: 0 passed; 1 failed (the last line says what); 77 not run on this build.
set -u
SRC=${1:?usage: tests/ompt/run-test.sh tests/ompt/NAME.c}
NAME=$(basename "$SRC" .c)
CHK=${SRC%.c}.check

# the directives of the leading comment, one "KEY VALUE" line each
mapfile -t DIRS < <(awk 'NR == 1 && !/^\/\*/ { exit } { print } /\*\// { exit }' "$SRC" |
  sed -n 's/^[ /*]*\(\(ompt\|test\)-[a-z-]*\):[ ]*\(.*\)$/\1 \3/p' |
  sed 's/[ ]*\*\/.*$//; s/[ ]*$//')
value() { # KEY: the first value given for KEY
  local d
  for d in "${DIRS[@]}"; do
    [ "${d%% *}" = "$1" ] || continue
    [[ "$d" == *" "* ]] && echo "${d#* }"
    return
  done
}
skiptsan=$(value test-skip-tsan)
if [ -n "$skiptsan" ] && [[ "${SANLIB:-}" == *tsan* ]]; then
  echo "TSan build: $skiptsan"
  exit 77
fi

source "$(dirname "$0")/common.sh"
set +e
fail() { echo "FAIL: $*"; exit 1; }
command -v "$FILECHECK" >/dev/null || fail "$FILECHECK not found (Debian package llvm-14-tools)"

# Runs: RUN_REPEAT[r], RUN_ENV[r], RUN_ARGS[r]; checks: "r<TAB>kind<TAB>value" in CHECKS
RUN_REPEAT=() RUN_ENV=() RUN_ARGS=() CHECKS=()
for d in "${DIRS[@]}"; do
  key=${d%% *} val=
  [[ "$d" == *" "* ]] && val=${d#* }
  case $key in
    ompt-run)
      rep=1 envs='' args=''
      read -ra words <<<"$val"
      i=0
      [[ "${words[0]:-}" =~ ^x([0-9]+)$ ]] && { rep=${BASH_REMATCH[1]}; i=1; }
      for ((; i < ${#words[@]}; i++)); do
        w=${words[i]}
        if [ "$w" = -- ]; then args="${words[*]:i+1}"; break; fi
        [[ "$w" == *=* ]] || fail "ompt-run: '$w' is neither xN, VAR=value nor --"
        envs="$envs $w"
      done
      RUN_REPEAT+=("$rep") RUN_ENV+=("$envs") RUN_ARGS+=("$args")
      ;;
    ompt-filecheck | ompt-grep | ompt-count)
      [ ${#RUN_REPEAT[@]} -gt 0 ] || fail "$key before the first ompt-run"
      CHECKS+=("$((${#RUN_REPEAT[@]} - 1))	$key	$val")
      ;;
    ompt-link-tomp | ompt-compiler | test-cflags | test-cc | test-timeout | test-skip-tsan) ;;
    *) fail "unknown directive $key" ;;
  esac
done
if [ ${#RUN_REPEAT[@]} = 0 ]; then
  RUN_REPEAT=(1) RUN_ENV=("") RUN_ARGS=("") CHECKS=("0	ompt-filecheck	CHECK")
fi
[ -f "$CHK" ] || fail "no $CHK"

read -ra cflags <<<"$(value test-cflags)"
[ -n "$(value ompt-link-tomp)" ] && cflags+=("$TOMP_BUILD/lib/libgomp.so.1")
# test-cc: clang (or ompt-compiler: clang): built by clang-14 for LLVM's ABI
if [ "$(value test-cc)" = clang ] || [ "$(value ompt-compiler)" = clang ]; then
  export OMPT_CC=${CLANG:-clang-14}
  command -v "$OMPT_CC" >/dev/null || { echo "$OMPT_CC not found"; exit 77; }
fi
build "$NAME" "$SRC" "${cflags[@]}" || fail "cannot build $SRC"
timeout=$(value test-timeout)
timeout=${timeout:-120}

# check OUT KIND VALUE: one assertion on one output; says what it saw
check() {
  local out=$1 kind=$2 val=$3
  case $kind in
    ompt-filecheck)
      local prefix=CHECK raw=0 drop='' w
      [[ "$val" == *drop=* ]] && { drop=${val#*drop=}; val=${val%%drop=*}; }
      for w in $val; do
        case $w in
          raw) raw=1 ;;
          *) prefix=$w ;;
        esac
      done
      if ! { if [ $raw = 1 ]; then cat "$out"; else by_thread <"$out"; fi; } |
        { if [ -n "$drop" ]; then grep -vE -- "$drop"; else cat; fi; } |
        "$FILECHECK" --check-prefix="$prefix" "$CHK"; then
        echo "FileCheck --check-prefix=$prefix failed"
        return 1
      fi
      echo "FileCheck --check-prefix=$prefix: ok"
      ;;
    ompt-grep)
      grep -qE -- "$val" "$out" || { echo "no line matches '$val'"; return 1; }
      ;;
    ompt-count)
      local op lhs rhs n m
      if [[ "$val" == *" == "* ]]; then op='=='; else op='>='; fi
      [[ "$val" == *" $op "* ]] || { echo "ompt-count: '$val' has no ' == ' or ' >= '"; return 1; }
      lhs=${val% "$op" *} rhs=${val##* "$op" }
      n=$(grep -cE -- "$lhs" "$out")
      if [[ "$rhs" =~ ^[0-9]+$ ]]; then
        m=$rhs
        echo "$n lines match '$lhs' (want $op $m)"
      else
        m=$(grep -cE -- "$rhs" "$out")
        echo "$n lines match '$lhs', $m match '$rhs' (want $op)"
      fi
      if [ "$op" = '==' ]; then [ "$n" -eq "$m" ]; else [ "$n" -ge "$m" ]; fi || return 1
      ;;
  esac
}

for ((r = 0; r < ${#RUN_REPEAT[@]}; r++)); do
  desc="run $((r + 1))"
  what="${RUN_ENV[r]# }${RUN_ARGS[r]:+ -- ${RUN_ARGS[r]}}"
  [ -n "$what" ] && desc="$desc ($what)"
  for ((i = 1; i <= RUN_REPEAT[r]; i++)); do
    [ "${RUN_REPEAT[r]}" = 1 ] && at=$desc || at="$desc (repetition $i of ${RUN_REPEAT[r]})"
    out=$W/$NAME.$((r + 1)).out
    # shellcheck disable=SC2086 # the environment and arguments are words
    on_tomp ${RUN_ENV[r]} OMP_TOOL_LIBRARIES="$TOOL" timeout -k 5 "$timeout" \
      "$W/$NAME" ${RUN_ARGS[r]} >"$out" 2>"$out.err"
    rc=$?
    [ $rc = 0 ] || { tail -5 "$out.err"; fail "$at: exit status $rc (output $out)"; }
    no_errors "$out" || fail "$at: the tool reported errors (output $out)"
    grep -q 'finalize errors=0' "$out" || fail "$at: no 'finalize errors=0' (output $out)"
    for c in "${CHECKS[@]}"; do
      IFS=$'\t' read -r cr kind val <<<"$c"
      [ "$cr" = "$r" ] || continue
      if ! res=$(check "$out" "$kind" "$val" 2>&1); then
        echo "$res"
        fail "$at: $kind: $val (output $out)"
      fi
      [ -n "$res" ] && echo "$at: $res"
    done
  done
  echo "$desc: ok (${RUN_REPEAT[r]} run(s))"
done
echo ok
