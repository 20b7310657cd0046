# Shared by tests/ompt/run-test.sh (the OMPT directive tests) and tests/scenarios/ompt_*.sh:
# build the ompt-print tool and test programs.
#   TOMP_BUILD (from tests/run.sh) is the build directory; TEST_OUT the scratch directory.
set -eu
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TOMP_BUILD=${TOMP_BUILD:-$ROOT/build}
TEST_OUT=${TEST_OUT:-$TOMP_BUILD/tests}
W=$TEST_OUT/ompt
mkdir -p "$W"
FILECHECK=${FILECHECK:-FileCheck-14}
LLVM_INC=/usr/lib/llvm-14/lib/clang/14.0.6/include
TOOL=$W/libompt-print.so
gcc -O1 -g -Wall -Wextra -Werror -shared -fPIC -I"$ROOT/include" \
  "$ROOT/tools/ompt-print/ompt-print.c" -o "$TOOL" -ldl

# build NAME SRC [extra gcc args]: an OpenMP program, exporting its symbols so the tool can
# name codeptr_ra.  BUILD_CC=clang-14: LLVM's ABI, with clang's own omp.h.
build() {
  local name=$1 src=$2; shift 2
  if [ "${BUILD_CC:-gcc}" = gcc ]; then
    gcc -fopenmp -O1 -g -rdynamic -I"$ROOT/include" "$src" -o "$W/$name" "$@"
  else
    "$BUILD_CC" -fopenmp -O1 -g -rdynamic -idirafter "$ROOT/include" "$src" -o "$W/$name" "$@"
  fi
}

# on_tomp ENV... -- CMD: run with tomp as libgomp.so.1
on_tomp() {
  env LD_LIBRARY_PATH="$TOMP_BUILD/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$@"
}

# Sort the tool's lines by thread number, keeping each thread's order.
by_thread() { grep -E '^[0-9]+: ' | sort -s -n -t: -k1,1; }

no_errors() { # FILE
  if grep -q 'ERROR' "$1"; then echo "tool reported errors in $1:"; grep ERROR "$1" | head; return 1; fi
}
