# OMPD's C API test: tests/scenarios/ompd_api.c loads libtompd.so with callbacks of its own
# and calls all 35 entry points on ompd_api_target.c, a program that holds a known state
# (nested regions, a thread blocked on a lock, a task running a known function, an idle
# worker), asserting real values (from a gcore core file of it, then live) and the error codes.  The target runs on a stripped copy of
# libtomp with libtompd.so beside it: the library must find everything from the dynamic
# symbol table and ompd_dll_locations must name it.  Then ompd_api_bp.c: a program that
# defines the ompd_bp_* functions itself and, in each, reads its own process through
# libtompd: the current region and task at each breakpoint are what OpenMP 5.2 says.
set -u
B=${TOMP_BUILD:-build}
OUT=${TEST_OUT:-/tmp}/ompd_api
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
if [ ! -e "$B/libtompd.so" ]; then echo "no libtompd.so in $B (sanitizer builds do not build it): skipped"; exit 77; fi
mkdir -p "$OUT/lib"
cp "$B/libtomp.so" "$OUT/lib/libtomp.so" && strip --strip-all "$OUT/lib/libtomp.so" || exit 1
cp "$B/libtompd.so" "$OUT/lib/libtompd.so" || exit 1
ln -sf libtomp.so "$OUT/lib/libgomp.so.1"
gcc -fopenmp -O1 -g -no-pie "$here/ompd_api_target.c" -o "$OUT/target" -lpthread || exit 1
gcc -O1 -g -Wall -Wextra -Werror -I"$ROOT/include" "$here/ompd_api.c" -o "$OUT/ompd_api" -ldl || exit 1
sym() { nm "$OUT/target" | awk -v s="$1" '$3 == s { print $1 }'; }
outer=$(sym outer_region._omp_fn.0); inner=$(sym inner_region._omp_fn.0)
task=$(sym spawn_task._omp_fn.0); phase=$(sym phase)
if [ -z "$outer" ] || [ -z "$inner" ] || [ -z "$task" ] || [ -z "$phase" ]; then
  echo "outlined bodies not found in the target: $(nm "$OUT/target" | grep _omp_fn)"; exit 1
fi
rc=0
for debug in enabled ""; do
  echo "OMP_DEBUG=$debug:"
  env ${debug:+OMP_DEBUG=$debug} OMP_NUM_THREADS=2,2 OMP_SCHEDULE=dynamic,3 OMP_MAX_ACTIVE_LEVELS=4 \
    OMP_THREAD_LIMIT=16 OMP_WAIT_POLICY=passive LD_LIBRARY_PATH="$OUT/lib" OMPD_LIB="$OUT/lib/libtompd.so" \
    timeout -k 5 60 "$OUT/ompd_api" "$OUT/target" "$outer" "$inner" "$task" "$phase" || rc=1
done
# The same on a clang-built target (LLVM's ABI, tomp as libomp.so.5): the task functions
# are clang's microtasks and task entry, not the front-end's runners (src/core/runner.h).
# Each is the one its (noinline) function hands the runtime.
if command -v clang-14 >/dev/null; then
  ln -sf libtomp.so "$OUT/lib/libomp.so.5"
  clang-14 -fopenmp -O1 -g -no-pie "$here/ompd_api_target.c" -o "$OUT/target-clang" -lpthread || exit 1
  objdump -d --no-show-raw-insn "$OUT/target-clang" >"$OUT/target-clang.dis"
  ref() { # FUNCTION PREFIX: the address of the first PREFIX* symbol FUNCTION's code names
    awk -v f="<$1>:" -v p="<$2" '$2 == f { on = 1; next } /^[0-9a-f]+ <.*>:$/ { on = 0 }
      on && index($0, p) { sub(/.*# /, ""); sub(/ .*/, ""); print; exit }' "$OUT/target-clang.dis"; }
  couter=$(ref outer_region .omp_outlined); cinner=$(ref inner_region .omp_outlined)
  ctask=$(ref spawn_task .omp_task_entry)
  cphase=$(nm "$OUT/target-clang" | awk '$3 == "phase" { print $1 }')
  if [ -z "$couter" ] || [ -z "$cinner" ] || [ -z "$ctask" ] || [ -z "$cphase" ]; then
    echo "clang target: microtasks not found ($couter $cinner $ctask $cphase)"; rc=1
  else
    for debug in enabled ""; do
      echo "clang, OMP_DEBUG=$debug:"
      env ${debug:+OMP_DEBUG=$debug} OMP_NUM_THREADS=2,2 OMP_SCHEDULE=dynamic,3 OMP_MAX_ACTIVE_LEVELS=4 \
        OMP_THREAD_LIMIT=16 OMP_WAIT_POLICY=passive LD_LIBRARY_PATH="$OUT/lib" OMPD_LIB="$OUT/lib/libtompd.so" \
        timeout -k 5 60 "$OUT/ompd_api" "$OUT/target-clang" "0x$couter" "0x$cinner" "0x$ctask" "$cphase" clang || rc=1
    done
  fi
fi
echo "breakpoints:"
gcc -fopenmp -O1 -g -no-pie -rdynamic -Wall -Wextra -Werror -I"$ROOT/include" "$here/ompd_api_bp.c" \
  -o "$OUT/bp" -ldl || exit 1
bsym() { nm "$OUT/bp" | awk -v s="$1" '$3 == s { print $1 }'; }
env OMP_DEBUG=enabled OMPD_LIB="$OUT/lib/libtompd.so" LD_LIBRARY_PATH="$OUT/lib" \
  timeout -k 5 60 "$OUT/bp" "$(bsym region._omp_fn.0)" "$(bsym spawn._omp_fn.0)" || rc=1
exit $rc
