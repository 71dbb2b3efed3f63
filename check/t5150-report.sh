#!/usr/bin/env bash
# The report (stages/sh/report.sh, `make report`): usage errors leave no output;
# on the official H100 data the page is self-contained, its numbers agree
# with the inputs and with eval, the per-input regret agrees with eval's
# aggregates, Make redoes it only when stale; headless Chromium renders the
# tree, the regret plot and the winner plot (non-blank pixels where each SVG
# is, blank when an SVG is removed) without console errors.
. check/lib.sh
set -o pipefail
R=stages/sh/report.sh

# ---- usage and errors (no data needed) ----------------------------------------
"$R" --help >"$TMP/help" 2>&1 && grep -q '^usage: stages/sh/report.sh' "$TMP/help" && grep -q '^Exit:' "$TMP/help" &&
	ok report-help || fail report-help "$(head -2 "$TMP/help" | tr '\n' '|')"
expect_error report-no-output 'no output given' "$TMP/x.html" "$R" a b c
expect_error report-missing-tree 'nope\.tsv: cannot read' "$TMP/x.html" "$R" -o "$TMP/x.html" "$TMP/nope.tsv" "$FIX/../../Makefile" "$TMP/m.feat.tsv"
expect_error report-bad-top 'not a positive integer' "$TMP/x.html" "$R" --top 0 -o "$TMP/x.html" a b c

test_require GRAPHVIZ,DATASET report-all
MIRROR=$DATASET_DIR

# ---- build the H100 report -----------------------------------------------------
BUILD=${BIN%/bin}
MK=(make --no-print-directory GPU=h100 OUT="$TMP/out" BUILD="$BUILD" DATASET_MIRROR="$MIRROR")
# the Makefile includes mk/report.mk (or mk/*.mk); if not yet, add it
grep -qE '^ *-?include.*mk/(report|\*)\.mk' Makefile || MK+=(-f Makefile -f mk/report.mk)
O=$TMP/out/h100 P=$TMP/out/h100/report.html
if ! "${MK[@]}" heuristic >"$TMP/make1.log" 2>&1; then
	fail report-make-heuristic "$(tail -5 "$TMP/make1.log" | tr '\n' '|')"; finish
fi
t0=$(date +%s%N)
if ! "${MK[@]}" report >"$TMP/make2.log" 2>&1; then
	fail report-make "$(tail -5 "$TMP/make2.log" | tr '\n' '|')"; finish
fi
ok "report-make ($((($(date +%s%N) - t0) / 1000000)) ms, $(wc -c <"$P") bytes)"
compgen -G "$P.tmp*" >/dev/null && fail report-atomic "temporary left: $(compgen -G "$P.tmp*")" || ok report-atomic

# self-contained: three inline SVGs, no script, no external reference
nsvg=$(grep -c '<svg' "$P")
[ "$nsvg" -eq 3 ] && ok report-three-svgs || fail report-three-svgs "$nsvg <svg> elements, expected 3"
if grep -qiE '<script|<link|<img|<iframe|@import|(src|href)=["'\'']?(https?:|//|file:)|url\((https?:|//)' "$P"; then
	fail report-self-contained "$(grep -oiE '<script|<link|<img|<iframe|@import|(src|href)=.{0,30}' "$P" | head -2 | tr '\n' '|')"
else ok report-self-contained; fi

# numbers on the page agree with the inputs
nin=$(awk -F'\t' 'NR > 2 { print $1 }' "$O/main.feat.tsv" | uniq | wc -l)
grep -q "<tr><th>inputs</th><td>$nin</td>" "$P" && ok "report-inputs ($nin)" ||
	fail report-inputs "page lacks inputs = $nin: $(grep -o '<tr><th>inputs</th>.\{0,40\}' "$P")"
nleaf=$(awk -F'\t' '$1 == "node" && $3 == -1' "$O/pruned.tsv" | wc -l)
drawn=$(grep -cE '>leaf [0-9]+ (&#160;)* *n=' "$P")
[ "$nleaf" -gt 1 ] && [ "$drawn" -eq "$nleaf" ] && ok "report-leaves ($nleaf)" ||
	fail report-leaves "$drawn leaf boxes drawn, pruned.tsv has $nleaf leaves"
wins=$(awk -F'\t' 'NR > 2 && $NF == 1 && $(NF-3) == "extern_mm"' "$O/main.feat.tsv" | wc -l)
grep -q "<code>extern_mm</code></td><td>$wins (" "$P" && ok "report-extern-wins ($wins)" ||
	fail report-extern-wins "page lacks extern_mm main wins = $wins"
sel_test=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i } $1 == "test" && $5 == 1 { print $h["top_k_correct"] }' "$O/metrics.tsv")
grep -q "<tr><th>top_k_correct</th>" "$P" && [ -n "$sel_test" ] && ok report-metrics-table || fail report-metrics-table "no top_k_correct row or test set"

# every metric is explained (its one home: stages/FORMATS.md's metrics TSV
# table, read by stages/sh/report/legend.awk), on the page next to its numbers
awk -f stages/sh/report/legend.awk stages/FORMATS.md | cut -f1 | sort >"$TMP/legend"
head -1 "$O/metrics.tsv" | tr '\t' '\n' | sort >"$TMP/columns"
missing=$(comm -13 "$TMP/legend" "$TMP/columns" | tr '\n' ' ')
[ -z "$missing" ] && ok report-legend-every-column || fail report-legend-every-column "no meaning for: $missing"
why=
for c in $(head -1 "$O/metrics.tsv" | cut -f6-); do
	grep -q "<tr><th>$c</th>.*<td class=\"what\">[^<]" "$P" || why+=" $c"
done
grep -q '<tr><th>top_k_unsure</th>.*<td class="what">inputs whose list holds no measured choice' "$P" &&
	grep -q '<tr><th>wrong_max_speedup</th>.*<td class="what">.*inf when a wrong top-1 choice failed' "$P" || why+=" (top_k_unsure or wrong_max_speedup's text)"
[ -z "$why" ] && ok report-metric-meanings || fail report-metric-meanings "not explained on the page:$why"

# the figures' geometry, from their SVG: the regret axes never go below
# regret 1 (x: slowdown >= 0.01 %, each tick with its regret >= 1; y: a
# fraction, no tick above 1), the keys lie outside the plot areas (below
# the regret panels, right of the winner bars), and no winner label runs
# past the figure's right edge
python3 - "$P" >"$TMP/geom" 2>&1 <<'PYEOF'
import re, sys, math
page = open(sys.argv[1]).read()
def fig(name):
    m = re.search(r'<figure id="fig-%s">(.*?)</figure>' % name, page, re.S)
    svg = m.group(1)
    w = float(re.search(r'viewBox="0 0 ([0-9.]+) ', svg).group(1))
    texts = [(float(x), float(y), rot, anchor, float(size), t.strip()) for x, y, rot, size, anchor, t in re.findall(
        r'<g transform="translate\(([0-9.]+),([0-9.]+)\)( rotate\([-0-9]+\))?"[^>]*font-size="([0-9.]+)"\s*text-anchor="(\w+)">\s*<text>([^<]*)</text>', svg)]
    return w, texts
bad = []
w, T = fig('regret')
ylab = [t for t in T if t[3] == 'end' and re.fullmatch(r' ?-?[0-9.]+', t[5])]
xnum = [t for t in T if t[3] == 'middle' and re.fullmatch(r'[0-9.]+', t[5])]
xreg = [t for t in T if t[3] == 'middle' and t[5].startswith('x')]
keys = [t for t in T if t[5] in ('main', 'train_timm', 'train_hf')]
if not ylab or max(float(t[5]) for t in ylab) > 1: bad.append('a y tick above 1: %s' % sorted(float(t[5]) for t in ylab)[-3:])
if not xnum or min(float(t[5]) for t in xnum) < 0.01: bad.append('an x tick below 0.01 %')
if not xreg or min(float(t[5][1:]) for t in xreg) < 1: bad.append('no regret tick, or one below 1')
bottom = max(t[1] for t in xreg + xnum) if xnum else 0
if not keys or min(t[1] for t in keys) <= bottom: bad.append('a key entry at y %.0f inside the plot (x ticks end at %.0f)' % (min(t[1] for t in keys) if keys else -1, bottom))
w, T = fig('winners')
rot = [t for t in T if t[2]]
keys = [t for t in T if t[5] in ('main', 'train_timm', 'train_hf')]
for x, y, r, a, size, label in rot:   # rotated by 35 degrees, anchored at its start
    end = x + len(label) * 0.62 * size * math.cos(math.radians(35))
    if end > w: bad.append("winner label '%s' ends at %.0f > %.0f" % (label, end, w))
right = max(t[0] for t in rot) if rot else 0
if not keys or min(t[0] for t in keys) <= right: bad.append('the winners key is not right of the bars')
print('; '.join(bad) if bad else 'ok %d regret keys, %d winner labels' % (3, len(rot)))
PYEOF
grep -q '^ok' "$TMP/geom" && ok "report-figure-geometry ($(cat "$TMP/geom"))" || fail report-figure-geometry "$(head -c 400 "$TMP/geom")"

# per-input regret (stages/sh/report/regret.awk) against eval's aggregates
sets=("$O/main.feat.tsv" "$O/train_timm.feat.tsv" "$O/train_hf.feat.tsv")
"$BIN/eval" --k 1,10 --ranks "$TMP/ranks.tsv" -o "$TMP/eval.tsv" "$O/pruned.tsv" "${sets[@]}" >/dev/null 2>"$TMP/eval.err" ||
	fail report-regret-vs-eval "eval: $(head -2 "$TMP/eval.err")"
awk -v ks=1,10 -f stages/sh/report/regret.awk "$O/pruned.tsv" "${sets[@]}" "$TMP/ranks.tsv" >"$TMP/regret.tsv"
awk -F'\t' '{ n[$1 "\t" $3]++; s[$1 "\t" $3] += log($4); if ($4 > m[$1 "\t" $3]) m[$1 "\t" $3] = $4 }
	END { for (x in n) printf "%s\t%d\t%.12g\t%.12g\n", x, n[x], exp(s[x] / n[x]), m[x] }' "$TMP/regret.tsv" | sort >"$TMP/ours"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{ printf "%s\t%s\t%d\t%.12g\t%.12g\n", $h["set"], $h["k"], $h["regret_n"], $h["regret_gmean"], $h["regret_max"] }' "$TMP/eval.tsv" | sort >"$TMP/theirs"
if [ "$(wc -l <"$TMP/ours")" -eq 6 ] && diff -q "$TMP/ours" "$TMP/theirs" >/dev/null; then
	ok "report-regret-vs-eval ($(awk -F'\t' '$1 == "main" && $2 == 1 { print "main top-1 gmean " $4 }' "$TMP/ours"))"
else fail report-regret-vs-eval "$(diff "$TMP/ours" "$TMP/theirs" | head -4 | tr '\n' '|')"; fi
# a hand-made case: choices a (1 ms, winner), b (3 ms), extern_mm (2 ms);
# ranking [b] -> top-1 list {b, extern_mm} -> regret 2; ranking [a] -> 1
printf 'meta\n' >"$TMP/t.tsv"; printf 'class\t0\ta\nclass\t1\tb\n' >>"$TMP/t.tsv"
printf '{}\ninput\tchoice\tmedian_ms\n0\ta\t1\n0\tb\t3\n0\textern_mm\t2\n1\ta\t1\n1\tb\tinf\n' >"$TMP/s.feat.tsv"
printf 'tree\tset\tinput\tleaf\twinner\tranking\nt\ts\t0\t1\ta\t1,0\nt\ts\t1\t1\ta\t1,0\n' >"$TMP/r.tsv"
got=$(awk -v ks=1,2 -f stages/sh/report/regret.awk "$TMP/t.tsv" "$TMP/s.feat.tsv" "$TMP/r.tsv" | tr '\t\n' ' |')
[ "$got" = "s 0 1 2|s 0 2 1|s 1 2 1|" ] && ok report-regret-hand || fail report-regret-hand "got '$got'"

# Make: nothing redone right after a build; only the report after the tree changes
"${MK[@]}" report >"$TMP/make3.log" 2>&1 && ! grep -qE '^  [A-Z]+ ' "$TMP/make3.log" &&
	ok report-make-uptodate || fail report-make-uptodate "second make report redid: $(grep -E '^  [A-Z]+ ' "$TMP/make3.log" | tr '\n' '|')"
touch "$O/pruned.tsv"
"${MK[@]}" report >"$TMP/make4.log" 2>&1 && [ "$(grep -E '^  [A-Z]+ ' "$TMP/make4.log")" = "  REPORT  $P" ] &&
	[ "$P" -nt "$O/pruned.tsv" ] && ok report-make-rebuild ||
	fail report-make-rebuild "after touching pruned.tsv: $(grep -E '^  [A-Z]+ ' "$TMP/make4.log" | tr '\n' '|')"

# ---- rendering in headless Chromium -------------------------------------------
test_require CHROMIUM report-render
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
chrome() { timeout 40 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	--disable-extensions --user-data-dir="$TMP/chrome-profile" "$@"; }
if ! chrome --dump-dom "file://$P" >"$TMP/dom.html" 2>"$TMP/dom.err" || ! grep -q '<svg' "$TMP/dom.html"; then
	skip report-render "[CHROMIUM] chromium cannot run here: $(grep -v dbus "$TMP/dom.err" | tail -2 | tr '\n' '|')"; finish
fi
ndom=$(grep -o '<svg' "$TMP/dom.html" | wc -l)
[ "$ndom" -eq 3 ] && ok report-dom-svgs || fail report-dom-svgs "$ndom <svg> elements in the DOM, expected 3"

# PNG statistics: "W H INK COLOR" — pixels not near-white, and saturated ones
png_stats() {
	python3 - "$1" <<'EOF'
import sys, zlib, struct
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos + 8]); body = d[pos + 8:pos + 8 + n]; pos += 12 + n
    if t == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif t == b'IDAT': idat += body
assert depth == 8 and ctype in (2, 6), 'unsupported PNG type %d/%d' % (depth, ctype)
bpp = 3 if ctype == 2 else 4; stride = w * bpp; raw = zlib.decompress(idat)
prev = bytearray(stride); ink = color = 0
for y in range(h):
    f = raw[y * (stride + 1)]; line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    if f == 1:
        for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
    elif f == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, prev))
    elif f == 3:
        for i in range(stride): line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
    elif f == 4:
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for i in range(0, stride, bpp):
        r, g, b = line[i], line[i + 1], line[i + 2]
        if min(r, g, b) < 200: ink += 1
        if max(r, g, b) - min(r, g, b) > 80: color += 1
    prev = line
print(w, h, ink, color)
EOF
}
# isolate one figure at the top left, everything else hidden
isolate() { # SRC.html FIGURE-ID OUT.html
	sed "s|</head>|<style>body * { visibility: hidden !important; } #$2, #$2 svg, #$2 svg * { visibility: visible !important; } #$2 { position: absolute; top: 0; left: 0; width: 1000px; margin: 0; } #$2 figcaption { display: none; }</style></head>|" "$1" >"$3"
}
shot() { # HTML PNG W H — screenshot, console messages into PNG.log
	chrome --enable-logging=stderr --v=0 --window-size="$3,$4" --screenshot="$2" "file://$1" >"$2.log" 2>&1 && [ -s "$2" ]
}
# figure, minimum ink fraction (per mille), minimum saturated pixels
for spec in "fig-tree 20 0" "fig-regret 20 300" "fig-winners 20 2000"; do
	set -- $spec
	isolate "$P" "$1" "$TMP/$1.html"
	if ! shot "$TMP/$1.html" "$TMP/$1.png" 1000 700; then
		fail "report-render-$1" "screenshot failed: $(grep -v dbus "$TMP/$1.png.log" | tail -2 | tr '\n' '|')"; continue; fi
	read -r w h ink color < <(png_stats "$TMP/$1.png")
	if [ $((1000 * ink)) -ge $(($2 * w * h)) ] && [ "$color" -ge "$3" ]; then
		ok "report-render-$1 (${w}x$h: $((1000 * ink / (w * h)))‰ ink, $color coloured px)"
	else fail "report-render-$1" "${w}x$h: ink $ink px (< $2‰) or coloured $color px (< $3)"; fi
done
# the check can fail: the same page without the tree's SVG renders blank there
awk '/<figure id="fig-tree">/ { f = 1 } f && /<svg/ { s = 1 } !s { print } s && /<\/svg>/ { s = 0; f = 0 }' "$P" >"$TMP/nosvg.html"
isolate "$TMP/nosvg.html" fig-tree "$TMP/nosvg-iso.html"
if shot "$TMP/nosvg-iso.html" "$TMP/nosvg.png" 1000 700; then
	read -r w h ink color < <(png_stats "$TMP/nosvg.png")
	[ "$ink" -lt $((w * h / 1000)) ] && ok "report-render-control (no SVG: $ink ink px)" ||
		fail report-render-control "page without the tree SVG still has $ink ink px"
else fail report-render-control "screenshot failed"; fi

# whole page: no console errors, no failed loads; the top is not blank
if shot "$P" "$TMP/page.png" 1400 1000; then
	if grep -E 'CONSOLE|Uncaught|net::ERR|Failed to load|Not allowed to load' "$TMP/page.png.log" | grep -v dbus >"$TMP/console"; then
		fail report-console "$(head -3 "$TMP/console" | tr '\n' '|')"
	else ok report-console; fi
	read -r w h ink color < <(png_stats "$TMP/page.png")
	[ $((1000 * ink)) -ge $((20 * w * h)) ] && ok "report-page-screenshot (${w}x$h)" || fail report-page-screenshot "ink $ink px only"
else fail report-page-screenshot "screenshot failed: $(grep -v dbus "$TMP/page.png.log" | tail -2 | tr '\n' '|')"; fi
finish
