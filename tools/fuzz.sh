#!/usr/bin/env bash
# libFuzzer targets for the parsers of outside input (tests/fuzz/*.c: the environment
# variables, OMP_PLACES / GOMP_CPU_AFFINITY, the affinity format, OMP_TOOL_LIBRARIES, the
# __omp_collector_api record stream).
#
#   tools/fuzz.sh [SECONDS] [TARGET...]   fuzz each target for SECONDS (default 60) from its
#                                         corpus, tests/fuzz/corpus/TARGET; new inputs that add
#                                         coverage are merged back into it (commit them)
#   tools/fuzz.sh --check [SECONDS]       the test suite's run: every committed input once,
#                                         then SECONDS (default 5) of fuzzing, nothing merged
#
# Every object of tomp is compiled by clang-14 with -fsanitize=fuzzer-no-link,address,
# undefined into build-fuzz/obj and linked into each target (so a target calls hidden
# functions directly); -fno-sanitize-recover makes undefined behaviour a finding.  A crash,
# a sanitizer report or a broken property (FUZZ_ASSERT) stops the run: the input is saved as
# build-fuzz/crash-TARGET-*, printed in hex, and the exit status is 1.  Exit 77 when clang-14
# or its libFuzzer runtime (Debian: libclang-rt-14-dev) is missing.
set -u
cd "$(dirname "$0")/.."
CLANG=${CLANG:-clang-14}
B=build-fuzz
CHECK=0
if [ "${1:-}" = --check ]; then CHECK=1; shift; fi
SECS=${1:-$([ $CHECK = 1 ] && echo 5 || echo 60)}
[ $# -gt 0 ] && shift
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  for f in tests/fuzz/*.c; do TARGETS+=("$(basename "$f" .c)"); done
fi
command -v "$CLANG" >/dev/null || { echo "fuzz: $CLANG is not installed"; exit 77; }
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"${TMPDIR:-/tmp}/fuzzprobe$$.c"
if ! "$CLANG" -fsanitize=fuzzer "${TMPDIR:-/tmp}/fuzzprobe$$.c" -o "${TMPDIR:-/tmp}/fuzzprobe$$" 2>/dev/null; then
  rm -f "${TMPDIR:-/tmp}/fuzzprobe$$"*
  echo "fuzz: $CLANG cannot link libFuzzer (Debian: libclang-rt-14-dev)"; exit 77
fi
rm -f "${TMPDIR:-/tmp}/fuzzprobe$$"*

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-std=gnu11 -Wno-ignored-attributes -O1 -g -fno-omit-frame-pointer -pthread -D_GNU_SOURCE -fvisibility=hidden $SAN"
mkdir -p "$B/obj"
# tomp's objects: rebuilt when a source or header is newer than the object
newest_h=$(ls -t include/*.h src/*/*.h | head -1)
objs=()
layers=$(sed -n 's/^LAYERS := //p' Makefile) # every layer of libtomp.so
for src in $(for l in $layers; do ls src/"$l"/*.c; done); do
  layer=$(echo "$src" | cut -d/ -f2)
  obj=$B/obj/$(echo "${src%.c}" | tr / _).o
  objs+=("$obj")
  if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_h" -nt "$obj" ]; then
    "$CLANG" $CFLAGS -fsanitize=fuzzer-no-link -Iinclude -Isrc/core -Isrc/api -Isrc/"$layer" \
      -c "$src" -o "$obj" || { echo "fuzz: cannot compile $src"; exit 1; }
  fi
done

status=0
for t in "${TARGETS[@]}"; do
  src=tests/fuzz/$t.c
  [ -e "$src" ] || { echo "fuzz: no target $src"; exit 2; }
  exe=$B/$t
  if [ ! -e "$exe" ] || [ "$src" -nt "$exe" ] || [ tests/fuzz/fuzz.h -nt "$exe" ] ||
     [ -n "$(find "${objs[@]}" -newer "$exe" 2>/dev/null | head -1)" ]; then
    "$CLANG" $CFLAGS -fsanitize=fuzzer -Iinclude -Isrc/core -Isrc/api -Isrc/ompt -Isrc/collector \
      "$src" "${objs[@]}" -ldl -o "$exe" || { echo "fuzz: cannot build $t"; exit 1; }
  fi
  corpus=tests/fuzz/corpus/$t
  mkdir -p "$corpus"
  work=$(mktemp -d "$B/corpus-$t.XXXXXX") # this run's own: runs at once do not collide
  # stderr holds tomp's warnings for every bad input: closed (-close_fd_mask=2); libFuzzer and
  # the sanitizers keep a descriptor of their own for reports
  opts=(-max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3
        -artifact_prefix="$B/crash-$t-" -print_final_stats=0)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
  log=$B/$t.log
  start=$(date +%s)
  if [ $CHECK = 1 ]; then
    # every committed input once, then fuzz from them into a scratch corpus
    "$exe" -runs=0 "${opts[@]}" "$corpus" >"$log" 2>&1 &&
      "$exe" "${opts[@]}" "$work" "$corpus" >>"$log" 2>&1
  else
    "$exe" "${opts[@]}" "$work" "$corpus" >"$log" 2>&1
  fi
  rc=$?
  secs=$(( $(date +%s) - start ))
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*\|#[0-9]*' "$log" | tail -1 | tr -dc 0-9)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  if [ $rc -ne 0 ]; then
    echo "FAIL fuzz $t (${secs}s; log $log)"
    grep -m3 'ERROR\|property violated\|runtime error\|deadly signal\|Test unit written' "$log" | sed 's/^/    /'
    for c in "$B"/crash-"$t"-*; do [ -e "$c" ] && { echo "    input $c:"; od -An -c "$c" | head -5 | sed 's/^/      /'; }; done
    status=1
    rm -rf "$work"
    continue
  fi
  if [ $CHECK = 0 ]; then
    # keep what adds coverage: merge the scratch corpus into the committed one
    "$exe" -merge=1 -close_fd_mask=3 "$corpus" "$work" >>"$log" 2>&1
  fi
  rm -rf "$work"
  echo "PASS fuzz $t (${secs}s, $(ls "$corpus" | wc -l) corpus inputs${execs:+, $execs runs}${cov:+, $cov})"
done
exit $status
