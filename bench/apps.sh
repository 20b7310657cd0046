#!/bin/bash
# Real applications side by side: tomp vs GCC's libgomp vs LLVM's libomp (issue 19 item 1).
#
#   bench/apps.sh [--quick] [--rounds N] [--threads T[,T...]] [--timeout S] [--npb-classes W,A]
#                 [--fetch-only] [--rebuild] [SET|ROW...]
#   bench/apps.sh --report FILE.csv      the tables of an earlier run again (FILE.md)
#
# SETs: npb (NPB 3.0 OpenMP C: bt sp lu mg ft is cg ep), lulesh, bots (sort fib health sparselu
# strassen nqueens uts), epcc (syncbench schedbench taskbench), team (bench/apps.c: one region of
# num_threads(10000)).  A ROW names one program (npb-cg.W, bots-uts, epcc-syncbench, lulesh,
# team10000).  Default: every set.  `make bench-apps` runs this (BENCH_ARGS passes options).
#
# Sources come from a cache that is never committed, TOMP_APPS_CACHE (default
# ~/.cache/tomp-apps), in src/<name>/.  A missing source is filled from a git snapshot under
# TOMP_APPS_MIRROR (default /work/.mirror, <owner>+<repo>/repo) when there is one; otherwise
# the script says which clone it needs and runs the rest.  To fill the cache by hand:
#   git clone https://github.com/benchmark-subsetting/NPB3.0-omp-C ~/.cache/tomp-apps/src/npb
#   git clone https://github.com/LLNL/LULESH                        ~/.cache/tomp-apps/src/lulesh
#   git clone https://github.com/bsc-pm/bots                        ~/.cache/tomp-apps/src/bots
#   git clone https://github.com/EPCCed/epcc-openmp-microbenchmarks ~/.cache/tomp-apps/src/epcc
# Each program is built once (gcc/g++ -O2 -fopenmp) into the cache's bin/ (--rebuild: again);
# build logs are in the cache's logs/.
#
# Runtimes: as bench/run.sh, one directory per runtime holding a libgomp.so.1 that is tomp
# (TOMP_LIB, default build/libtomp.so), the system libgomp or libomp 14, put on
# LD_LIBRARY_PATH; `ldd` must resolve each binary's libgomp.so.1 to that directory or the
# runtime's rows fail.  Runs are interleaved: round 1 runs every row on every runtime (the
# runtime order rotates per round), then round 2, ...  Each program's own verification is
# checked (NPB "Verification = SUCCESSFUL", BOTS -c "Verification = SUCCESSFUL" against its
# serial version, LULESH's symmetry check MaxRelDiff < 1e-8, EPCC every construct reported,
# team10000 every thread ran once); a run that fails it, crashes or times out is a failed row
# with its reason, never a time.  Times are the program's own (NPB "Time in seconds", BOTS
# "Time Program", EPCC overhead per construct in microseconds, team10000 the region), wall
# clock for LULESH.
#
# Output: bench/results/apps-<date-time>.csv (every run) and .md (medians over the rounds, each
# runtime's ratio to the best median of the row, geometric means), printed at the end.
# --quick: 3 rounds, NPB ft and is at class W only, smaller LULESH and EPCC runs.  Default:
# 5 rounds, NPB classes W and A (A for cg ep ft is mg only: bt sp lu at class A take minutes per
# run on 2 CPUs; NPB_ALL=1 runs them too), threads 1,2,4.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1

REPORT="" ROUNDS=5 THREADS=1,2,4 TIMEOUT=300 QUICK=0 FETCH_ONLY=0 REBUILD=0 NPB_CLASSES=""
ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --rounds) ROUNDS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --npb-classes) NPB_CLASSES=$2; shift ;;
    --fetch-only) FETCH_ONLY=1 ;;
    --rebuild) REBUILD=1 ;;
    --report) REPORT=$2; shift ;;
    -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
    -*) echo "apps.sh: unknown option $1" >&2; exit 64 ;;
    *) ARGS+=("$1") ;;
  esac
  shift
done
if [ $QUICK = 1 ]; then
  [ "$ROUNDS" = 5 ] && ROUNDS=3
  [ "$TIMEOUT" = 300 ] && TIMEOUT=120
fi
[ -z "$NPB_CLASSES" ] && { [ $QUICK = 1 ] && NPB_CLASSES=W || NPB_CLASSES=W,A; }
case $ROUNDS in '' | *[!0-9]* | 0) echo "apps.sh: --rounds needs a positive integer" >&2; exit 64 ;; esac

# ---- report ---------------------------------------------------------------------------------
# The CSV's "#" lines carry the header (machine, versions, method); report CSV MD writes the
# tables (also from an old CSV: --report FILE.csv).
report() {
  {
  echo "# Applications: tomp vs libgomp vs libomp"
  sed -n 's/^# /- /p' "$1"
  # other processes' load makes every figure doubtful: say so where the figures are
  awk -v n="$(nproc)" '/^# date:.*load average before: / {
      l = $0; sub(/.*load average before: /, "", l); split(l, a, " ")
      if (a[1] + 0 > 0.5) printf "- **Taken under load** (load average %s on %d CPUs before the run):" \
        " other processes competed for the CPUs; re-take on a quiet machine before concluding.\n", a[1], n }' "$1"
  echo "- cells: median over the rounds (seconds; EPCC: overhead in microseconds) and, in brackets," \
    "the ratio to the best runtime's median of the row (1.00 = best; > 1: slower). FAIL: the" \
    "program's verification failed, it crashed or it timed out in at least one round (reason" \
    "given): that runtime has no time on the row. tomp/other: tomp's median over the faster of" \
    "libgomp and libomp (bench/report.sh's \"best\"; < 1: tomp faster), the measure of issue" \
    "19's targets; the per-runtime geometric means rank all three against the row's best, so" \
    "tomp's is never below 1.00."
  echo
  grep -v '^#' "$1" | sort -t, -k1,1 -k2,2 -k3,3n -k4,4 -k7,7g | awk -F, '
    function fmt(v) { return v >= 100 || v <= -100 ? sprintf("%.0f", v) : v >= 10 || v <= -10 ? sprintf("%.1f", v) : v >= 1 || v <= -1 ? sprintf("%.2f", v) : sprintf("%.3f", v) }
    $1 == "set" { next }
    { key = $1 SUBSEP $2 SUBSEP $3
      if (!(key in seen)) { seen[key] = 1; keys[++nk] = key; set[key] = $1 }
      k = key SUBSEP $4
      if ($6 == "ok") { n[k]++; v[k, n[k]] = $7 } else if (!(k in why)) why[k] = $7 }
    END {
      split("tomp libgomp libomp", rt, " ")
      cur = ""
      for (i = 1; i <= nk; i++) {
        key = keys[i]; split(key, f, SUBSEP)
        if (set[key] != cur) {
          cur = set[key]; order[++ns] = cur
          print "\n## " cur "\n"
          print "| row | threads | tomp | libgomp | libomp | tomp/best | tomp/other |"
          print "|---|---|---|---|---|---|---|"
        }
        best = ""
        for (j = 1; j <= 3; j++) {
          k = key SUBSEP rt[j]; med[j] = ""
          if (!(k in why) && n[k] > 0) {
            m = n[k]; med[j] = m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
            if (best == "" || med[j] < best) best = med[j]
          }
        }
        line = "| " f[2] " | " f[3] " |"; tr = ""
        for (j = 1; j <= 3; j++) {
          k = key SUBSEP rt[j]
          if (k in why) cell = "FAIL: " why[k]
          else if (med[j] == "") cell = "n/a"
          else {
            cell = fmt(med[j])
            if (best > 0) { r = med[j] / best; cell = cell sprintf(" (%.2f)", r)
              if (j == 1) tr = sprintf("%.2f", r) }
          }
          line = line " " cell " |"
        }
        # tomp against the faster of the other two (the best of bench/report.sh; can be < 1)
        other = med[2] == "" ? med[3] : med[3] == "" || med[2] < med[3] ? med[2] : med[3]
        to = med[1] != "" && other != "" && other > 0 && med[1] > 0 ? sprintf("%.2f", med[1] / other) : "n/a"
        print line " " (tr == "" ? "n/a" : tr) " | " to " |"
        if (best > 0 && med[1] != "" && med[2] != "" && med[3] != "") {
          for (j = 1; j <= 3; j++) { G[cur, f[3], j] += log(med[j] / best); GN[cur, f[3], j]++ }
          GO[cur, f[3]] += log(med[1] / other)
        }
        thr[cur, f[3]] = 1; sets[cur] = 1
      }
      print "\n## Geometric means of the ratio to the best (rows where every runtime has a positive median)\n"
      print "| set | threads | rows | tomp | libgomp | libomp | tomp/other |"
      print "|---|---|---|---|---|---|---|"
      for (o = 1; o <= ns; o++) for (t = 1; t <= 10000; t++) if (((st = order[o]), t) in thr && GN[st, t, 1]) {
        line = "| " st " | " t " | " GN[st, t, 1] " |"
        for (j = 1; j <= 3; j++) line = line (GN[st, t, j] ? sprintf(" %.2f |", exp(G[st, t, j] / GN[st, t, j])) : " n/a |")
        print line sprintf(" %.2f |", exp(GO[st, t] / GN[st, t, 1]))
      }
    }'
  } >"$2"
}
if [ -n "$REPORT" ]; then
  report "$REPORT" "${REPORT%.csv}.md" && cat "${REPORT%.csv}.md"
  exit
fi

CACHE=${TOMP_APPS_CACHE:-$HOME/.cache/tomp-apps}
MIRROR=${TOMP_APPS_MIRROR:-/work/.mirror}
mkdir -p "$CACHE/src" "$CACHE/bin" "$CACHE/logs" || exit 1
[ $REBUILD = 1 ] && rm -rf "$CACHE/bin" "$CACHE/build" && mkdir -p "$CACHE/bin"

# ---- sources --------------------------------------------------------------------------------
declare -A REPO=([npb]=benchmark-subsetting/NPB3.0-omp-C [lulesh]=LLNL/LULESH [bots]=bsc-pm/bots
  [epcc]=EPCCed/epcc-openmp-microbenchmarks)
declare -A HAVE=() VERSION=()
fill_source() { # name: makes $CACHE/src/name, from the mirror when it is not there yet
  local name=$1 dir=$CACHE/src/$1 repo=${REPO[$1]} g commit
  if [ ! -e "$dir/.tomp-source" ] && [ ! -d "$dir/.git" ]; then
    for g in "$MIRROR/${repo/\//+}/repo/.git" "$MIRROR/${repo/\//+}/repo"; do
      commit=$(git --git-dir="$g" rev-parse HEAD 2>/dev/null) || continue
      rm -rf "$dir.part" && mkdir -p "$dir.part" &&
        git --git-dir="$g" archive HEAD | tar -x -C "$dir.part" &&
        echo "$repo $commit (snapshot $g)" >"$dir.part/.tomp-source" &&
        mv "$dir.part" "$dir" && break
    done
  fi
  if [ -e "$dir/.tomp-source" ]; then
    VERSION[$name]="$repo $(cut -d' ' -f2 "$dir/.tomp-source" | cut -c1-12)"
  elif [ -d "$dir/.git" ]; then
    VERSION[$name]="$repo $(git -C "$dir" rev-parse --short=12 HEAD)"
  else
    echo "apps.sh: MISSING $name: git clone https://github.com/$repo $dir" >&2
    return 1
  fi
  HAVE[$name]=1
}
for s in npb lulesh bots epcc; do fill_source $s; done
[ $FETCH_ONLY = 1 ] && exit 0

# ---- builds (once; a failed build is remembered in logs/ and its rows fail) --------------------
BIN=$CACHE/bin LOGS=$CACHE/logs
declare -A BUILD_FAIL=()
build() { # name command...: runs the build unless $BIN/name exists; logs to $LOGS
  local name=$1
  shift
  [ -x "$BIN/$name" ] && return 0
  if ! ("$@") >"$LOGS/build-$name.log" 2>&1 || [ ! -x "$BIN/$name" ]; then
    BUILD_FAIL[$name]="build failed ($LOGS/build-$name.log)"
    echo "apps.sh: ${BUILD_FAIL[$name]}" >&2
    return 1
  fi
}
build_npb() { # bench class
  local d=$CACHE/build/npb
  if [ ! -d "$d" ]; then
    mkdir -p "$CACHE/build" && cp -a "$CACHE/src/npb" "$d" || return 1
  fi
  mkdir -p "$d/bin"
  cat >"$d/config/make.def" <<'EOF'
CC = gcc
CLINK = gcc
C_LIB = -lm
C_INC = -I../common
CFLAGS = -O2 -fopenmp
CLINKFLAGS = -O2 -fopenmp
UCC = gcc -O
BINDIR = ../bin
RAND = randdp
WTIME = wtime.c
EOF
  local lower
  lower=$(echo "$1" | tr 'A-Z' 'a-z')
  make -C "$d" "$1" CLASS="$2" && cp "$d/bin/$lower.$2" "$BIN/npb-$lower.$2"
}
BOTS_INFO=(-DCDATE='"apps.sh"' -DCC='"gcc"' -DLD='"gcc"' -DCMESSAGE='""' -DLDFLAGS='""'
  -DCFLAGS='"-O2 -fopenmp"')
build_bots() { # app [dir under omp-tasks]: the default (untied) version, manual cut-off
  local s=$CACHE/src/bots dir=${2:-$1} extra=()
  grep -q '^CUTOFF_VERSIONS' "$s/omp-tasks/$1/Makefile" && extra+=(-DMANUAL_CUTOFF)
  grep -q 'BOTS_CUTOFF_DEF_VALUE' "$s/omp-tasks/$dir/app-desc.h" || extra+=(-DBOTS_CUTOFF_DEF_VALUE=0)
  gcc -O2 -fopenmp -I"$s/common" -I"$s/omp-tasks/$dir" "${extra[@]}" "${BOTS_INFO[@]}" \
    -o "$BIN/bots-$1" "$s/common/bots_main.c" "$s/common/bots_common.c" "$s/omp-tasks/$dir"/*.c -lm
}
build_epcc() {
  local s=$CACHE/src/epcc/openmpbench_C_v31 extra=()
  # as EPCC's Makefile (common_sched.o): schedbench's default delay is 15 us, not syncbench's 0.1
  [ "$1" = schedbench ] && extra=(-DSCHEDBENCH) && touch "$BIN/epcc-schedbench.delay15"
  gcc -O2 -fopenmp -DOMPVER2 -DOMPVER3 "${extra[@]}" -o "$BIN/epcc-$1" "$s/common.c" "$s/$1.c" -lm
}
# a schedbench built before it had -DSCHEDBENCH (0.1 us delays) is built again
[ -e "$BIN/epcc-schedbench.delay15" ] || rm -f "$BIN/epcc-schedbench"
build_lulesh() {
  local s=$CACHE/src/lulesh
  g++ -O2 -fopenmp -DUSE_MPI=0 -o "$BIN/lulesh" "$s"/lulesh.cc "$s"/lulesh-comm.cc \
    "$s"/lulesh-viz.cc "$s"/lulesh-util.cc "$s"/lulesh-init.cc
}
build_team() { gcc -O2 -fopenmp -Wall -Wextra -o "$BIN/team10000" "$ROOT/bench/apps.c"; }
[ bench/apps.c -nt "$BIN/team10000" ] && rm -f "$BIN/team10000"

# ---- rows: "set|row|threads|parser|command..." (threads "T": each of --threads) -------------
ROWS=()
IFS=, read -r -a CLASSES <<<"$NPB_CLASSES"
# Which NPB programs fit in time (2 CPUs under load, 2 threads, class W): ft 3 s, is 1.5 s,
# ep 11 s, mg 22 s, cg 36 s, bt 77 s; class A is 4-20 times class W.  --quick: ft and is;
# default: every program at W and the kernels at A; NPB_ALL=1: every program at every class.
for c in "${CLASSES[@]}"; do
  for b in bt sp lu mg ft is cg ep; do
    if [ -z "${NPB_ALL:-}" ]; then
      [ $QUICK = 1 ] && case $b in ft | is) ;; *) continue ;; esac
      [ "$c" = A ] && case $b in bt | sp | lu) continue ;; esac
    fi
    p=npb && [ $b = is ] && p=npbwall
    ROWS+=("npb|npb-$b.$c|T|$p|$BIN/npb-$b.$c")
  done
done
# EPCC's own test time (1000 us): with 100 us, a syncbench row of a few ns per construct (lock,
# critical, atomic) ran a few hundred constructs per parallel region, and the region's fork
# (waking workers that slept since the last test: tens of us on a VM) became most of the row
if [ $QUICK = 1 ]; then LULESH_ARGS="-s 12 -i 100" EPCC_ARGS="--outer-repetitions 3 --test-time 1000"
else LULESH_ARGS="-s 15 -i 200" EPCC_ARGS="--outer-repetitions 5 --test-time 1000"; fi
ROWS+=("lulesh|lulesh|T|lulesh|$BIN/lulesh $LULESH_ARGS")
BI=$CACHE/src/bots/inputs
ROWS+=("bots|bots-sort|T|bots|$BIN/bots-sort -c -n 2097152"
  "bots|bots-fib|T|bots|$BIN/bots-fib -c -n 42"
  "bots|bots-health|T|bots|$BIN/bots-health -c -f $BI/health/small.input"
  "bots|bots-sparselu|T|bots|$BIN/bots-sparselu -c -n 30 -m 50"
  "bots|bots-strassen|T|bots|$BIN/bots-strassen -c -n 1024"
  "bots|bots-nqueens|T|bots|$BIN/bots-nqueens -c -n 12"
  "bots|bots-uts|T|bots|$BIN/bots-uts -c -f $BI/uts/test.input")
for b in syncbench schedbench taskbench; do ROWS+=("epcc|epcc-$b|T|epcc|$BIN/epcc-$b $EPCC_ARGS"); done
ROWS+=("team|team10000|10000|team|$BIN/team10000 10000")

# keep the rows asked for, and build their programs
declare -A WANT=() USED=()
for a in "${ARGS[@]}"; do WANT[$a]=1; done
SEL=()
for r in "${ROWS[@]}"; do
  IFS='|' read -r set row _ _ cmd <<<"$r"
  if [ ${#ARGS[@]} -gt 0 ] && [ -z "${WANT[$set]:-}" ] && [ -z "${WANT[$row]:-}" ]; then continue; fi
  USED[$set]=1 USED[$row]=1
  prog=$(basename "${cmd%% *}")
  src=$set
  [ "$set" = team ] || [ -n "${HAVE[$src]:-}" ] || { echo "apps.sh: $row skipped: source $src missing" >&2; continue; }
  case $row in
    npb-*) b=${row#npb-}; build "$prog" build_npb "$(echo "${b%.*}" | tr 'a-z' 'A-Z')" "${b#*.}" ;;
    bots-sparselu) build "$prog" build_bots sparselu sparselu/sparselu_single ;;
    bots-*) build "$prog" build_bots "${row#bots-}" ;;
    epcc-*) build "$prog" build_epcc "${row#epcc-}" ;;
    lulesh) build "$prog" build_lulesh ;;
    team10000) build "$prog" build_team ;;
  esac
  SEL+=("$r")
done
for a in "${!WANT[@]}"; do [ -n "${USED[$a]:-}" ] || { echo "apps.sh: unknown set or row $a" >&2; exit 64; }; done
[ ${#SEL[@]} -gt 0 ] || { echo "apps.sh: nothing to run" >&2; exit 1; }

# ---- runtimes -----------------------------------------------------------------------------
TOMP_LIB=${TOMP_LIB:-$ROOT/${TOMP_BUILD:-build}/libtomp.so}
GOMP_LIB=/usr/lib/x86_64-linux-gnu/libgomp.so.1
KMP_LIB=/usr/lib/llvm-14/lib/libomp.so.5
[ -f "$TOMP_LIB" ] || { echo "apps.sh: $TOMP_LIB missing: run make first" >&2; exit 1; }
LIBDIRS=$ROOT/build/bench/rt
RUNTIMES=(tomp libgomp libomp)
declare -A LIBOF=([tomp]=$TOMP_LIB [libgomp]=$GOMP_LIB [libomp]=$KMP_LIB)
for rt in "${RUNTIMES[@]}"; do
  mkdir -p "$LIBDIRS/$rt" && ln -sfn "${LIBOF[$rt]}" "$LIBDIRS/$rt/libgomp.so.1"
done
declare -A WRONG_RT=() # prog|rt -> reason, when ldd does not resolve to the runtime's directory
for r in "${SEL[@]}"; do
  IFS='|' read -r _ _ _ _ cmd <<<"$r"
  exe=${cmd%% *}
  [ -x "$exe" ] || continue
  for rt in "${RUNTIMES[@]}"; do
    got=$(LD_LIBRARY_PATH=$LIBDIRS/$rt ldd "$exe" 2>/dev/null | awk '$1 == "libgomp.so.1" { print $3 }')
    [ "$got" = "$LIBDIRS/$rt/libgomp.so.1" ] || WRONG_RT[$exe|$rt]="wrong runtime loaded ($got)"
  done
done

# ---- runs -----------------------------------------------------------------------------------
STAMP=$(date -u +%Y-%m-%d-%H%M%S)
mkdir -p bench/results
CSV=bench/results/apps-$STAMP.csv MD=bench/results/apps-$STAMP.md
WORK=$(mktemp -d "$ROOT/build/bench/apps.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
IFS=, read -r -a TLIST <<<"$THREADS"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) CPUs," \
    "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); load average before: $LOAD0"
  echo "# compiler: $(gcc --version | head -1), -O2 -fopenmp; runtimes: tomp" \
    "$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo '+dirty')" \
    "($TOMP_LIB), libgomp $(dpkg-query -W -f '${Version}' libgomp1 2>/dev/null)," \
    "libomp $(dpkg-query -W -f '${Version}' libomp5-14 2>/dev/null) ($KMP_LIB)"
  echo "# sources: $(for s in npb lulesh bots epcc; do [ -n "${VERSION[$s]:-}" ] && printf '%s; ' "${VERSION[$s]}"; done)"
  echo "# method: bench/apps.sh $([ $QUICK = 1 ] && echo '--quick ')($ROUNDS interleaved rounds," \
    "threads $THREADS, rows: ${ARGS[*]:-all})"
  echo "set,row,threads,runtime,round,status,value,unit"
} >"$CSV"
echo "apps: ${#SEL[@]} programs x ${#RUNTIMES[@]} runtimes x $ROUNDS rounds, threads $THREADS," \
  "timeout ${TIMEOUT}s; load average $LOAD0; $(nproc) CPUs; cache $CACHE" >&2

# parse parser file rc wall: prints "row-suffix|ok|value|unit" lines, or "|fail|reason|"
parse() {
  local p=$1 f=$2 rc=$3 wall=$4
  if [ "$rc" != 0 ]; then
    case $rc in
      124 | 137) echo "|fail|timeout ${TIMEOUT}s|" ;;
      127) echo "|fail|missing entry point or library|" ;;
      *) if [ "$rc" -gt 128 ]; then echo "|fail|killed by signal $((rc - 128))|"
         else # the program's (or the loader's) first complaint says why
           echo "|fail|exit $rc: $(grep -m1 -i 'error\|not found\|fail' "$f" | tr -d '|' | cut -c1-100)|"; fi ;;
    esac
    return
  fi
  case $p in
    npb | npbwall | bots)
      local key='Time in seconds' && [ "$p" = bots ] && key='Time Program'
      if ! grep -Eiq '^[[:space:]]*Verification[[:space:]]*=[[:space:]]*SUCCESSFUL' "$f"; then
        echo "|fail|verification failed|"
      else
        # NPB 3.0's IS prints a garbage time (its timer overflows): its wall clock is used
        awk -F= -v k="$key" -v wall="$wall" -v p="$p" '$1 ~ "^[ \t]*" k { v = $2 + 0; n++ }
          END { if (!n) print "|fail|no time printed|"; else print "|ok|" (p == "npbwall" ? wall : v) "|s" }' "$f"
      fi ;;
    lulesh)
      awk -v wall="$wall" '/Run completed/ { done = 1 } /MaxRelDiff/ { d = $3 + 0; seen = 1 }
        END { if (!done || !seen) print "|fail|no result printed|"
              else if (d > 1e-8 || d < 0) print "|fail|verification failed (MaxRelDiff " d ")|"
              else print "|ok|" wall "|s" }' "$f" ;;
    team)
      if grep -q ': ok$' "$f"; then awk '/^time = / { print "|ok|" $3 "|s" }' "$f"
      else echo "|fail|verification failed|"; fi ;;
    epcc)
      if grep -q 'STOP' "$f" || ! grep -q ' overhead = ' "$f"; then echo "|fail|no result (see output)|"
      else
        sed -n 's/^\(.*[^ ]\) overhead = *\([-0-9.e]*\) microseconds.*/\1|ok|\2|us/p' "$f" |
          sed 's/^/ /; s/ /:/; s/ /_/g'
      fi ;;
  esac
}

run_one() { # round rowspec T rt
  local round=$1 set row tt p cmd T=$3 rt=$4 out rc t0 t1 line
  IFS='|' read -r set row tt p cmd <<<"$2"
  local exe=${cmd%% *}
  out=$WORK/out
  if [ -n "${BUILD_FAIL[$(basename "$exe")]:-}" ]; then
    line="|fail|${BUILD_FAIL[$(basename "$exe")]}|"
  elif [ -n "${WRONG_RT[$exe|$rt]:-}" ]; then
    line="|fail|${WRONG_RT[$exe|$rt]}|"
  else
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # the command line is split on purpose
    (cd "$WORK" && LD_LIBRARY_PATH=$LIBDIRS/$rt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
      OMP_NUM_THREADS=$T exec timeout -k 5 "$TIMEOUT" $cmd) >"$out" 2>&1 </dev/null
    rc=$?
    t1=$(date +%s.%N)
    cp "$out" "$LOGS/last-$row-$T-$rt.out"
    line=$(parse "$p" "$out" $rc "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
  fi
  while IFS='|' read -r suffix status value unit; do
    [ -n "$status" ] || continue
    echo "$set,$row$suffix,$T,$rt,$round,$status,${value//,/;},$unit" >>"$CSV"
    [ "$status" = fail ] && echo "apps: $row T=$T $rt round $round: FAILED: $value" >&2
  done <<<"$line"
}

for ((round = 1; round <= ROUNDS; round++)); do
  msg="round $round of $ROUNDS: $(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "apps: $msg" >&2
  echo "# $msg" >>"$CSV"
  for r in "${SEL[@]}"; do
    IFS='|' read -r _ _ tt _ _ <<<"$r"
    if [ "$tt" = T ]; then tl=("${TLIST[@]}"); else tl=("$tt"); fi
    for T in "${tl[@]}"; do
      for ((k = 0; k < ${#RUNTIMES[@]}; k++)); do
        rt=${RUNTIMES[$(((k + round) % ${#RUNTIMES[@]}))]}
        run_one $round "$r" "$T" "$rt"
      done
    done
  done
done

echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$CSV"
report "$CSV" "$MD"
cat "$MD"
echo >&2
echo "apps: results in $CSV and $MD; outputs of the last runs in $LOGS" >&2
