# Shared by tests/prof/html.sh and mpi.sh (sourced): open tomp-prof's HTML report in headless
# Chromium, offline, and check what its script rendered.
#   html_open FILE.html NAME [#FRAGMENT]   writes $W/NAME.png (screenshot) and $W/NAME.dom (the DOM after
#                                the script ran); fails unless the page says data-rendered="ok"
#   html_check NAME CHECKS...    python3 checks of $W/NAME.dom and $W/NAME.png (see below)
# Chromium runs with every host unresolvable, so a page that needed the network would show it.

html_have_chromium() {
  command -v chromium >/dev/null && command -v python3 >/dev/null
}

html_open() {
  local file=$1 name=$2 frag=${3:-}
  local budget
  for budget in 5000 20000; do # a loaded machine may need longer to lay the page out
    rm -f "$W/$name.png"
    timeout 90 chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$W/chromium-$name" \
      --host-resolver-rules="MAP * ~NOTFOUND" --window-size=1280,2600 --force-device-scale-factor=0.5 \
      --virtual-time-budget=$budget --screenshot="$W/$name.png" --dump-dom "file://$file$frag" \
      >"$W/$name.dom" 2>>"$W/chromium.log"
    grep -q '<body[^>]*data-rendered="ok"' "$W/$name.dom" && [ -s "$W/$name.png" ] && return 0
  done
  grep -o 'id="error">[^<]*' "$W/$name.dom" | head -5
  [ -s "$W/$name.png" ] || echo "chromium wrote no screenshot"
  tail -5 "$W/chromium.log"
  fail "chromium did not render $file (data-rendered is not ok)"
}

# html_check NAME 'KIND:VALUE'...: each check is one of
#   tree:NAME      a call-tree row (tr.node) the script created shows function NAME
#   notree:NAME    no call-tree row shows NAME
#   func:NAME      a row of the functions table (tr.func) shows NAME
#   zoom:TEXT      the timeline's zoom note says TEXT
#   flame:NAME     a flame-graph box (div.fbox) shows NAME
#   lanes:N        N timeline lanes (div.lane), each with a label and a canvas
#   lane:TEXT      a lane label contains TEXT
#   region:TEXT    a parallel-regions row (tr.region) contains TEXT
#   rank:N         N rows in the MPI ranks table (tr.rank)
#   threads:N      N rows in the threads table
#   color:RRGGBB:MIN  at least MIN pixels of that colour in the screenshot
# and always: the screenshot is a PNG of the window's size, not blank (many colours).
html_check() {
  local name=$1
  shift
  python3 - "$W/$name.dom" "$W/$name.png" "$@" <<'PY' || fail "the HTML report ($name) lacks what the script should have drawn"
import html.parser, struct, sys, zlib
dom, png, checks = sys.argv[1], sys.argv[2], sys.argv[3:]

class Dom(html.parser.HTMLParser):
    """Collects the text of elements by class/tag of interest."""
    def __init__(self):
        super().__init__()
        self.stack = []        # (tag, classes)
        self.items = {k: [] for k in ("node", "fbox", "lane", "lane-label", "region", "rank", "thread", "func")}
        self.ids = {}
        self.canvases = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "canvas": self.canvases += 1
        void = tag in ("meta", "br", "img", "input", "link", "canvas")
        if void: return
        if a.get("id"): self.ids[a["id"]] = ""
        self.stack.append((tag, cls, a.get("id")))
        for k in self.items:
            if k in cls: self.items[k].append("")
    def handle_endtag(self, tag):
        while self.stack:
            t, _, _ = self.stack.pop()
            if t == tag: break
    def handle_data(self, data):
        for t, cls, i in self.stack:
            for k in self.items:
                if k in cls and self.items[k]: self.items[k][-1] += data
            if i: self.ids[i] += data

d = Dom()
d.feed(open(dom, encoding="utf-8").read())
I = d.items
bad = []
for c in checks:
    kind, _, val = c.partition(":")
    if kind == "tree":
        if not any(val in t for t in I["node"]): bad.append(f"no call-tree row for {val!r}")
    elif kind == "notree":
        if any(val in t for t in I["node"]): bad.append(f"a call-tree row shows {val!r}")
    elif kind == "func":
        if not any(val in t for t in I["func"]): bad.append(f"no functions row for {val!r}")
    elif kind == "zoom":
        if val not in d.ids.get("zoom-note", ""): bad.append(f"zoom note {d.ids.get('zoom-note')!r}, want {val!r}")
    elif kind == "flame":
        if not any(t == val for t in I["fbox"]): bad.append(f"no flame-graph box for {val!r}")
    elif kind == "lanes":
        if len(I["lane"]) != int(val) or d.canvases < int(val):
            bad.append(f"{len(I['lane'])} timeline lanes, {d.canvases} canvases; want {val}")
    elif kind == "lane":
        if not any(val in t for t in I["lane-label"]): bad.append(f"no lane labelled {val!r}: {I['lane-label']}")
    elif kind == "region":
        if not any(val in t for t in I["region"]): bad.append(f"no region row with {val!r}")
    elif kind == "rank":
        if len(I["rank"]) != int(val): bad.append(f"{len(I['rank'])} rank rows, want {val}")
    elif kind == "threads":
        if len(I["thread"]) != int(val): bad.append(f"{len(I['thread'])} thread rows, want {val}")
    elif kind != "color":
        bad.append(f"unknown check {c}")

# the screenshot: decode the PNG (8-bit RGB or RGBA, non-interlaced) by hand
data = open(png, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and ctype in (2, 6) and not inter, (depth, ctype, inter)
        bpp = 3 if ctype == 2 else 4
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
counts = {}
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        k = bytes(line[x:x + 3])
        counts[k] = counts.get(k, 0) + 1
    prev = line
white = counts.get(b"\xff\xff\xff", 0)
print(f"screenshot {w}x{h}: {len(counts)} colours, {100 * (1 - white / (w * h)):.1f}% not white")
if len(counts) < 20 or white > 0.97 * w * h: bad.append("the screenshot is blank")
for c in checks:
    kind, _, val = c.partition(":")
    if kind == "color":
        rgb, _, mn = val.partition(":")
        got = counts.get(bytes.fromhex(rgb), 0)
        if got < int(mn): bad.append(f"{got} pixels of #{rgb} in the screenshot, want {mn}")
        else: print(f"#{rgb}: {got} pixels")
print(f"DOM: {len(I['node'])} tree rows, {len(I['fbox'])} flame boxes, {len(I['lane'])} lanes, "
      f"{len(I['region'])} regions, {len(I['rank'])} ranks, {len(I['thread'])} threads")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
}
