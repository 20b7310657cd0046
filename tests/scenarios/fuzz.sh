#!/usr/bin/env bash
# The fuzz targets' short run (tools/fuzz.sh --check): every committed input of
# tests/fuzz/corpus once (the regressions of what fuzzing found are among them), then a few
# seconds of fuzzing per target.  Only with the release build: the targets build their own
# sanitized copy of tomp (build-fuzz/), so the sanitizer variants of the suite skip it.
set -u
case "${TOMP_BUILD:-build}" in
  *-tsan | *-asan) echo "the fuzz targets carry their own ASan+UBSan build: run with the release build"; exit 77 ;;
esac
exec nice tools/fuzz.sh --check "${FUZZ_SECONDS:-3}"
