#!/usr/bin/env bash
# docs/kmp-abi.md's entry-point tables against the library: every `__kmpc_*` marked "yes" in
# the tomp column must be defined under the VERSION node clang programs bind.  Entry points
# the library has but the table still calls "no" are listed (the table needs updating).
set -u
B=${TOMP_BUILD:?}
DOC=docs/kmp-abi.md
defs=$(nm -D --defined-only "$B/libtomp.so" | awk '{print $3}' | grep '^__kmpc_.*@@\?VERSION$' | sed 's/@.*//' | sort -u)
fail=0 yes=0
while IFS='|' read -r _ name _ tomp _; do
  name=$(echo "$name" | tr -d ' `') tomp=$(echo "$tomp" | tr -d ' ')
  [[ "$name" == __kmpc_* ]] || continue
  if [ "$tomp" = yes ]; then
    yes=$((yes + 1))
    grep -qx "$name" <<<"$defs" || { echo "FAIL: $DOC says tomp has $name; the library lacks it@VERSION"; fail=1; }
  elif grep -qx "$name" <<<"$defs"; then
    echo "note: the library has $name, which $DOC marks no"
  fi
done <"$DOC"
echo "$yes entry points marked yes"
[ $yes -gt 50 ] || { echo "FAIL: the table was not read"; fail=1; }
exit $fail
