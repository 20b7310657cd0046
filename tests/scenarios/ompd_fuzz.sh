#!/usr/bin/env bash
# libtompd on corrupt memory: tests/ompd/fuzz_reads.c, built with the library's sources under
# ASan and UBSan, walks every entry point over address spaces of pseudo-random contents (a
# well-formed layout, random everything else) for OMPD_FUZZ_SEEDS seeds (default 1000, a few
# seconds): no crash, no bad access, every answer an ompd_rc_t.  Deterministic: a failure
# names its seed, and `fuzz_reads 1 SEED` replays it.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${TEST_OUT:-/tmp}/ompd_fuzz
case "${TOMP_BUILD:-build}" in
  *-tsan | *-asan) echo "builds its own ASan+UBSan copy of libtompd: run with the release build"; exit 77 ;;
esac
mkdir -p "$OUT"
gcc -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Wall -Wextra \
  -Werror -Wno-unused-parameter -I"$ROOT/include" -D_GNU_SOURCE -o "$OUT/fuzz_reads" \
  "$ROOT/tests/ompd/fuzz_reads.c" "$ROOT"/tools/ompd/*.c || exit 1
exec "$OUT/fuzz_reads" "${OMPD_FUZZ_SEEDS:-1000}" 1
