#!/usr/bin/env bash
# tomp-prof's single-file HTML report (report --html, tomp-prof html) in headless Chromium:
# rep_imbalance (2 threads, heavy_rows three times light_rows) recorded with --trace, the page
# written, then opened offline (every host unresolvable; the page's Content-Security-Policy
# allows no fetch at all) and its DOM read after the script ran: call-tree rows, flame-graph
# boxes, one timeline lane per thread, the regions and threads tables, all created by the
# page's script from the embedded data; the screenshot must be non-blank and show the
# timeline's work and wait colours and the --trace strip's barrier waits; a URL fragment
# selects one thread, a metric and a time range.  Also: the file references nothing outside
# itself, the embedded data holds no '<' (so no name can end its script element), and
# `tomp-prof html` writes tomp-prof.html.
# Skips (exit 77) when chromium or python3 is missing (Debian: chromium python3).
source "$(dirname "$0")/rep_common.sh"
source "$(dirname "$0")/html_common.sh"
html_have_chromium || { echo "chromium or python3 not installed (Debian: chromium python3): the HTML report is not checked"; exit 77; }

build rep_imbalance
record "$W/d" --trace -- "$W/rep_imbalance"
"$PROF" report "$W/d" --html "$W/r.html" 2>"$W/r.err" || { cat "$W/r.err"; fail "report --html"; }
grep -q "wrote $W/r.html (html)" "$W/r.err" || fail "report --html should say what it wrote"
# offline: no URL or external resource in the file
grep -nE 'https?://|<(link|img|iframe)[ >]|src=' "$W/r.html" | head -3 | grep . && fail "the page references something outside itself"
grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$W/r.html" || fail "no Content-Security-Policy"
[ "$(grep -c '</script>' "$W/r.html")" = 2 ] || fail "the page should have exactly two script elements"

html_open "$W/r.html" imb
site=$(grep -o 'omp parallel @ rep_imbalance.c:[0-9]*' "$W/imb.dom" | head -1)
[ -n "$site" ] || fail "the region body is not named by its construct"
html_check imb tree:main tree:compute "tree:$site" tree:heavy_rows tree:light_rows tree:kernel \
  "tree:omp barrier wait" func:heavy_rows func:kernel flame:heavy_rows flame:light_rows flame:main lanes:2 "lane:thread 0 (initial)" \
  "lane:thread 1" "region:compute (rep_imbalance.c:" threads:2 rank:0 color:3fa34d:400 color:f0a030:20 color:e07b39:50

# the fragment sets the initial view: thread 1 only (it ran light_rows, thread 0 heavy_rows),
# the cpu metric, the timeline zoomed to 0-0.1 s
html_open "$W/r.html" imb1 '#only=thread 1&metric=cpu&zoom=0-0.1'
html_check imb1 tree:light_rows notree:heavy_rows func:light_rows func:kernel "zoom:showing 0.000-0.100 s" lanes:2
# no '<' inside the embedded data (names are escaped; the script sets them as text)
python3 -c 'import sys; t = open(sys.argv[1], encoding="utf-8").read(); d = t.split("id=\"tp-data\">", 1)[1].split("</script>", 1)[0]; sys.exit("<" not in d)' "$W/r.html" &&
  fail "a raw '<' in the embedded data"
"$PROF" report "$W/d" --format html -o - 2>/dev/null | grep -q 'id="tp-data"' || fail "--format html -o -"
(cd "$W" && "$PROF" html d >/dev/null 2>&1) && [ -s "$W/tomp-prof.html" ] || fail "tomp-prof html writes tomp-prof.html"
cmp -s "$W/tomp-prof.html" "$W/r.html" || fail "tomp-prof html and report --html differ"
echo "prof_html: ok (screenshot $W/imb.png)"
