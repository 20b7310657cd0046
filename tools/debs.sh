# Sourced by tools/demo.sh and tools/check.sh.  need_debs TAG STRICT PACKAGE...: install the
# Debian packages that are missing (as root; otherwise name them).  STRICT=1: a package that
# cannot be had stops the caller (exit 1); STRICT=0: say so and go on.
need_debs() {
  local tag=$1 strict=$2 p missing=
  shift 2
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
  done
  [ -n "$missing" ] || return 0
  if [ "$(id -u)" = 0 ]; then
    echo "$tag: installing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    apt-get install -y -q $missing >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $missing >/dev/null; } ||
      if [ "$strict" = 1 ]; then
        echo "$tag: could not install:$missing"; exit 1
      else
        echo "$tag: could not install:$missing (tests that need them will fail)"
      fi
  else
    echo "$tag: missing Debian packages:$missing (run as root to install them)"
    [ "$strict" = 1 ] && exit 1
  fi
  return 0
}
