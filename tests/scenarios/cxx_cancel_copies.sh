#!/usr/bin/env bash
# C++: cancelled tasks and taskloop chunks with firstprivate objects (copies made by gcc's
# cpyfn) still run their destructors (tests/cxx/cancel_copies.cc), on tomp and, to validate the
# test, on the system libgomp.
set -u
command -v g++ >/dev/null || { echo "g++ not installed: skipped"; exit 77; }
exe=$TEST_OUT/cxx_cancel_copies
g++ -fopenmp -O2 -Wall tests/cxx/cancel_copies.cc -o "$exe" || exit 1
rc=0
for i in 1 2 3; do
  env OMP_CANCELLATION=true LD_LIBRARY_PATH="$TOMP_BUILD/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} \
    timeout 120 "$exe" || { echo "FAIL: tomp, run $i"; rc=1; }
done
if [ -z "$SANLIB" ]; then
  env OMP_CANCELLATION=true timeout 120 "$exe" || { echo "FAIL: test invalid: libgomp fails it"; rc=1; }
fi
[ $rc -eq 0 ] && echo ok
exit $rc
