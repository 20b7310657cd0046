# Debian source packages for the local checks against external test suites
# (tools/gcc-testsuite.sh, tools/llvm-ompt-tests.sh); sourced, not run.
#
#   debsrc_download DIR PACKAGE LOG [SUITES]
#
# downloads PACKAGE's Debian source (from SUITES, default Debian 12's "bookworm
# bookworm-updates") into DIR/apt with an apt configuration of its own (a private deb-src list;
# the system's apt sources stay untouched) and prints the path of its .orig tarball.  Only the
# .orig tarball is needed: a .dsc or Debian diff that the archive no longer serves is not an
# error.  Returns nonzero (details in LOG) when apt cannot fetch the tarball.
debsrc_download() {
  local apt=$1/apt pkg=$2 log=$3 suites=${4:-bookworm bookworm-updates} uri
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  uri=$(sed -n 's/^URIs:[ ]*\(.*debian\)[/]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  uri=${uri:-http://deb.debian.org/debian}
  cat >"$apt/src.sources" <<SRCS
Types: deb-src
URIs: $uri
Suites: $suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRCS
  local o=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt"
           -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  apt-get "${o[@]}" update >"$log" 2>&1 || return 1
  (cd "$apt" && apt-get "${o[@]}" source --download-only "$pkg") >>"$log" 2>&1
  ls "$apt/$pkg"_*.orig.tar.* 2>/dev/null | head -1 | grep . || return 1
}
