#!/usr/bin/env bash
# gcc must route atomics on long double / __int128 through GOMP_atomic_start/end, or the
# atomic_fallback test would not exercise the runtime at all.
set -eu
src=$(dirname "$0")/../atomic_fallback.c
exe=$TEST_OUT/atomic_fallback_scn
gcc -fopenmp -O2 "$src" -o "$exe"
objdump -d "$exe" | grep -q 'call.*<GOMP_atomic_start@plt>'
objdump -d "$exe" | grep -q 'call.*<GOMP_atomic_end@plt>'
env LD_LIBRARY_PATH=$TOMP_BUILD/lib ${SANLIB:+LD_PRELOAD="$SANLIB"} "$exe"
