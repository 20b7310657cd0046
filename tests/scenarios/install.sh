#!/usr/bin/env bash
# `make install PREFIX=tmp` puts the promised files in place, and a program built with
#   gcc -fopenmp app.c $(pkg-config --cflags --libs tomp)
# runs on the installed tomp, with no environment variables, and never loads the system
# libgomp.  It also compiles against tomp's omp.h and can include omp-tools.h.
set -u
B=${TOMP_BUILD:?}
W=${TEST_OUT:-/tmp}/install
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$W"; mkdir -p "$W"
P=$W/prefix
case "$(basename "$B")" in
  build-tsan) SAN=tsan ;; build-asan) SAN=asan ;; *) SAN= ;;
esac
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v pkg-config >/dev/null || { echo "pkg-config is not installed (Debian: pkgconf)"; exit 1; }

make -C "$ROOT" --no-print-directory install PREFIX="$P" SAN="$SAN" >"$W/make.log" 2>&1 ||
  { cat "$W/make.log"; exit 1; }
for f in lib/libtomp.so lib/tomp/libgomp.so.1 include/tomp/omp.h include/tomp/omp-tools.h \
         lib/pkgconfig/tomp.pc; do
  [ -e "$P/$f" ] || bad "make install did not install $f"
done
# the OMPD library beside libtomp, where ompd_dll_locations names it (release builds)
[ -n "$SAN" ] || [ -e "$P/lib/libtompd.so" ] || bad "make install did not install lib/libtompd.so"
[ -L "$P/lib/tomp/libgomp.so.1" ] && [ "$(readlink -f "$P/lib/tomp/libgomp.so.1")" = "$(readlink -f "$P/lib/libtomp.so")" ] ||
  bad "lib/tomp/libgomp.so.1 is not a symbolic link to lib/libtomp.so"
soname=$(readelf -d "$P/lib/libtomp.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libgomp.so.1 ] || bad "installed library's SONAME is '$soname'"

export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(pkg-config --cflags --libs tomp) || { bad "pkg-config does not know tomp"; flags=; }
echo "pkg-config --cflags --libs tomp: $flags"
echo "version: $(pkg-config --modversion tomp)"

cat >"$W/app.c" <<'C'
#include <omp.h>
#include <omp-tools.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    n++;
  }
  if (n != 2) return 1;
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  while (f && fgets(line, sizeof line, f)) {
    char *p = strchr(line, '/');
    if (p && (strstr(p, "gomp") || strstr(p, "tomp"))) printf("maps: %s", p);
  }
  return 0;
}
C
# which omp.h the compiler picks
gcc $flags -E -H "$W/app.c" -o /dev/null 2>"$W/headers.txt"
grep -q "^\. $P/include/tomp/omp.h" "$W/headers.txt" || bad "omp.h did not come from $P/include/tomp: $(grep 'omp.h' "$W/headers.txt")"

if gcc -O2 "$W/app.c" -o "$W/app" $flags 2>"$W/build.log"; then
  echo "NEEDED: $(readelf -d "$W/app" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  echo "RUNPATH: $(readelf -d "$W/app" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')"
  # no LD_LIBRARY_PATH, no LD_PRELOAD (but a sanitizer runtime, which the build needs)
  if out=$(env -u LD_LIBRARY_PATH ${SANLIB:+LD_PRELOAD="$SANLIB"} "$W/app" 2>"$W/run.err"); then
    libs=$(echo "$out" | sed -n 's/^maps: //p' | sort -u)
    echo "mapped: $libs"
    [ "$libs" = "$(readlink -f "$P/lib/libtomp.so")" ] ||
      bad "expected only $P/lib/libtomp.so to be mapped, got: $libs"
  else
    bad "the program failed: $(head -c 500 "$W/run.err")"
  fi
else
  bad "build with pkg-config flags failed: $(head -c 800 "$W/build.log")"
fi

# DESTDIR staging keeps PREFIX in the .pc file
make -C "$ROOT" --no-print-directory install PREFIX=/opt/tomp DESTDIR="$W/stage" SAN="$SAN" >"$W/make2.log" 2>&1 ||
  bad "make install DESTDIR=... failed"
grep -q '^prefix=/opt/tomp$' "$W/stage/opt/tomp/lib/pkgconfig/tomp.pc" 2>/dev/null ||
  bad "with DESTDIR, tomp.pc does not say prefix=/opt/tomp"

echo "install: $fails failure(s)"
[ $fails -eq 0 ]
