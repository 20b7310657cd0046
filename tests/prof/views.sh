#!/usr/bin/env bash
# tomp-prof views in their real viewers.  A bundled example (examples/mandelbrot.c) is
# recorded with --trace and exported as speedscope JSON, pprof and Chrome trace JSON; then
#  - `go tool pprof -top` (Debian golang-go) reads the pprof file and lists the user functions;
#  - speedscope (npm package, cached in ~/.cache/tomp-prof/speedscope, never in the repo) runs
#    in headless Chromium from a server on 127.0.0.1 and loads each file (speedscope also
#    imports pprof and Chrome traces): its sandwich view's DOM must list the profiles and
#    functions, and a screenshot of the flame chart is kept in TEST_OUT;
#  - the Chrome trace's structure is checked with python3 (Perfetto UI and chrome://tracing are
#    web-only; speedscope's trace importer is the viewer run here).
# The views must agree: speedscope's all-threads total and per-thread totals, and pprof's
# total.  Skips (exit 77) when a viewer is missing.
set -u
B=${TOMP_BUILD:-build}
[ "$(basename "$B")" = build ] || { echo "tomp-prof is tested on the release build only"; exit 77; }
root=$(cd "$(dirname "$0")/../.." && pwd)
W=${TEST_OUT:-/tmp}/prof_views
rm -rf "$W"; mkdir -p "$W/www"
for t in python3 go chromium npm; do
  command -v $t >/dev/null || { echo "$t not installed (Debian: python3 golang-go chromium npm): viewers not checked"; exit 77; }
done
t0=$EPOCHREALTIME
lap() { awk -v a="$t0" -v b="$EPOCHREALTIME" -v m="$1" 'BEGIN { printf "%-34s %5.1f s\n", m, b - a }'; }
fail() { echo "FAIL: $*"; exit 1; }

make -s -C "$root" -j2 prof build/examples/mandelbrot >"$W/make.log" 2>&1 || { cat "$W/make.log"; fail "make"; }
TP=$root/build/tomp-prof
OMP_NUM_THREADS=2 "$TP" record -o "$W/data" --trace -- "$root/build/examples/mandelbrot" >"$W/record.log" 2>&1 ||
  { tail "$W/record.log"; fail "tomp-prof record"; }
lap "recorded"

"$TP" report "$W/data" --format speedscope -o "$W/www/p.speedscope.json" >"$W/report.log" 2>&1 &&
  "$TP" report "$W/data" --format pprof -o "$W/www/p.pb.gz" >>"$W/report.log" 2>&1 &&
  "$TP" report "$W/data" --format chrome -o "$W/www/p.trace.json" >>"$W/report.log" 2>&1 ||
  { cat "$W/report.log"; fail "tomp-prof report"; }
# the region's outlined body is named by its construct, in every view and viewer: `omp
# parallel @ main` (the examples are built without -g, so by the creating function, not
# file:line; prof_report checks the file:line form)
site=main
funcs=(main "omp parallel @ $site")
lap "exported"

# pprof
export HOME=${HOME:-$W}
go tool pprof -top "$W/www/p.pb.gz" >"$W/pprof-top.txt" 2>&1 || { cat "$W/pprof-top.txt"; fail "go tool pprof -top"; }
grep -q '^Type: time' "$W/pprof-top.txt" || { cat "$W/pprof-top.txt"; fail "pprof: default sample type is not time"; }
for f in "${funcs[@]}"; do
  grep -qE "%  $f\$" "$W/pprof-top.txt" || { cat "$W/pprof-top.txt"; fail "go tool pprof -top does not list $f"; }
done
# pprof labels: the innermost region (and task) of each sample, by construct line
go tool pprof -tags "$W/www/p.pb.gz" >"$W/pprof-tags.txt" 2>&1 || { cat "$W/pprof-tags.txt"; fail "go tool pprof -tags"; }
grep -q "^ *region: Total" "$W/pprof-tags.txt" && grep -qE "%\): $site\$" "$W/pprof-tags.txt" ||
  { cat "$W/pprof-tags.txt"; fail "pprof: no region label $site"; }
go tool pprof -top -tagfocus="region=^$site\$" "$W/www/p.pb.gz" >"$W/pprof-region.txt" 2>&1 ||
  { cat "$W/pprof-region.txt"; fail "go tool pprof -tagfocus=region"; }
grep -qF "omp parallel @ $site" "$W/pprof-region.txt" && ! grep -q '  omp idle$' "$W/pprof-region.txt" ||
  { cat "$W/pprof-region.txt"; fail "pprof -tagfocus=region=$site should keep the region's body only"; }
python3 - "$W/www/p.speedscope.json" "$W/pprof-top.txt" <<'PY' || fail "views disagree"
import json, re, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))
prof = {p["name"]: sum(p["weights"]) for p in s["profiles"]}
total = prof.pop("all threads")
prof.pop("all threads: blame", None)
assert total > 0.1, f"all threads: {total} s"
assert abs(sum(prof.values()) - total) < 1e-6, f"per-thread profiles {prof} do not add up to {total}"
m = re.search(r"Total samples = ([0-9.]+)(ms|s)\b", open(sys.argv[2]).read())
pp = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
tol = 0.0015 if m.group(2) == "ms" else 0.011  # pprof prints 3 significant digits
assert abs(pp - total) < tol, f"pprof total {pp} s, speedscope {total} s"
print(f"speedscope and pprof agree: {total:.3f} s over {len(prof)} threads")
PY
lap "go tool pprof -top ok"
# pprof's web UI (go tool pprof -http) serves the top table and the flame graph
pport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
go tool pprof -no_browser -http=127.0.0.1:$pport "$W/www/p.pb.gz" >"$W/pprof-http.log" 2>&1 &
pprof_ui=$!
trap 'kill $pprof_ui 2>/dev/null' EXIT
python3 - "$pport" "$(IFS='|'; echo "${funcs[*]}")" <<'PY' || { cat "$W/pprof-http.log"; fail "go tool pprof -http"; }
import sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}/ui/"
for _ in range(100):
    try:
        top = urllib.request.urlopen(base + "top", timeout=5).read().decode()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("pprof web UI did not answer")
for f in sys.argv[2].split("|"):
    assert f'"Name":"{f}"' in top, f"pprof web UI top table lacks {f}"
assert urllib.request.urlopen(base + "flamegraph", timeout=5).status == 200
print("pprof web UI: top table and flame graph served")
PY
kill $pprof_ui 2>/dev/null; wait $pprof_ui 2>/dev/null
lap "go tool pprof -http ok"

# Chrome trace structure
python3 - "$W/www/p.trace.json" <<'PY' || fail "Chrome trace structure"
import json, sys, collections
t = json.load(open(sys.argv[1], encoding="utf-8"))
ev = t["traceEvents"]
assert isinstance(ev, list) and t.get("displayTimeUnit") in ("ms", "ns")
names = {}
for e in ev:
    assert e["ph"] in ("X", "i", "M"), e
    assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
    if e["ph"] == "M":
        if e["name"] == "thread_name": names[(e["pid"], e["tid"])] = e["args"]["name"]
        continue
    assert isinstance(e["name"], str) and e["ts"] >= 0, e
    if e["ph"] == "X": assert e["dur"] >= 0, e
xs = [e for e in ev if e["ph"] == "X"]
assert xs, "no slices (recorded without --trace?)"
assert "OpenMP thread 0" in names.values(), names
for e in xs: assert (e["pid"], e["tid"]) in names, f"slice on an unnamed thread: {e}"
bad = 0
stacks = collections.defaultdict(list)
for e in xs:
    st = stacks[(e["pid"], e["tid"])]
    while st and e["ts"] >= st[-1] - 1e-3: st.pop()
    if st and e["ts"] + e["dur"] > st[-1] + 1e-3: bad += 1
    st.append(e["ts"] + e["dur"])
cats = collections.Counter(e.get("cat") for e in xs)
print(f"trace: {len(xs)} slices on {len(names)} threads, categories {dict(cats)}, {bad} not nested")
PY
lap "trace structure ok"

# speedscope in headless Chromium
ver=${TOMP_PROF_SPEEDSCOPE:-1.25.0}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tomp-prof/speedscope-$ver
app=$cache/node_modules/speedscope/dist/release
if [ ! -f "$app/index.html" ]; then
  mkdir -p "$cache" && echo '{"private":true}' >"$cache/package.json"
  npm install --prefix "$cache" --no-audit --no-fund "speedscope@$ver" >"$W/npm.log" 2>&1 ||
    { tail -3 "$W/npm.log"; echo "npm could not install speedscope@$ver: speedscope not checked"; exit 77; }
fi
cp -r "$app/." "$W/www/"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$W/www" >"$W/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
port=
for _ in $(seq 50); do
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$W/http.log" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || fail "http.server did not start"
url=http://127.0.0.1:$port
browse() { # browse FILE VIEW PNG BUDGET_MS: speedscope's DOM after loading FILE in VIEW
  timeout 90 chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$W/chromium" \
    --window-size=1200,700 --virtual-time-budget="$4" --screenshot="$W/$3" --dump-dom \
    "$url/index.html#profileURL=$url/$1&view=$2" 2>>"$W/chromium.log" |
    sed 's/<[^>]*>/\n/g' | grep -v '^[[:space:]]*$' >"$W/$3.txt"
  [ -s "$W/$3" ] || fail "chromium wrote no screenshot for $1"
  grep -qi 'drag and drop\|something went wrong\|not recognized' "$W/$3.txt" &&
    { head -20 "$W/$3.txt"; fail "speedscope did not load $1"; }
  return 0
}
missing() { # missing PNG CHECK...: the first check the page's text fails (=LINE exact, ~TEXT in a line)
  local png=$1 c
  shift
  for c in "$@"; do
    case $c in
    =*) grep -qxF -- "${c#=}" "$W/$png.txt" || { echo "${c#=}"; return; } ;;
    '~'*) grep -qF -- "${c#'~'}" "$W/$png.txt" || { echo "${c#\~}"; return; } ;;
    esac
  done
}
# view FILE VIEW PNG CHECK...: load FILE and check what the page shows.  On a loaded machine
# speedscope may not have drawn everything within the virtual-time budget (seen in CI: only the
# toolbar in the DOM; once, the sandwich table's header without its rows), so a page that misses
# something is loaded again with longer budgets before the test fails.
view() {
  local file=$1 v=$2 png=$3 budget miss=
  shift 3
  for budget in 4000 15000 40000; do
    browse "$file" "$v" "$png" "$budget"
    miss=$(missing "$png" "$@")
    [ -z "$miss" ] && return 0
    echo "speedscope: $file ($v) does not show '$miss' yet after ${budget} ms; loading it again"
  done
  head -40 "$W/$png.txt"
  fail "speedscope ($png) does not show '$miss'"
}

exact=()
for f in "${funcs[@]}"; do exact+=("=$f"); done
view p.speedscope.json sandwich speedscope-sandwich.png "=all threads" "~thread 0" "${exact[@]}"
view p.speedscope.json left-heavy speedscope-flame.png "=all threads"
lap "speedscope: speedscope json ok"
view p.pb.gz sandwich pprof-sandwich.png "${exact[@]}"
lap "speedscope: pprof ok"
# speedscope imports the trace's sampled stacks (stackFrames/samples) when it has them: one
# profile per thread, the sampled functions (the slices' names are checked above)
view p.trace.json sandwich trace-sandwich.png "~OpenMP thread 0" "${exact[@]}"
lap "speedscope: chrome trace ok"
echo "screenshots: $W/*.png"
echo ok
