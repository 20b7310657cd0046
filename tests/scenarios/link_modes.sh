#!/usr/bin/env bash
# An unmodified `gcc -fopenmp` binary runs on tomp three ways, and in none of them is the
# system libgomp loaded:
#   1. LD_PRELOAD=$TOMP_BUILD/libtomp.so ./app     (tomp's SONAME is libgomp.so.1, so it
#      satisfies the binary's DT_NEEDED libgomp.so.1 and the system copy is never opened)
#   2. LD_LIBRARY_PATH=$TOMP_BUILD/lib ./app       (libgomp.so.1 there is tomp)
#   3. linked against tomp: -L$TOMP_BUILD -ltomp with a run path on $TOMP_BUILD/lib
# Each is checked from inside the program (/proc/self/maps) and from outside (LD_DEBUG=libs,
# ldd, readelf).
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/link_modes
rm -rf "$W"; mkdir -p "$W"
TOMP=$(readlink -f "$B/libtomp.so")
SYS=$(readlink -f "$(gcc -print-file-name=libgomp.so.1)")
[ -e "$SYS" ] || SYS=$(readlink -f /usr/lib/x86_64-linux-gnu/libgomp.so.1)
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

cat >"$W/app.c" <<'C'
#include <omp.h>
#include <stdio.h>
#include <string.h>
/* Runs a region, then prints every mapped library whose name says gomp or tomp. */
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    n++;
  }
  if (n != 3) { fprintf(stderr, "region ran %d threads\n", n); return 1; }
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096], last[4096] = "";
  while (f && fgets(line, sizeof line, f)) {
    char *p = strchr(line, '/');
    if (!p || (!strstr(p, "gomp") && !strstr(p, "tomp"))) continue;
    if (strcmp(p, last)) printf("maps: %s", p);
    strcpy(last, p);
  }
  return 0;
}
C
gcc -fopenmp -O2 "$W/app.c" -o "$W/app" || { echo "cannot build app"; exit 1; }

# check NAME OUTPUT: exactly tomp (and not the system libgomp) is mapped
check_maps() {
  local name=$1 out=$2
  local libs
  libs=$(echo "$out" | sed -n 's/^maps: //p' | sort -u)
  if echo "$libs" | grep -qxF "$SYS"; then bad "$name: the system libgomp is loaded ($SYS)"; fi
  if ! echo "$libs" | grep -qxF "$TOMP"; then bad "$name: tomp ($TOMP) is not loaded; mapped: $libs"; fi
  if [ "$(echo "$libs" | grep -c .)" -ne 1 ]; then bad "$name: more than one OpenMP library mapped: $libs"; fi
  if echo "$libs" | grep -qxF "$TOMP" && [ "$(echo "$libs" | grep -c .)" -eq 1 ]; then ok "$name: only $TOMP mapped"; fi
}
# the loader's own account: every OpenMP library it initialised must be tomp
check_ld_debug() {
  local name=$1 log=$2 f inits=0
  for f in $(sed -n 's/.*calling init: \([^ ]*\(gomp\|tomp\)[^ ]*\).*/\1/p' "$log" | sort -u); do
    inits=$((inits + 1))
    [ "$(readlink -f "$f")" = "$TOMP" ] || bad "$name: LD_DEBUG shows the loader initialising $f"
  done
  [ $inits -gt 0 ] || bad "$name: LD_DEBUG shows no OpenMP library initialised"
  [ $inits -gt 0 ] && ! grep "calling init:" "$log" | grep -v -F "$TOMP" | grep -q gomp &&
    ok "$name: the loader initialised tomp and no other OpenMP library"
}

# 1. LD_PRELOAD
pre="${SANLIB:+$SANLIB }$B/libtomp.so"
if out=$(env LD_PRELOAD="$pre" LD_DEBUG=libs LD_DEBUG_OUTPUT="$W/preload.ld" "$W/app" 2>"$W/preload.err"); then
  check_maps "LD_PRELOAD" "$out"
  check_ld_debug "LD_PRELOAD" "$(ls "$W"/preload.ld.* | head -1)"
else
  bad "LD_PRELOAD: app failed: $(head -c 400 "$W/preload.err")"
fi

# 2. LD_LIBRARY_PATH
if out=$(env LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} LD_DEBUG=libs \
           LD_DEBUG_OUTPUT="$W/libpath.ld" "$W/app" 2>"$W/libpath.err"); then
  check_maps "LD_LIBRARY_PATH" "$out"
  check_ld_debug "LD_LIBRARY_PATH" "$(ls "$W"/libpath.ld.* | head -1)"
else
  bad "LD_LIBRARY_PATH: app failed: $(head -c 400 "$W/libpath.err")"
fi

# 3. linked against tomp directly
if gcc -fopenmp -O2 "$W/app.c" -o "$W/app_linked" -L"$B" -ltomp -Wl,-rpath,"$B/lib" 2>"$W/link.err"; then
  needed=$(readelf -d "$W/app_linked" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  rpath=$(readelf -d "$W/app_linked" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')
  echo "linked: NEEDED $needed; run path $rpath"
  case " $needed " in *" libgomp.so.1 "*) ok "linked: needs libgomp.so.1 (tomp's SONAME)";;
    *) bad "linked: NEEDED lacks libgomp.so.1: $needed";; esac
  [ "$rpath" = "$B/lib" ] || bad "linked: run path is '$rpath', not $B/lib"
  resolved=$(ldd "$W/app_linked" | awk '$1 == "libgomp.so.1" {print $3}')
  if [ "$(readlink -f "$resolved")" = "$TOMP" ]; then ok "linked: ldd resolves libgomp.so.1 to tomp";
  else bad "linked: ldd resolves libgomp.so.1 to '$resolved'"; fi
  if out=$(env ${SANLIB:+LD_PRELOAD="$SANLIB"} "$W/app_linked" 2>"$W/linked.err"); then
    check_maps "linked" "$out"
  else
    bad "linked: app failed: $(head -c 400 "$W/linked.err")"
  fi
else
  bad "linked: link against tomp failed: $(head -c 600 "$W/link.err")"
fi

echo "link_modes: $fails failure(s)"
[ $fails -eq 0 ]
