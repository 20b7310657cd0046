# Shared preamble of tests/prof/rec_common.sh and rep_common.sh (sourced, with $1 the work
# directory's name under the test output): the release build only, tomp-prof built, an empty
# work directory $W.
set -eu
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=${TOMP_BUILD:-build}
if [ "$(basename "$B")" != build ]; then
  echo "tomp-prof is tested on the release build only (TOMP_BUILD=$B)"
  exit 77
fi
if ! out=$(make -s -C "$ROOT" -j2 prof 2>&1); then
  echo "$out"
  # a machine without libdw's headers: the Makefile said what to install
  grep -q 'apt-get install libdw-dev' <<<"$out" && exit 77
  exit 1
fi
PROF=$ROOT/build/tomp-prof
W=${TEST_OUT:-$ROOT/build/tests}/$1
rm -rf "$W"
mkdir -p "$W"
