/* tomp-prof's single-file HTML report: the page script (export-html.c embeds this file and
 * the profile as JSON in the script element tp-data).  It builds every view from that data with
 * DOM calls (names are set as text, never parsed as HTML) and needs no network:
 *   call tree   expandable, user-model stacks of all threads merged by function name
 *   flame graph icicle (root on top, heaviest first); click a frame to zoom, the root to zoom out
 *   timeline    one lane per thread: what each sample was doing (work, OpenMP wait, idle,
 *               runtime wait, MPI), hover for its stack; --trace slices on a strip above
 *   tables      parallel regions, MPI ranks (processes), threads
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
    const evBy = new Map();
    for (const e of D.events) {
      if (!evBy.has(e[0])) evBy.set(e[0], []);
      evBy.get(e[0]).push(e);
    }
    const tip = $("tip");
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
        const x = (s) => (s / tmax) * w;
        for (let i = 0; i < segs.length; i += 4) {
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
      cv.addEventListener("mousemove", (ev) => {
        const r = cv.getBoundingClientRect();
        const at = ((ev.clientX - r.left) / r.width) * tmax;
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
    const step = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 3600]
      .find((s) => tmax / s <= 10) || tmax / 10;
    for (let s = 0; s <= tmax + 1e-9; s += step) {
      const tk = el("div", "tick", (step < 1 ? s.toFixed(3) : s.toFixed(0)) + " s");
      tk.style.left = (100 * s) / tmax + "%";
      axis.appendChild(tk);
    }
    tl.appendChild(axis);
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
    });
    renderTree();
    renderFlame();
    renderTimeline();
    renderRegions();
    renderRanks();
    renderThreads();
    let pending = 0;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(() => {
        renderFlame();
        for (const l of document.querySelectorAll(".lane")) if (l.redraw) l.redraw();
      }, 100);
    });
    document.body.setAttribute("data-rendered", "ok");
  } catch (e) {
    $("error").textContent = "tomp-prof report: the page script failed: " + e + "\n" + (e.stack || "");
    document.body.setAttribute("data-rendered", "error");
  }
})();
