#!/bin/bash
# Markdown tables and a ratio chart from one bench/run.sh CSV.
#
#   bench/report.sh bench/results/<date-time>.csv     writes <date-time>.md (also printed)
#                                                     and <date-time>.png (needs gnuplot)
#
# Per thread count: the median ns/op of tomp, libgomp and libomp, the ratios tomp/libgomp,
# tomp/libomp and tomp/best (best = the faster of the other two on that row; > 1: tomp is
# slower), and the same ratio over the best batches.  A ratio is marked "~" when it is within
# noise: a two-sided Mann-Whitney test of tomp's run values against the other runtime's finds
# no difference at p < 0.05 (normal approximation; with 5 runs each, that means at least 3 of
# the 25 pairs ordered the other way).  Then the OMPT rows (tomp and libomp with no tool, a
# tool registering no callback, a tool registering every callback) if the CSV has them, and a
# summary: geometric means of the ratios per thread count and the worst rows for tomp.
# If the CSV has clang rows (configurations tomp@clang and libomp@clang: the suite built with
# clang-14, run on tomp as libomp.so.5 and on LLVM's libomp), their own tables follow: "clang
# binaries: tomp vs libomp" per thread count, with the same noise marks, and their summary
# (geometric mean of tomp/libomp, rows above 1.2).
#
# The chart has one panel per thread count, two bars per row (tomp/libgomp, tomp/libomp) on a
# log2 scale; hollow bars are within noise.  When gnuplot is missing it is installed if this
# runs as root on Debian (apt-get install gnuplot-nox), else the chart is skipped with a note.
set -u
CSV=${1:?usage: bench/report.sh RESULTS.csv}
[ -s "$CSV" ] || { echo "report.sh: $CSV: no such file or empty" >&2; exit 1; }
MD=${CSV%.csv}.md PNG=${CSV%.csv}.png
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One awk pass writes the markdown and, per thread count, the chart data (TMP/chart.T).
awk -F, -v chart="$TMP/chart" -v png="$(basename "$PNG")" '
function fmt(v) { return v == "" ? "n/a" : v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : sprintf("%.2f", v) }
function sort_desc(v, n,   i, j, x) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] > v[i]) { x = v[i]; v[i] = v[j]; v[j] = x } }
function geo_add(name, r) { if (r > 0) { GS[name] += log(r); GN[name]++ } }
function geo(name) { return GN[name] ? sprintf("%.2f", exp(GS[name] / GN[name])) : "n/a" }
# Mann-Whitney: is a (";"-separated values) different from b?  1 = yes (p < 0.05)
function differs(a, b,   x, y, i, j, nx, ny, u, z) {
  nx = split(a, x, ";"); ny = split(b, y, ";")
  if (nx < 2 || ny < 2) return 0
  u = 0
  for (i = 1; i <= nx; i++) for (j = 1; j <= ny; j++) u += (x[i] + 0 < y[j] + 0) + 0.5 * (x[i] + 0 == y[j] + 0)
  z = (u - nx * ny / 2) / sqrt(nx * ny * (nx + ny + 1) / 12)
  return z >= 1.96 || z <= -1.96
}
function ratio(k, ref) { return (MED[k, "tomp"] != "" && MED[k, ref] > 0) ? MED[k, "tomp"] / MED[k, ref] : "" }
function cell(r, sig) { return r == "" ? "-" : sprintf("%.2f%s", r, sig ? "" : " ~") }
function cratio(k) { return (MED[k, "tomp@clang"] != "" && MED[k, "libomp@clang"] > 0) ? MED[k, "tomp@clang"] / MED[k, "libomp@clang"] : "" }
function cval(k, rt) { return MED[k, rt] != "" ? fmt(MED[k, rt]) : "n/a (" WHY[k, rt] ")" }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
  T = $col["threads"]; t = $col["test"]; rt = $col["runtime"]; k = T SUBSEP t
  if (!(T in seenT)) { seenT[T] = 1; Ts[++nT] = T }
  if (!(t in seent)) { seent[t] = 1; tests[++ntests] = t }
  if ($col["status"] == "ok") { MED[k, rt] = $col["median_ns"]; BEST[k, rt] = $col["best_ns"]; RUNS[k, rt] = $col["run_values"] }
  else { MED[k, rt] = ""; WHY[k, rt] = $col["status"] }
  HAVE[k, rt] = 1
  if (rt ~ /\+/) ompt[k] = 1
  if (rt ~ /@clang$/) clang[k] = 1
  date = $col["date"]; cpus = $col["cpus"]; lb = $col["load_before"]; la = $col["load_after"]
  busy = $col["others_busy_pct"]; commit = $col["tomp_commit"]
  cpu = ("cpu_model" in col) ? $col["cpu_model"] : "?"; vers = ("versions" in col) ? $col["versions"] : "?"
  reps = ("reps" in col) ? $col["reps"] : "?"; tsec = ("time_s" in col) ? $col["time_s"] : "?"
}
END {
  printf "Run %s; machine: %s, %s CPUs; load average before %s, after %s; CPUs busy with other work before each rep: %s%%.\n", date, cpu, cpus, lb, la, busy
  printf "Versions: %s; tomp %s.  Median of %s interleaved runs of %s s each (a run reports the median of its 5 batches), ns per op; ratio > 1: tomp slower; best = the faster of libgomp and libomp on the row; ~ = within noise (Mann-Whitney p >= 0.05).\n\n", vers, commit, reps, tsec
  for (a = 1; a <= nT; a++) {
    T = Ts[a]
    hv = 0
    for (b = 1; b <= ntests; b++) hv += HAVE[T SUBSEP tests[b], "tomp"]
    if (!hv) continue
    printf "#### %s thread%s\n\n", T, T == 1 ? "" : "s"
    print "| test | tomp | libgomp | libomp | tomp/libgomp | tomp/libomp | tomp/best | best batches: tomp/best |"
    print "|---|--:|--:|--:|--:|--:|--:|--:|"
    for (b = 1; b <= ntests; b++) {
      t = tests[b]; k = T SUBSEP t
      if (!HAVE[k, "tomp"]) continue
      rg = ratio(k, "libgomp"); ro = ratio(k, "libomp")
      sg = differs(RUNS[k, "tomp"], RUNS[k, "libgomp"]); so = differs(RUNS[k, "tomp"], RUNS[k, "libomp"])
      ref = (MED[k, "libgomp"] != "" && (MED[k, "libomp"] == "" || MED[k, "libgomp"] + 0 <= MED[k, "libomp"] + 0)) ? "libgomp" : "libomp"
      rb = ratio(k, ref); sb = ref == "libgomp" ? sg : so
      bb = (BEST[k, "tomp"] != "" && BEST[k, ref] > 0) ? sprintf("%.2f", BEST[k, "tomp"] / BEST[k, ref]) : "-"
      tcell = MED[k, "tomp"] != "" ? fmt(MED[k, "tomp"]) : "n/a (" WHY[k, "tomp"] ")"
      printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", t, tcell, fmt(MED[k, "libgomp"]), fmt(MED[k, "libomp"]), cell(rg, sg), cell(ro, so), cell(rb, sb), bb
      if (rg != "" && ro != "") {
        geo_add("g" T, rg); geo_add("o" T, ro); geo_add("b" T, rb); geo_add("all", rb)
        if (!sb) noise[T]++; else if (rb < 1) ahead[T]++; else behind[T]++
        worst[++nw] = sprintf("%012.4f|%s|%s|%s|%s", rb, t, T, ref, sb ? "" : " (within noise)")
      }
      print t, (rg == "" ? 1 : rg), (ro == "" ? 1 : ro), sg, so > (chart "." T)
    }
    print ""
  }
  nom = 0
  for (a = 1; a <= nT; a++) for (b = 1; b <= ntests; b++) if ((Ts[a] SUBSEP tests[b]) in ompt) nom++
  if (nom) {
    print "#### OMPT: no tool, a tool that registers no callback, a tool that registers every callback (empty)\n"
    print "ns/op (ratio to the same runtime with no tool); last column: tomp/libomp in each configuration.\n"
    print "| test | T | tomp | tomp + null tool | tomp + all callbacks | libomp | libomp + null tool | libomp + all callbacks | tomp/libomp: none / null / all |"
    print "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
    for (a = 1; a <= nT; a++) for (b = 1; b <= ntests; b++) {
      T = Ts[a]; t = tests[b]; k = T SUBSEP t
      if (!(k in ompt)) continue
      line = sprintf("| %s | %s", t, T); rr = ""
      for (r = 1; r <= 2; r++) {
        rt = r == 1 ? "tomp" : "libomp"; base = MED[k, rt]
        line = line " | " fmt(base)
        split(rt "+nulltool " rt "+alltool", cf, " ")
        for (c = 1; c <= 2; c++) {
          v = MED[k, cf[c]]
          line = line " | " (v == "" ? "n/a" : fmt(v) (base > 0 ? sprintf(" (%.2f)", v / base) : ""))
        }
      }
      split("tomp libomp tomp+nulltool libomp+nulltool tomp+alltool libomp+alltool", pr, " ")
      for (c = 1; c <= 5; c += 2) rr = rr (c > 1 ? " / " : "") (MED[k, pr[c]] != "" && MED[k, pr[c + 1]] > 0 ? sprintf("%.2f", MED[k, pr[c]] / MED[k, pr[c + 1]]) : "-")
      print line " | " rr " |"
    }
    print ""
  }
  if (GN["all"]) {
    print "#### Summary (geometric means of the median ratios over the rows all three runtimes ran)\n"
    print "| threads | rows | tomp/libgomp | tomp/libomp | tomp/best | tomp faster than best | slower | within noise |"
    print "|--:|--:|--:|--:|--:|--:|--:|--:|"
    for (a = 1; a <= nT; a++) {
      T = Ts[a]
      printf "| %s | %d | %s | %s | %s | %d | %d | %d |\n", T, GN["b" T], geo("g" T), geo("o" T), geo("b" T), ahead[T], behind[T], noise[T]
    }
    printf "| all | %d | | | %s | | | |\n\n", GN["all"], geo("all")
    # the worst rows: highest tomp/best
    n = nw < 8 ? nw : 8
    sort_desc(worst, nw)
    printf "Worst rows for tomp (tomp/best):"
    for (i = 1; i <= n; i++) { split(worst[i], w, "|"); printf "%s %s (%s thr) %.2f vs %s%s", (i > 1 ? ";" : ""), w[2], w[3], w[1], w[4], w[5] }
    print ".\n"
  }
  ncl = 0
  for (a = 1; a <= nT; a++) for (b = 1; b <= ntests; b++) if ((Ts[a] SUBSEP tests[b]) in clang) ncl++
  if (ncl) {
    for (a = 1; a <= nT; a++) {
      T = Ts[a]
      hv = 0
      for (b = 1; b <= ntests; b++) hv += (T SUBSEP tests[b]) in clang
      if (!hv) continue
      printf "#### clang binaries: tomp vs libomp, %s thread%s\n\n", T, T == 1 ? "" : "s"
      print "| test | tomp | libomp | tomp/libomp | best batches: tomp/libomp |"
      print "|---|--:|--:|--:|--:|"
      for (b = 1; b <= ntests; b++) {
        t = tests[b]; k = T SUBSEP t
        if (!(k in clang)) continue
        r = cratio(k); sg = differs(RUNS[k, "tomp@clang"], RUNS[k, "libomp@clang"])
        bb = (BEST[k, "tomp@clang"] != "" && BEST[k, "libomp@clang"] > 0) ? sprintf("%.2f", BEST[k, "tomp@clang"] / BEST[k, "libomp@clang"]) : "-"
        printf "| %s | %s | %s | %s | %s |\n", t, cval(k, "tomp@clang"), cval(k, "libomp@clang"), cell(r, sg), bb
        if (r != "") {
          geo_add("c" T, r); geo_add("call", r)
          if (!sg) cnoise[T]++; else if (r < 1) cahead[T]++; else cbehind[T]++
          if (r > 1.2) cover[T]++
          cworst[++ncw] = sprintf("%012.4f|%s|%s|%s", r, t, T, sg ? "" : " (within noise)")
        }
      }
      print ""
    }
    print "#### clang binaries: summary (geometric mean of tomp/libomp over the rows both ran)\n"
    print "| threads | rows | tomp/libomp | tomp faster | slower | within noise | rows above 1.2 |"
    print "|--:|--:|--:|--:|--:|--:|--:|"
    for (a = 1; a <= nT; a++) {
      T = Ts[a]
      if (!GN["c" T]) continue
      printf "| %s | %d | %s | %d | %d | %d | %d |\n", T, GN["c" T], geo("c" T), cahead[T], cbehind[T], cnoise[T], cover[T]
    }
    printf "| all | %d | %s | | | | |\n\n", GN["call"], geo("call")
    sort_desc(cworst, ncw)
    printf "Worst clang rows for tomp (tomp/libomp):"
    for (i = 1; i <= (ncw < 8 ? ncw : 8); i++) { split(cworst[i], w, "|"); printf "%s %s (%s thr) %.2f%s", (i > 1 ? ";" : ""), w[2], w[3], w[1], w[4] }
    print ".\n"
  }
  if (png != "") printf "Chart: `%s`.\n", png
}' "$CSV" >"$MD" || exit 1

# The chart: log2 of each ratio, clipped to 1/16..16, one panel per thread count.
chart_ok=1
if ! command -v gnuplot >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "report.sh: installing gnuplot-nox for the chart" >&2
    { apt-get install -y gnuplot-nox || { apt-get update && apt-get install -y gnuplot-nox; }; } >/dev/null 2>&1
  fi
  command -v gnuplot >/dev/null || {
    echo "report.sh: gnuplot not found: no chart (install it: apt-get install gnuplot-nox)" >&2
    chart_ok=0
  }
fi
if [ $chart_ok = 1 ]; then
  files=("$TMP"/chart.*)
  n=${#files[@]}
  {
    echo "set terminal png size 1000,$((150 + 240 * n)) font ',9'"
    echo "set output '$PNG'"
    echo "set multiplot layout $n,1 title 'tomp / libgomp and tomp / libomp, median ns/op ($(basename "$CSV" .csv)); above 1: tomp slower; hollow: within noise'"
    echo "set style fill solid 0.8 border -1; set boxwidth 0.38; set grid ytics"
    echo "set yrange [-4.2:4.2]; set ytics ('1/16' -4, '1/8' -3, '1/4' -2, '1/2' -1, '1' 0, '2' 1, '4' 2, '8' 3, '16' 4)"
    echo "set termoption noenhanced; set xtics rotate by 45 right nomirror"
    echo "set key outside top center horizontal; set bmargin 6.5"
    echo "clip(r) = (l = log(r) / log(2), l > 4 ? 4 : l < -4 ? -4 : l)"
    for f in "${files[@]}"; do
      T=${f##*.}
      echo "set xrange [-0.7:$(( $(wc -l <"$f") ))-0.3]"
      echo "set title '$T thread$([ "$T" = 1 ] || echo s)' offset 0,-0.8"
      echo "plot '$f' using (\$0-0.2):(\$4 > 0 ? clip(\$2) : NaN):xtic(1) with boxes lc rgb '#d95f02' title 'tomp/libgomp', \\"
      echo "  '' using (\$0-0.2):(\$4 > 0 ? NaN : clip(\$2)) with boxes fs empty lc rgb '#d95f02' notitle, \\"
      echo "  '' using (\$0+0.2):(\$5 > 0 ? clip(\$3) : NaN) with boxes lc rgb '#1b9e77' title 'tomp/libomp', \\"
      echo "  '' using (\$0+0.2):(\$5 > 0 ? NaN : clip(\$3)) with boxes fs empty lc rgb '#1b9e77' notitle, \\"
      echo "  0 with lines lc rgb 'black' lw 1 notitle"
      echo "unset key"
    done
    echo "unset multiplot"
  } >"$TMP/plot.gp"
  if gnuplot "$TMP/plot.gp" 2>"$TMP/gnuplot.err"; then
    echo "report.sh: chart $PNG" >&2
  else
    echo "report.sh: gnuplot failed: $(head -3 "$TMP/gnuplot.err")" >&2
  fi
fi
[ $chart_ok = 1 ] || sed -i '$d' "$MD"
cat "$MD"
echo "report.sh: markdown $MD" >&2
