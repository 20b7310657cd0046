#!/usr/bin/env bash
# tomp exports the system libgomp's ABI: every dynamic symbol libgomp defines, in the same
# version node and with the same default (@@) or non-default (@) binding, OpenACC and
# offload-plugin entry points aside (GOACC_*, OACC_*, acc_*, GOMP_PLUGIN_*).  Prints the
# missing ones grouped by version, then those present with the wrong binding; tomp's extra
# exports are listed for information.  This is the checklist for merging the modules.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/abi_symbols
mkdir -p "$W"
SYS=$(readlink -f "$(gcc -print-file-name=libgomp.so.1)")
[ -e "$SYS" ] || SYS=$(readlink -f /usr/lib/x86_64-linux-gnu/libgomp.so.1)
[ -e "$SYS" ] || { echo "the system libgomp.so.1 is not installed"; exit 1; }

# "name version binding" for each defined dynamic symbol; binding is @@ (default) or @.
exports() {
  objdump -T "$1" | awk '
    $0 ~ /\*UND\*/ { next }
    NF >= 7 && $(NF-2) ~ /^[0-9a-f]+$/ {
      name = $NF; ver = $(NF-1)
      if (ver ~ /^\(.*\)$/) { ver = substr(ver, 2, length(ver) - 2); bind = "@" } else bind = "@@"
      if (ver == "Base" || name == ver) next     # version definitions, not symbols
      print name, ver, bind
    }' | grep -Ev '^(GOACC_|OACC_|acc_|GOMP_PLUGIN_)' | grep -Ev ' (OACC|GOACC)_' | sort -u
}
exports "$SYS" >"$W/libgomp.syms"
exports "$B/libtomp.so" >"$W/tomp.syms"
ref=$(wc -l <"$W/libgomp.syms")
[ "$ref" -gt 100 ] || { echo "could not read libgomp's symbols ($ref)"; exit 1; }

# name@ver pairs
awk '{print $1 "@" $2}' "$W/libgomp.syms" | sort -u >"$W/libgomp.pairs"
awk '{print $1 "@" $2}' "$W/tomp.syms" | sort -u >"$W/tomp.pairs"
comm -23 "$W/libgomp.pairs" "$W/tomp.pairs" >"$W/missing"
# present in both, binding differs
join <(awk '{print $1 "@" $2, $3}' "$W/libgomp.syms" | sort) \
     <(awk '{print $1 "@" $2, $3}' "$W/tomp.syms" | sort) | awk '$2 != $3' >"$W/binding"
comm -13 "$W/libgomp.pairs" "$W/tomp.pairs" >"$W/extra"

nmiss=$(grep -c . "$W/missing"); nbind=$(grep -c . "$W/binding"); nextra=$(grep -c . "$W/extra")
if [ "$nmiss" -gt 0 ]; then
  echo "MISSING ($nmiss), by version node:"
  sed 's/\(.*\)@\(.*\)/\2 \1/' "$W/missing" | sort -k1,1V -k2 | awk '{printf "  missing %s@%s\n", $2, $1}'
fi
if [ "$nbind" -gt 0 ]; then
  echo "WRONG BINDING ($nbind) (@@ = default version, @ = non-default compatibility version):"
  awk '{printf "  binding %s: libgomp %s, tomp %s\n", $1, $2, $3}' "$W/binding"
fi
if [ "$nextra" -gt 0 ]; then
  echo "extra exports of tomp, not in libgomp (information only): $(tr '\n' ' ' <"$W/extra")"
fi
echo "libgomp ($SYS): $ref symbol versions to provide (OpenACC and plugin entry points aside)"
echo "tomp ($B/libtomp.so): $((ref - nmiss)) provided, $nmiss missing, $nbind with the wrong binding"
echo "(lists in $W: missing, binding, extra)"
[ "$nmiss" -eq 0 ] && [ "$nbind" -eq 0 ]
