/* tomp-prof's single-file HTML report: the page script (export-html.c embeds this file and
 * the profile as JSON in the script element tp-data).  It builds every view from that data with
 * DOM calls (names are set as text, never parsed as HTML) and needs no network:
 *   call tree   expandable, user-model stacks of all threads (or of one rank or thread: the
 *               threads selector) merged by function name; a functions table (self, total)
 *   flame graph icicle (root on top, heaviest first); click a frame to zoom, the root to zoom out
 *   timeline    one lane per thread: what each sample was doing (work, OpenMP wait, idle,
 *               runtime wait, MPI), hover for its stack; --trace slices on a strip above;
 *               drag across a lane to zoom into that time range, double-click to zoom out
 *   tables      parallel regions, MPI ranks (processes), threads
 * The URL's fragment can set the initial state (a link to a view): #metric=cpu&only=rank 1
 * (the threads selector's label)&zoom=0.5-0.8 (seconds).
 * When it is done, the body gets data-rendered="ok" (tests wait for it); an error is shown on the
 * page and sets data-rendered="error". */
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("tp-data").textContent);
  const METRICS = ["time", "work", "wait", "cpu", "blame"];
  const CLASSES = ["work", "OpenMP wait", "idle", "runtime wait", "MPI wait"];
  const CLASS_COLOR = ["#3fa34d", "#f0a030", "#c8ccd4", "#e8d44d", "#8e5cc4"];
  const CAT_COLOR = { parallel: "#4a78c2", task: "#2aa198", sync: "#e07b39", mutex: "#c0392b",
                      work: "#7f8c8d", idle: "#d5d8dc" };
  let metric = 0;
  let only = null; /* null: all threads; else a Set of thread indices (the "threads" selector) */

  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  const sec = (v) => v.toFixed(3);
  const pct = (v, t) => (t > 0 ? ((100 * v) / t).toFixed(1) + "%" : "-");
  const base = (f) => (f ? f.slice(f.lastIndexOf("/") + 1) : "");
  function where(loc) {
    const l = D.locs[loc];
    return l[1] ? base(l[1]) + (l[2] ? ":" + l[2] : "") : "";
  }
  function procName(pi) {
    const pr = D.procs[pi];
    return pr.rank >= 0 ? "rank " + pr.rank : D.procs.length > 1 ? "pid " + pr.pid : "";
  }
  function threadName(t) {
    const th = D.threads[t];
    const p = procName(th[0]);
    return (p ? p + " · " : "") + "thread " + th[1] + (th[3] === 1 ? " (initial)" : "");
  }
  function row(cells, cls) {
    const tr = el("tr", cls);
    for (const c of cells) {
      const td = el("td", c.cls, c.text);
      if (c.title) td.title = c.title;
      tr.appendChild(td);
    }
    return tr;
  }
  function header(table, names) {
    const tr = el("tr");
    for (const n of names) tr.appendChild(el("th", n === "function" || n === "created at" || n === "command" ? "fn" : "", n));
    table.appendChild(tr);
  }
  function nameClass(kind, name) {
    if (name === "MPI wait" || /^P?MPI_/.test(name)) return "mpi-name";
    return kind === 1 ? "synthetic" : "";
  }

  /* ---- summary ---- */
  function summary() {
    const tot = [0, 0, 0, 0, 0];
    for (const s of D.stacks) for (let m = 0; m < 5; m++) tot[m] += s[2 + m];
    const cls = [0, 0, 0, 0, 0];
    let samples = 0, lost = 0, dur = 0;
    for (const p of D.procs) {
      for (let c = 0; c < 5; c++) cls[c] += p.cls[c];
      samples += p.samples;
      lost += p.lost;
      dur = Math.max(dur, p.start + p.dur);
    }
    const pr = D.procs[0] || { cmd: "?", runtime: "?", hz: 0 };
    document.title = "tomp-prof: " + pr.cmd;
    const lines = [
      pr.cmd + "   runtime: " + pr.runtime +
        (D.procs.length > 1 ? "   " + D.procs.length + " processes" : ""),
      D.threads.length + " threads, " + samples + " samples (" + lost + " lost) at " + pr.hz +
        " Hz, " + sec(dur) + " s recorded",
      "thread time " + sec(tot[0]) + " s = work " + sec(tot[1]) + " s + wait " + sec(tot[2]) +
        " s (" + pct(tot[2], tot[0]) + " waiting" +
        (cls[4] > 0 ? ", of which MPI " + sec(cls[4]) + " s" : "") + "); cpu " + sec(tot[3]) +
        " s; blame " + sec(tot[4]) + " s",
    ];
    $("summary").textContent = lines.join("\n");
    return tot;
  }

  /* ---- the merged call tree (shared by the tree table and the flame graph) ---- */
  function buildTree() {
    const root = { name: "all threads", kind: -1, loc: -1, v: [0, 0, 0, 0, 0], kids: new Map(), depth: 0 };
    for (const s of D.stacks) {
      if (only && !only.has(s[0])) continue;
      let n = root;
      for (let m = 0; m < 5; m++) n.v[m] += s[2 + m];
      for (const l of s[1]) {
        const key = D.locs[l][3] + "\u0000" + D.locs[l][0];
        let c = n.kids.get(key);
        if (!c) {
          c = { name: D.locs[l][0], kind: D.locs[l][3], loc: l, v: [0, 0, 0, 0, 0], kids: new Map(),
                parent: n, depth: n.depth + 1 };
          n.kids.set(key, c);
        }
        for (let m = 0; m < 5; m++) c.v[m] += s[2 + m];
        n = c;
      }
    }
    return root;
  }
  function sortedKids(n) {
    return Array.from(n.kids.values()).sort((a, b) => b.v[metric] - a.v[metric] || b.v[0] - a.v[0] ||
                                                      (a.name < b.name ? -1 : 1));
  }

  /* ---- call tree table ---- */
  const tree = { root: null, open: new Set() };
  function expandDefault(n, total) {
    for (const c of n.kids.values()) {
      if (c.v[metric] >= 0.1 * total && c.depth < 40) {
        tree.open.add(c);
        expandDefault(c, total);
      }
    }
  }
  function renderTree() {
    const t = $("tree");
    t.textContent = "";
    header(t, ["function", "time", "%", "work", "wait", "cpu", "blame"]);
    const total = tree.root.v[metric];
    const emit = (n, depth) => {
      for (const c of sortedKids(n)) {
        if (!(c.v[metric] > 0) && !(c.v[0] > 0)) continue;
        const tr = el("tr", "node");
        const fn = el("td", "fn");
        fn.style.paddingLeft = 4 + depth * 14 + "px";
        const tog = el("span", "tog", c.kids.size ? (tree.open.has(c) ? "\u25be" : "\u25b8") : "");
        fn.appendChild(tog);
        fn.appendChild(el("span", "name " + nameClass(c.kind, c.name), c.name));
        const w = where(c.loc);
        if (w && c.name.indexOf(" @ ") < 0) fn.appendChild(el("span", "where", w));
        tr.appendChild(fn);
        const share = total > 0 ? c.v[metric] / total : 0;
        const p = el("td", "", "");
        const bar = el("span", "bar");
        bar.style.width = Math.round(60 * share) + "px";
        p.appendChild(bar);
        p.appendChild(document.createTextNode(pct(c.v[metric], total)));
        tr.appendChild(el("td", "", sec(c.v[0])));
        tr.appendChild(p);
        for (const m of [1, 2, 3, 4]) tr.appendChild(el("td", "", sec(c.v[m])));
        if (c.kids.size) {
          tr.style.cursor = "pointer";
          tr.addEventListener("click", () => {
            if (tree.open.has(c)) tree.open.delete(c);
            else tree.open.add(c);
            renderTree();
          });
        }
        t.appendChild(tr);
        if (tree.open.has(c)) emit(c, depth + 1);
      }
    };
    emit(tree.root, 0);
  }

  /* ---- functions: self (at the leaf) and total (anywhere on the stack, once per stack) ---- */
  function renderFunctions() {
    const t = $("functions");
    t.textContent = "";
    header(t, ["function", "self", "%", "total", "%", "wait", "blame"]);
    const f = new Map();
    const tot = [0, 0, 0, 0, 0];
    for (const s of D.stacks) {
      if (only && !only.has(s[0])) continue;
      for (let m = 0; m < 5; m++) tot[m] += s[2 + m];
      const seen = new Set();
      s[1].forEach((l, d) => {
        const key = D.locs[l][3] + "\u0000" + D.locs[l][0];
        let e = f.get(key);
        if (!e) f.set(key, (e = { name: D.locs[l][0], kind: D.locs[l][3], loc: l, self: [0, 0, 0, 0, 0], total: [0, 0, 0, 0, 0] }));
        if (d === s[1].length - 1) for (let m = 0; m < 5; m++) e.self[m] += s[2 + m];
        if (seen.has(key)) return;
        seen.add(key);
        for (let m = 0; m < 5; m++) e.total[m] += s[2 + m];
      });
    }
    const rows = Array.from(f.values()).filter((e) => e.total[metric] > 0)
      .sort((a, b) => b.self[metric] - a.self[metric] || b.total[metric] - a.total[metric]).slice(0, 50);
    for (const e of rows) {
      const tr = row([{ text: "", cls: "fn" }, { text: sec(e.self[metric]) }, { text: pct(e.self[metric], tot[metric]) },
                      { text: sec(e.total[metric]) }, { text: pct(e.total[metric], tot[metric]) },
                      { text: sec(e.total[2]) }, { text: sec(e.total[4]) }], "row func");
      tr.firstChild.appendChild(el("span", "name " + nameClass(e.kind, e.name), e.name));
      const w = where(e.loc);
      if (w && e.name.indexOf(" @ ") < 0) tr.firstChild.appendChild(el("span", "where", w));
      t.appendChild(tr);
    }
  }

  /* ---- flame graph (icicle) ---- */
  let flameRoot = null;
  function hue(name) {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return h;
  }
  function frameColor(n) {
    if (n.kind === -1) return "#b9c3d3";
    if (nameClass(n.kind, n.name) === "mpi-name") return "#b592de";
    if (n.kind === 1) return n.name === "omp idle" ? "#d5d8dc" : "#f3b562";
    const h = hue(n.name);
    return "hsl(" + (10 + (h % 45)) + "," + (65 + ((h >> 8) % 25)) + "%," + (58 + ((h >> 16) % 14)) + "%)";
  }
  function renderFlame() {
    const box = $("flame");
    box.textContent = "";
    const width = box.clientWidth || 1000;
    const top = flameRoot || tree.root;
    const total = top.v[metric];
    let maxDepth = 0, shown = 0;
    const ROW = 18;
    const place = (n, x, depth) => {
      const w = total > 0 ? (n.v[metric] / total) * width : 0;
      if (w < 0.5 || shown > 20000) return;
      shown++;
      maxDepth = Math.max(maxDepth, depth);
      const d = el("div", "fbox", n.name);
      d.style.left = x + "px";
      d.style.width = Math.max(w, 1) + "px";
      d.style.top = depth * ROW + "px";
      d.style.background = frameColor(n);
      const wh = n.loc >= 0 ? where(n.loc) : "";
      d.title = n.name + (wh ? "  [" + wh + "]" : "") + "\n" + METRICS[metric] + " " + sec(n.v[metric]) +
                " s (" + pct(n.v[metric], tree.root.v[metric]) + " of all)";
      d.addEventListener("click", (ev) => {
        ev.stopPropagation();
        flameRoot = n === top ? top.parent || null : n;
        if (flameRoot === tree.root) flameRoot = null;
        renderFlame();
      });
      box.appendChild(d);
      let cx = x;
      for (const c of sortedKids(n)) {
        place(c, cx, depth + 1);
        cx += total > 0 ? (c.v[metric] / total) * width : 0;
      }
    };
    place(top, 0, 0);
    box.style.height = (maxDepth + 1) * ROW + 4 + "px";
    $("flame-note").textContent = flameRoot ? "zoomed on " + top.name + ": click it to zoom out" :
      "click a frame to zoom in";
  }

  /* ---- timeline ---- */
  const view = { t0: 0, t1: 0, tmax: 0 }; /* the time range shown (seconds) */
  function renderAxis() {
    const axis = $("axis");
    axis.textContent = "";
    const span = view.t1 - view.t0;
    const step = [1e-4, 2e-4, 5e-4, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20,
                  50, 100, 200, 500, 1000, 3600].find((st) => span / st <= 10) || span / 10;
    const digits = step < 0.001 ? 4 : step < 1 ? 3 : 0;
    for (let s = Math.ceil(view.t0 / step) * step; s <= view.t1 + 1e-12; s += step) {
      const tk = el("div", "tick", s.toFixed(digits) + " s");
      tk.style.left = (100 * (s - view.t0)) / span + "%";
      axis.appendChild(tk);
    }
    $("zoom-note").textContent = view.t0 > 0 || view.t1 < view.tmax
      ? "showing " + view.t0.toFixed(3) + "-" + view.t1.toFixed(3) + " s (double-click to zoom out)"
      : "drag across a lane to zoom in";
  }
  function redrawLanes() {
    for (const l of document.querySelectorAll(".lane")) if (l.redraw) l.redraw();
    renderAxis();
  }
  function renderTimeline() {
    const tl = $("timeline");
    tl.textContent = "";
    const legend = el("div", "legend");
    CLASSES.forEach((c, i) => {
      const s = el("span");
      const sw = el("i");
      sw.style.background = CLASS_COLOR[i];
      s.appendChild(sw);
      s.appendChild(document.createTextNode(c));
      legend.appendChild(s);
    });
    if (D.events.length) {
      const s = el("span", "", "strip above: --trace slices (parallel, task, sync, mutex)");
      legend.appendChild(s);
    }
    tl.appendChild(legend);
    let tmax = 0;
    for (const p of D.procs) tmax = Math.max(tmax, p.start + p.dur);
    for (const ln of D.lanes) {
      const a = ln[1];
      for (let i = 0; i < a.length; i += 4) tmax = Math.max(tmax, a[i + 1]);
    }
    if (!(tmax > 0)) tmax = 1;
    view.t0 = 0;
    view.t1 = view.tmax = tmax;
    const evBy = new Map();
    for (const e of D.events) {
      if (!evBy.has(e[0])) evBy.set(e[0], []);
      evBy.get(e[0]).push(e);
    }
    const tip = $("tip");
    let drag = null;
    const order = D.lanes.map((l) => l[0]).sort((x, y) => {
      const a = D.threads[x], b = D.threads[y];
      const ra = D.procs[a[0]].rank, rb = D.procs[b[0]].rank;
      return ra - rb || a[0] - b[0] || a[1] - b[1];
    });
    const segsOf = new Map(D.lanes.map((l) => [l[0], l[1]]));
    for (const t of order) {
      const lane = el("div", "lane");
      lane.dataset.thread = String(t);
      lane.appendChild(el("div", "lane-label", threadName(t)));
      const cv = el("canvas");
      lane.appendChild(cv);
      tl.appendChild(lane);
      const segs = segsOf.get(t), evs = evBy.get(t) || [];
      const draw = () => {
        const w = cv.clientWidth || 800, h = cv.clientHeight || 22;
        cv.width = w;
        cv.height = h;
        const g = cv.getContext("2d");
        const top = evs.length ? 6 : 0;
        const x = (s) => ((s - view.t0) / (view.t1 - view.t0)) * w;
        for (let i = 0; i < segs.length; i += 4) {
          if (segs[i + 1] < view.t0 || segs[i] > view.t1) continue;
          const x0 = x(segs[i]), x1 = x(segs[i + 1]);
          g.fillStyle = CLASS_COLOR[segs[i + 3]];
          g.fillRect(x0, top, Math.max(1, x1 - x0), h - top);
        }
        for (const e of evs) {
          if (e[4] === "idle" || e[4] === "work") continue;
          g.fillStyle = CAT_COLOR[e[4]] || "#999";
          g.fillRect(x(e[1]), 0, Math.max(1, x(e[1] + Math.max(e[2], 0)) - x(e[1])), 5);
        }
      };
      draw();
      lane.redraw = draw;
      const timeAt = (ev) => {
        const r = cv.getBoundingClientRect();
        return view.t0 + ((ev.clientX - r.left) / r.width) * (view.t1 - view.t0);
      };
      cv.addEventListener("mousedown", (ev) => {
        drag = timeAt(ev);
        ev.preventDefault();
      });
      cv.addEventListener("mouseup", (ev) => {
        const end = timeAt(ev);
        if (drag !== null && Math.abs(end - drag) > (view.t1 - view.t0) / 500) {
          view.t0 = Math.max(0, Math.min(drag, end));
          view.t1 = Math.min(view.tmax, Math.max(drag, end));
          redrawLanes();
        }
        drag = null;
      });
      cv.addEventListener("dblclick", () => {
        view.t0 = 0;
        view.t1 = view.tmax;
        redrawLanes();
      });
      cv.addEventListener("mousemove", (ev) => {
        const at = timeAt(ev);
        let lo = 0, hi = segs.length / 4 - 1, hit = -1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (segs[mid * 4 + 1] < at) lo = mid + 1;
          else if (segs[mid * 4] > at) hi = mid - 1;
          else { hit = mid; break; }
        }
        if (hit < 0) { tip.style.display = "none"; return; }
        const s = D.stacks[segs[hit * 4 + 2]];
        const names = s[1].map((l) => D.locs[l][0]);
        tip.textContent = threadName(t) + "  " + sec(segs[hit * 4]) + "-" + sec(segs[hit * 4 + 1]) +
          " s: " + CLASSES[segs[hit * 4 + 3]] + "\n" + names.join("\n  ");
        tip.style.display = "block";
        tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 360) + "px";
        tip.style.top = ev.clientY + 14 + "px";
      });
      cv.addEventListener("mouseleave", () => { tip.style.display = "none"; });
    }
    const axis = el("div", "axis");
    axis.id = "axis";
    tl.appendChild(axis);
    renderAxis();
    if (!D.lanes.length) tl.appendChild(el("p", "note", "no samples"));
  }

  /* ---- tables ---- */
  function renderRegions() {
    const t = $("regions");
    t.textContent = "";
    if (!D.regions.length) {
      $("regions-note").textContent = "no parallel regions";
      return;
    }
    header(t, ["instances", "wall", "threads", "work", "wait", "imbalance", "created at"]);
    for (const r of D.regions) {
      const path = r[0];
      let site = "(initial task)";
      if (path.length) {
        const leaf = path[path.length - 1];
        site = D.locs[leaf][0] + (where(leaf) ? " (" + where(leaf) + ")" : "");
        for (let i = path.length - 2; i >= 0; i--) site += " < " + D.locs[path[i]][0];
      }
      t.appendChild(row([{ text: String(r[1]) }, { text: sec(r[2]) }, { text: String(r[3]) },
                         { text: sec(r[4]) }, { text: sec(r[5]) },
                         { text: r[6] > 0 ? r[6].toFixed(2) : "-" }, { text: site, cls: "site" }], "row region"));
    }
  }
  function renderRanks() {
    const t = $("ranks");
    t.textContent = "";
    const mpi = D.procs.some((p) => p.rank >= 0);
    if (!mpi && D.procs.length < 2) {
      $("ranks-sec").style.display = "none";
      return;
    }
    header(t, ["rank", "pid", "threads", "time", "work", "OpenMP wait", "MPI wait", "MPI %", "cpu", "command"]);
    const order = D.procs.map((p, i) => i).sort((a, b) => D.procs[a].rank - D.procs[b].rank || a - b);
    for (const i of order) {
      const p = D.procs[i];
      let time = 0, cpu = 0, nt = 0;
      D.threads.forEach((th) => {
        if (th[0] === i) { nt++; time += th[5]; cpu += th[8]; }
      });
      const omp = p.cls[1] + p.cls[2] + p.cls[3];
      t.appendChild(row([{ text: p.rank >= 0 ? String(p.rank) : "-" }, { text: String(p.pid) },
                         { text: String(nt) }, { text: sec(time) }, { text: sec(p.cls[0]) },
                         { text: sec(omp) }, { text: sec(p.cls[4]) }, { text: pct(p.cls[4], time) },
                         { text: sec(cpu) }, { text: p.cmd, cls: "site" }], "row rank"));
    }
  }
  function renderThreads() {
    const t = $("threads");
    t.textContent = "";
    header(t, ["thread", "tid", "samples", "time", "work", "wait", "wait %", "cpu", "blame"]);
    D.threads.forEach((th, i) => {
      t.appendChild(row([{ text: threadName(i), cls: "fn" }, { text: String(th[2]) }, { text: String(th[4]) },
                         { text: sec(th[5]) }, { text: sec(th[6]) }, { text: sec(th[7]) },
                         { text: pct(th[7], th[5]) }, { text: sec(th[8]) }, { text: sec(th[9]) }], "row thread"));
    });
  }

  try {
    summary();
    tree.root = buildTree();
    expandDefault(tree.root, tree.root.v[metric]);
    const ts = $("only");
    const addOpt = (label, set) => {
      const o = el("option", "", label);
      o.value = String(ts.options.length);
      o.set = set;
      ts.appendChild(o);
    };
    addOpt("all threads", null);
    const ranked = D.procs.length > 1 || D.procs.some((p) => p.rank >= 0);
    if (ranked)
      D.procs.forEach((p, pi) => addOpt(procName(pi), new Set(D.threads.map((th, i) => (th[0] === pi ? i : -1)).filter((i) => i >= 0))));
    D.threads.forEach((th, i) => addOpt(threadName(i), new Set([i])));
    ts.addEventListener("change", () => {
      only = ts.options[ts.selectedIndex].set;
      tree.root = buildTree();
      tree.open.clear();
      flameRoot = null;
      expandDefault(tree.root, tree.root.v[metric]);
      renderTree();
      renderFlame();
      renderFunctions();
    });
    const sel = $("metric");
    METRICS.forEach((m, i) => {
      const o = el("option", "", m);
      o.value = String(i);
      sel.appendChild(o);
    });
    sel.addEventListener("change", () => {
      metric = Number(sel.value);
      tree.open.clear();
      expandDefault(tree.root, tree.root.v[metric]);
      renderTree();
      renderFlame();
      renderFunctions();
    });
    /* the fragment's initial state */
    const want = new URLSearchParams(decodeURIComponent(location.hash.slice(1)));
    if (METRICS.indexOf(want.get("metric")) >= 0) sel.value = String(METRICS.indexOf(want.get("metric")));
    for (const o of ts.options) if (o.textContent === want.get("only")) ts.value = o.value;
    if (sel.value !== "0") sel.dispatchEvent(new Event("change"));
    if (ts.value !== "0") ts.dispatchEvent(new Event("change"));
    renderTree();
    renderFunctions();
    renderFlame();
    renderTimeline();
    const z = /^([0-9.]+)-([0-9.]+)$/.exec(want.get("zoom") || "");
    if (z && Number(z[2]) > Number(z[1])) {
      view.t0 = Math.max(0, Number(z[1]));
      view.t1 = Math.min(view.tmax, Number(z[2]));
      redrawLanes();
    }
    renderRegions();
    renderRanks();
    renderThreads();
    let pending = 0;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(() => {
        renderFlame();
        redrawLanes();
      }, 100);
    });
    document.body.setAttribute("data-rendered", "ok");
  } catch (e) {
    $("error").textContent = "tomp-prof report: the page script failed: " + e + "\n" + (e.stack || "");
    document.body.setAttribute("data-rendered", "error");
  }
})();
