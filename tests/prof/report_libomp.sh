#!/usr/bin/env bash
# report.sh's checks on clang -fopenmp programs running on LLVM's libomp
# (tomp-prof record --runtime libomp): the same stacks, waits, imbalance and blame.
command -v clang >/dev/null || { echo "clang not installed: cannot test tomp-prof on libomp"; exit 77; }
echo 'int main(void){return 0;}' | clang -fopenmp -x c - -o /tmp/prof_report_libomp.$$ 2>/dev/null ||
  { echo "clang -fopenmp cannot link (libomp-14-dev missing?)"; exit 77; }
rm -f /tmp/prof_report_libomp.$$
REP_TAG=report_libomp CC=clang RUNTIME=libomp exec bash "$(dirname "$0")/report.sh"
