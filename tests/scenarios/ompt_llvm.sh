# Interoperability with LLVM's OMPT: (1) ompt-print compiled against LLVM 14's omp-tools.h
# works with tomp (same events, all invariants); (2) the tool itself is validated on LLVM's
# libomp running the same gcc binary: events arrive, pairing and identity checks hold; the
# only complaints allowed are libomp's known deviations (frame flags left 0, barrier waits
# reported in state overhead / work_parallel, task flags that differ between the callback
# and ompt_get_task_info, worker barrier-end events after the worker left its task).
# A scenario, not a tests/ompt directive test: ompt-print is built against LLVM's header,
# and the tool itself is validated on LLVM's libomp (LD_PRELOAD), whose deviations it lists.
source "$(dirname "$0")/../ompt/common.sh"
[ -f "$LLVM_INC/omp-tools.h" ] || { echo "LLVM not installed: skipped"; exit 0; }
mkdir -p "$W/inc_llvm"; cp "$LLVM_INC/omp-tools.h" "$W/inc_llvm/"
LTOOL=$W/libompt-print-llvm.so
gcc -O1 -Wall -Wextra -Werror -shared -fPIC -I"$W/inc_llvm" "$ROOT/tools/ompt-print/ompt-print.c" \
  -o "$LTOOL" -ldl
build parallel "$ROOT/tests/ompt/parallel.c"
OMP_TOOL_LIBRARIES=$LTOOL on_tomp "$W/parallel" > "$W/llvmtool.out"
no_errors "$W/llvmtool.out"
by_thread < "$W/llvmtool.out" | $FILECHECK "$ROOT/tests/ompt/parallel.check"
LIBOMP=/usr/lib/llvm-14/lib/libomp.so.5
if [ -f "$LIBOMP" ] && [ -z "${SANLIB:-}" ]; then
  OMPT_PRINT_STRICT=0 OMP_TOOL_LIBRARIES=$TOOL LD_PRELOAD=$LIBOMP "$W/parallel" > "$W/libomp.out"
  for ev in 'thread_begin type=initial' 'parallel_begin' 'implicit_task_begin' 'implicit_task_end' \
            'parallel_end' 'sync_region_begin' 'thread_end' 'finalize'; do
    grep -q "^[0-9]*: $ev" "$W/libomp.out" || { echo "libomp: no $ev event"; exit 1; }
  done
  if grep ERROR "$W/libomp.out" | grep -vE 'without an address kind|is not a barrier wait|task flags|: state overhead|_end: task_data is not the current task|actual_parallelism [0-9]+, not 0|parallel_data not NULL at the end'; then
    echo "ompt-print reports unexpected errors on libomp (a tool bug?)"; exit 1
  fi
  echo "libomp deviations seen by ompt-print:"; grep ERROR "$W/libomp.out" | sed 's/^[0-9]*: //' | sort | uniq -c
fi
echo ok
