# include/omp-tools.h against LLVM 14's omp-tools.h: every enumerator both headers define has
# the same value, and every struct type both define has the same size and alignment.  The
# same generated translation unit is compiled once against each header and the printed
# values compared.  Also: the header compiles as C89-free C11 and as C++.
# A scenario, not a tests/ompt directive test: it compares headers; no program runs under a
# tool.
source "$(dirname "$0")/../ompt/common.sh"
OURS=$ROOT/include/omp-tools.h
THEIRS=$LLVM_INC/omp-tools.h
[ -f "$THEIRS" ] || { echo "LLVM's omp-tools.h not installed: skipped"; exit 0; }
# enumerators: "  name = value," lines of our header; shared if LLVM's header names them too
grep -oE '^\s*ompt_[a-z0-9_]+\s*=' "$OURS" | tr -d ' =' | sort -u > "$W/enums.ours"
grep -oE '\bompt_[a-z0-9_]+\b' "$THEIRS" | sort -u > "$W/idents.theirs"
comm -12 "$W/enums.ours" "$W/idents.theirs" > "$W/enums.shared"
# struct typedefs
grep -oE '^\}\s*ompt_[a-z0-9_]+_t;' "$OURS" | grep -oE 'ompt_[a-z0-9_]+_t' | sort -u > "$W/types.ours"
for t in $(cat "$W/types.ours"); do
  grep -qE "\b$t\b" "$THEIRS" && grep -qE "typedef (struct|union) $t\b" "$OURS" && echo "$t"
done > "$W/types.shared" || true
ne=$(wc -l < "$W/enums.shared"); nt=$(wc -l < "$W/types.shared")
echo "shared enumerators: $ne, shared struct/union types: $nt"
[ "$ne" -gt 150 ] || { echo "too few shared enumerators: extraction broken"; exit 1; }
[ "$nt" -gt 25 ] || { echo "too few shared types: extraction broken"; exit 1; }
{
  echo '#include <stdio.h>'
  echo '#include <stdalign.h>'
  echo '#include <omp-tools.h>'
  echo 'int main(void) {'
  while read -r e; do echo "  printf(\"$e %lld\\n\", (long long)(unsigned)$e);"; done < "$W/enums.shared"
  while read -r t; do echo "  printf(\"sizeof($t) %zu align %zu\\n\", sizeof($t), alignof($t));"; done < "$W/types.shared"
  echo '  printf("sizeof(ompt_data_t) %zu\n", sizeof(ompt_data_t));'
  echo '  return 0;'
  echo '}'
} > "$W/abi.c"
mkdir -p "$W/inc_ours" "$W/inc_llvm"
cp "$OURS" "$W/inc_ours/omp-tools.h"; cp "$THEIRS" "$W/inc_llvm/omp-tools.h"
gcc -std=c11 -Wall -Werror -I"$W/inc_ours" "$W/abi.c" -o "$W/abi_ours"
gcc -std=c11 -w -I"$W/inc_llvm" "$W/abi.c" -o "$W/abi_llvm"
"$W/abi_ours" > "$W/abi.ours"; "$W/abi_llvm" > "$W/abi.llvm"
if ! diff "$W/abi.llvm" "$W/abi.ours"; then echo "ABI differs from LLVM 14's header"; exit 1; fi
# 5.2 additions LLVM 14 lacks: values per the specification
printf '%s\n' '#include <omp-tools.h>' '#ifdef __cplusplus' '#define _Static_assert static_assert' '#endif' \
  '_Static_assert(ompt_work_loop_static == 10 && ompt_work_loop_dynamic == 11, "5.2");' \
  '_Static_assert(ompt_work_loop_guided == 12 && ompt_work_loop_other == 13, "5.2");' \
  '_Static_assert(ompt_dispatch_ws_loop_chunk == 3 && ompt_dispatch_taskloop_chunk == 4, "5.2");' \
  '_Static_assert(ompt_dispatch_distribute_chunk == 5 && sizeof(ompt_dispatch_chunk_t) == 16, "5.2");' \
  '_Static_assert(ompt_sync_region_barrier_implicit_parallel == 9 && ompt_callback_error == 37, "5.1");' \
  'int main(void) { return 0; }' > "$W/abi52.c"
gcc -std=c11 -Wall -Wextra -Werror -I"$ROOT/include" "$W/abi52.c" -o "$W/abi52"
g++ -std=c++11 -Wall -Wextra -Werror -x c++ -I"$ROOT/include" "$W/abi52.c" -o "$W/abi52pp"
echo ok
