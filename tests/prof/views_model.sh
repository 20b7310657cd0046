#!/usr/bin/env bash
# tomp-prof views on a hand-built profile model (tests/prof/view_model.c), independent of
# recording: the exporters are compiled straight into the test program, which writes
# speedscope JSON, pprof and Chrome trace files for the model and for an empty profile.
# Checked: every JSON file parses (python3); speedscope's frames, profiles (all threads, one
# per thread, blame) and weight sums; string escaping round-trips; `go tool pprof` reads the
# pprof file and reports the model's totals per function, per thread label and for blame;
# the trace's slices have the model's durations in microseconds and nest on each thread.
set -u
B=${TOMP_BUILD:-build}
[ "$(basename "$B")" = build ] || { echo "tomp-prof is tested on the release build only"; exit 77; }
root=$(cd "$(dirname "$0")/../.." && pwd)
W=${TEST_OUT:-/tmp}/prof_views_model
rm -rf "$W"; mkdir -p "$W"
command -v python3 >/dev/null || { echo "python3 not installed: cannot check the JSON views"; exit 77; }
R=$root/tools/prof/report
cd "$root" # export-html.c's .incbin names its stylesheet and script from the top directory
gcc -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
  -Wmissing-prototypes -Wno-missing-field-initializers -I"$R" "$root/tests/prof/view_model.c" "$R/export-util.c" \
  "$R/export-speedscope.c" "$R/export-pprof.c" "$R/export-chrome.c" "$R/export-html.c" -lz -lm -o "$W/view_model" || exit 1
"$W/view_model" "$W" 2>"$W/stderr" || { cat "$W/stderr"; exit 1; }
grep -q 'no trace events' "$W/stderr" || { echo "no warning for a trace without events"; exit 1; }

python3 - "$W" <<'PY' || exit 1
import json, sys, collections
W = sys.argv[1]
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
def close(a, b, tol=1e-6):
    return abs(a - b) <= tol
WEIRD = 'weird "q" \\ \u00e9\t\x01 \ufffd end'

for base in ("model", "empty"):
    for ext in ("speedscope.json", "trace.json"):
        try:
            json.load(open(f"{W}/{base}.{ext}", encoding="utf-8"))
        except Exception as e:
            fail(f"{base}.{ext} is not valid JSON: {e}")

# speedscope
s = json.load(open(f"{W}/model.speedscope.json"))
if s.get("$schema") != "https://www.speedscope.app/file-format-schema.json": fail("speedscope $schema")
frames = s["shared"]["frames"]
names = [f["name"] for f in frames]
if sorted(names) != sorted(["main", "outer", "work_a", "work_b", "omp barrier wait", "omp idle", WEIRD]):
    fail(f"speedscope frames {names}")
byname = {f["name"]: f for f in frames}
if byname["main"].get("line") != 10 or byname["main"].get("file") != "/src/t.c":
    fail("main's two locations must be one frame at its first line")
if byname[WEIRD].get("file") != '/src/dir "q"/w.c': fail("file name escaping")
profs = {p["name"]: p for p in s["profiles"]}
want = {"all threads": 2.725, "pid 4242 thread 0": 1.375, "pid 4242 thread 1": 1.35,
        "all threads: blame": 0.5}
if set(profs) != set(want): fail(f"speedscope profiles {list(profs)}")
if s["profiles"][s.get("activeProfileIndex", 0)]["name"] != "all threads": fail("active profile")
for name, total in want.items():
    p = profs[name]
    if p["type"] != "sampled" or p["unit"] != "seconds": fail(f"{name}: type/unit")
    if len(p["samples"]) != len(p["weights"]): fail(f"{name}: samples and weights differ in length")
    if not close(sum(p["weights"]), total) or not close(p["endValue"] - p["startValue"], total):
        fail(f"{name}: weights sum {sum(p['weights'])}, want {total}")
    for st in p["samples"]:
        if not all(0 <= i < len(frames) for i in st): fail(f"{name}: frame index out of range")
        if names[st[0]] not in ("main", "omp idle"): fail(f"{name}: stack not root first: {st}")
leaf = collections.Counter()
for st, w in zip(profs["all threads"]["samples"], profs["all threads"]["weights"]):
    leaf[names[st[-1]]] += w
for fn, t in {"work_a": 1.0, "omp barrier wait": 1.0, "work_b": 0.5, WEIRD: 0.125, "omp idle": 0.1}.items():
    if not close(leaf[fn], t): fail(f"speedscope self time of {fn}: {leaf[fn]}, want {t}")
e = json.load(open(f"{W}/empty.speedscope.json"))
if len(e["profiles"]) != 1 or e["profiles"][0]["samples"]: fail("empty speedscope profile")

# Chrome trace
t = json.load(open(f"{W}/model.trace.json"))
ev = t["traceEvents"]
meta = {(x["name"], x["pid"], x["tid"]): x["args"] for x in ev if x["ph"] == "M"}
if meta.get(("process_name", 4242, 0), {}).get("name") != "app": fail("process name")
for tid, n in ((4242, 0), (4243, 1)):
    if meta.get(("thread_name", 4242, tid), {}).get("name") != f"OpenMP thread {n}": fail(f"thread name {tid}")
xs = [x for x in ev if x["ph"] == "X"]
got = sorted((x["tid"], x["name"], round(x["ts"], 3), round(x["dur"], 3)) for x in xs)
exp = sorted([(4242, "implicit task outer", 1000.0, 1250000.0), (4242, "parallel outer", 1000.0, 1500000.0),
              (4242, "barrier wait", 1001000.0, 250000.0), (4243, "implicit task outer", 1200.0, 1250000.0),
              (4243, "barrier wait", 501200.0, 750000.0)])
if got != exp: fail(f"trace slices {got}")
inst = [x for x in ev if x["ph"] == "i" and x["name"] == "task create"]
if len(inst) != 1 or inst[0]["tid"] != 4243 or inst[0].get("args", {}).get("id") != 7: fail("instant event")
# slices on one thread nest when taken in file order (enclosing slice first)
for tid in (4242, 4243):
    open_ends = []
    for x in [x for x in xs if x["tid"] == tid]:
        while open_ends and x["ts"] >= open_ends[-1]: open_ends.pop()
        if open_ends and x["ts"] + x["dur"] > open_ends[-1] + 1e-6: fail(f"slices do not nest on {tid}")
        open_ends.append(x["ts"] + x["dur"])
if [x["name"] for x in xs if x["tid"] == 4242][0] != "parallel outer": fail("enclosing slice not first")
# the sampled stacks: stackFrames (a tree) and samples pointing at their leaf frame
sf = t["stackFrames"]
def chain(i):
    out = []
    while i is not None:
        out.append(sf[i]["name"]); i = sf[i].get("parent")
    return ";".join(reversed(out))
got = [(x["tid"], round(x["ts"], 3), chain(x["sf"]), round(x["weight"], 3)) for x in t["samples"]]
exp = [(4242, 10000.0, "main;outer;work_a", 5000.0), (4242, 15000.0, "main;outer;work_a", 5000.0),
       (4242, 20000.0, "main;outer;omp barrier wait", 5000.0), (4243, 12000.0, "main;outer;work_b", 5000.0),
       (4243, 30000.0, "omp idle", 10000.0)]
if got != exp: fail(f"trace samples {got}")
if len(sf) != 6: fail(f"stackFrames: {len(sf)} frames, want 6 (main, outer, work_a, barrier wait, work_b, idle)")
if sf[t["samples"][0]["sf"]]["category"] != "app" or sf[t["samples"][4]["sf"]]["category"] != "omp": fail("frame categories")
e = json.load(open(f"{W}/empty.trace.json"))
if e.get("samples") != [] or e.get("stackFrames") != {}: fail("empty trace: no samples")
print("JSON views ok")
PY

if ! command -v go >/dev/null; then
  echo "go not installed (Debian golang-go): the pprof file was not checked with go tool pprof"; exit 77
fi
export HOME=${HOME:-$W}
pp() { go tool pprof "$@" 2>&1; }
pp -top "$W/model.pb.gz" >"$W/top.txt"
pp -top -sample_index=blame "$W/model.pb.gz" >"$W/blame.txt"
pp -top -sample_index=cpu "$W/model.pb.gz" >"$W/cpu.txt"
pp -top -tagfocus=thread=1 "$W/model.pb.gz" >"$W/thread1.txt"
pp -raw "$W/model.pb.gz" >"$W/raw.txt"
pp -top "$W/empty.pb.gz" >"$W/empty.txt"
python3 - "$W" <<'PY' || exit 1
import re, sys
W = sys.argv[1]
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
def top(name):
    rows = {}
    text = open(f"{W}/{name}").read()
    for line in text.splitlines():
        m = re.match(r"\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.*)$", line)
        if m:
            v = lambda s: 0.0 if s == "0" else float(s[:-2]) if s.endswith("ms") else float(s[:-1]) * 1000
            rows[m.group(3)] = (v(m.group(1)), v(m.group(2)))
    if not rows: fail(f"go tool pprof printed no rows:\n{text}")
    return text, rows
text, rows = top("top.txt")
if "Type: time" not in text: fail("default sample type is not time")
want = {"work_a": (1000, 1000), "omp barrier wait": (1000, 1000), "work_b": (500, 500),
        "omp idle": (100, 100), "main": (0, 2625), "outer": (0, 2500)}
for fn, v in want.items():
    if rows.get(fn) != v: fail(f"pprof {fn}: {rows.get(fn)}, want {v}\n{text}")
if not any(k.startswith('weird "q" \\ ') for k in rows): fail("pprof lost the escaped name")
_, rows = top("blame.txt")
if rows.get("work_a") != (500, 500): fail(f"pprof blame: {rows}")
_, rows = top("cpu.txt")
if rows.get("work_a") != (750, 750) or rows.get("omp barrier wait") != (250, 250) or "work_b" in rows:
    fail(f"pprof cpu: {rows}")
_, rows = top("thread1.txt")
if rows.get("work_b") != (500, 500) or rows.get("omp barrier wait") != (750, 750) or "work_a" in rows:
    fail(f"pprof thread=1 focus: {rows}")
raw = open(f"{W}/raw.txt").read()
for s in ("samples/count time/nanoseconds[dflt] work/nanoseconds wait/nanoseconds blame/nanoseconds cpu/nanoseconds",
          "PeriodType: time nanoseconds", "Period: 5000000", "thread:[0 index]", "pid:[4242]",
          "/tmp/app  [FN][FL][LN]"):
    if s not in raw: fail(f"pprof -raw lacks {s!r}:\n{raw}")
print("pprof ok")
PY
grep -q 'Showing nodes accounting for 0' "$W/empty.txt" || { cat "$W/empty.txt"; echo "empty pprof profile"; exit 1; }

# the HTML report's embedded data: it parses, names round-trip, no raw '<' in it
python3 - "$W" <<'PY' || exit 1
import json, sys
W = sys.argv[1]
WEIRD = 'weird "q" \\ \u00e9\t\x01 \ufffd end'
for base in ("model", "empty"):
    t = open(f"{W}/{base}.html", encoding="utf-8").read()
    raw = t.split('id="tp-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in raw, f"{base}.html: a raw '<' in the data"
    d = json.loads(raw)
    assert set(d) == {"procs", "locs", "stacks", "threads", "regions", "lanes", "events"}, d.keys()
    if base == "empty":
        assert not d["stacks"] and not d["threads"] and not d["lanes"], d
        continue
    names = [l[0] for l in d["locs"]]
    assert WEIRD in names, names
    assert len(d["stacks"]) == 6 and len(d["threads"]) == 2, d
    assert d["stacks"][0] == [0, [0, 1, 2], 1, 1, 0, 0.75, 0.5], "time, work, wait, cpu, blame" 
    time = sum(s[2] for s in d["stacks"])
    assert abs(time - sum(th[5] for th in d["threads"])) < 1e-6, "stack and thread times differ"
    assert d["regions"][0][1:4] == [1, 1.5, 2], d["regions"]
    assert len(d["events"]) == 5, "the instant is left out of the slices"
print("html data ok")
PY
echo ok
