#!/usr/bin/env bash
# report.sh — one self-contained HTML page about a learned ranking tree.
#
# usage: stages/sh/report.sh [--eval EVAL] [--ranking K] [--title TEXT] [--top N]
#                         -o REPORT.html TREE.tsv METRICS.tsv MAIN.feat.tsv [SET.feat.tsv...]
#        stages/sh/report.sh --deps [--check]
# Inputs:  TREE.tsv     the pruned tree (prune output, stages/FORMATS.md)
#          METRICS.tsv  fit's metrics TSV (every model and set)
#          *.feat.tsv   featurize output; the first is the main set
#          EVAL         the eval stage binary (default build/bin/eval): it
#                       ranks every input; per-input regret is derived from
#                       its --ranks output (stages/sh/report/regret.awk)
# Output:  REPORT.html  inline SVGs only (no scripts, no external files):
#          the tree (graphviz; leaves list their top-N choices, default 5),
#          metrics tables, regret CDFs for top-1 and top-K (gnuplot; K
#          defaults to the tree's ranking_k), eval table, the curve (eval
#          --curve: the pick alone, top-1..10 + extern_mm, the list head
#          alone), data
#          summary and winner histogram (gnuplot).  Written to REPORT.html.tmp.PID and
#          renamed into place only on success.
# Needs:   graphviz (dot), gnuplot (gnuplot-nox), awk, sort.  --deps checks
#          them; run as root (without --check) it installs the missing ones
#          with apt-get, otherwise it prints the install command and exits 1
#          (the same policy as stages/sh/deps.sh).  Without --deps (make
#          report) the check runs too but never installs: it names the
#          missing packages and the command, and exits 1.
# Exit:    0 success; 1 bad usage, missing dependency, unreadable or invalid
#          input (the message names the file), or a failed tool.
set -euo pipefail

prog=report
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helpers=$here/report
die() { echo "$prog: $*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

deps() { # deps [--check]
	local missing=()
	command -v dot >/dev/null || missing+=(graphviz)
	command -v gnuplot >/dev/null || missing+=(gnuplot-nox)
	command -v awk >/dev/null || missing+=(mawk)
	command -v sort >/dev/null || missing+=(coreutils)
	[ ${#missing[@]} -eq 0 ] && return 0
	local cmd="apt-get update && apt-get install -y ${missing[*]}"
	if [ "$(id -u)" = 0 ] && [ "${1:-}" != --check ] && command -v apt-get >/dev/null; then
		echo "$prog: installing ${missing[*]}" >&2
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2 ||
			die "installation failed; run: $cmd"
		return 0
	fi
	echo "$prog: missing ${missing[*]}; install them with:" >&2
	echo "    sudo sh -c '$cmd'    (or, as root: stages/sh/report.sh --deps)" >&2
	exit 1
}

evalbin=${EVAL:-build/bin/eval} ranking= title= top=5 out=
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--help|-h) usage; exit 0 ;;
	--version) echo "report (mmrank) 1"; exit 0 ;;
	--deps) shift; deps "${1:-}"; echo "report: deps present (dot, gnuplot, awk, sort)"; exit 0 ;;
	--eval) [ $# -ge 2 ] || die "--eval needs a path"; evalbin=$2; shift 2 ;;
	--ranking) [ $# -ge 2 ] || die "--ranking needs a number"; ranking=$2; shift 2 ;;
	--title) [ $# -ge 2 ] || die "--title needs text"; title=$2; shift 2 ;;
	--top) [ $# -ge 2 ] || die "--top needs a number"; top=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || die "-o needs a path"; out=$2; shift 2 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) args+=("$1"); shift ;;
	esac
done
[ -n "$out" ] || die "no output given (-o REPORT.html; see --help)"
[ ${#args[@]} -ge 3 ] || die "need TREE.tsv METRICS.tsv MAIN.feat.tsv [SET.feat.tsv...] (see --help)"
[[ $top =~ ^[1-9][0-9]*$ ]] || die "--top: '$top' is not a positive integer"
[ -z "$ranking" ] || [[ $ranking =~ ^[1-9][0-9]*$ ]] || die "--ranking: '$ranking' is not a positive integer"
tree=${args[0]} metrics=${args[1]}
feats=("${args[@]:2}")
for f in "$tree" "$metrics" "${feats[@]}"; do
	[ -r "$f" ] && [ -f "$f" ] || die "$f: cannot read"
done
for f in "${feats[@]}"; do
	case $f in *.feat.tsv) ;; *) die "$f: a feat TSV must be named SET.feat.tsv" ;; esac
done
[ -x "$evalbin" ] || die "$evalbin: eval binary not found or not executable (--eval PATH; make all)"
grep -q $'^node\t' "$tree" || die "$tree: no node records (not a tree TSV?)"
head -1 "$metrics" | grep -q $'^set\t' || die "$metrics: line 1 is not a metrics TSV header"
deps --check

if [ -z "$ranking" ]; then
	ranking=$(awk -F'\t' '$1 == "param" && $2 == "ranking_k" { print $3; exit }' "$tree")
	[ -n "$ranking" ] || ranking=10
fi
[ -n "$title" ] || title=$(basename "$tree" .tsv)

W=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-report.XXXXXX")
tmp="$out.tmp.$$"
trap 'rm -rf "$W"; rm -f "$tmp"' EXIT
mkdir -p "$(dirname "$out")"

# ---- ranks and per-input regret --------------------------------------------
ks="1,$ranking"; [ "$ranking" = 1 ] && ks=1
"$evalbin" --k "$(echo "1,5,$ranking" | tr , '\n' | sort -nu | paste -sd,)" \
	--ranks "$W/ranks.tsv" -o "$W/eval.tsv" --curve "$W/curve.tsv" "$tree" "${feats[@]}" >"$W/eval.out" 2>"$W/eval.err" ||
	die "$evalbin failed on $tree: $(tail -3 "$W/eval.err")"
awk -v ks="$ks" -f "$helpers/regret.awk" "$tree" "${feats[@]}" "$W/ranks.tsv" >"$W/regret.tsv"
sets=()
for f in "${feats[@]}"; do s=$(basename "$f" .feat.tsv); sets+=("$s"); done
for s in "${sets[@]}"; do
	for k in ${ks//,/ }; do
		# slowdown vs the oracle in % ((regret - 1) * 100, floored at 0.01 for
		# the log axis), cumulative fraction; equal values collapse to their last row
		awk -F'\t' -v s="$s" -v k="$k" '$1 == s && $3 == k { print $4 }' "$W/regret.tsv" | sort -g |
			awk '{ x = ($1 - 1) * 100; v[NR] = sprintf("%.6g", x < 0.01 ? 0.01 : x) }
			     END { for (i = 1; i <= NR; i++) if (i == NR || v[i + 1] != v[i]) printf "%s\t%.6f\n", v[i], i / NR;
			           if (NR == 0) print "0.01\t1" }' >"$W/reg_${s}_k$k.dat"
	done
done

# ---- figures ---------------------------------------------------------------
awk -v top="$top" -v title="$title: pruned ranking tree (leaves: top-$top choices)" \
	-f "$helpers/tree2dot.awk" "$tree" >"$W/tree.dot"
dot -Tsvg "$W/tree.dot" >"$W/tree.svg" 2>"$W/dot.err" || die "dot failed on $tree: $(head -3 "$W/dot.err")"
gnuplot -e "dir='$W'; sets='${sets[*]}'; ks='${ks//,/ }'; out='$W/regret.svg'" "$helpers/regret.gp" 2>"$W/gp.err" ||
	die "gnuplot failed (regret): $(head -3 "$W/gp.err")"
awk -v top=15 -v windat="$W/winners.dat" -f "$helpers/summary.awk" "${feats[@]}" >"$W/summary.html"
gnuplot -e "dat='$W/winners.dat'; nsets=${#sets[@]}; out='$W/winners.svg'" "$helpers/winners.gp" 2>"$W/gp.err" ||
	die "gnuplot failed (winners): $(head -3 "$W/gp.err")"
awk -f "$helpers/legend.awk" "$here/../FORMATS.md" >"$W/legend.tsv"
awk -v mode=metrics -v legend="$W/legend.tsv" -f "$helpers/metrics.awk" "$metrics" >"$W/metrics.html"
awk -v mode=eval -f "$helpers/metrics.awk" "$W/eval.tsv" >"$W/eval.html"
awk -v mode=curve -f "$helpers/metrics.awk" "$W/curve.tsv" >"$W/curve.html"

# inline an SVG: drop the XML prolog/doctype/comments before <svg, prefix
# every id and its references so that several SVGs can share one page
inline_svg() { # FILE PREFIX
	awk -v p="$2" '
		!on && /<svg/ { on = 1 }
		!on { next }
		{ gsub(/id="/, "id=\"" p "-"); gsub(/id='\''/, "id='\''" p "-")
		  gsub(/href="#/, "href=\"#" p "-"); gsub(/href='\''#/, "href='\''#" p "-")
		  gsub(/url\(#/, "url(#" p "-"); print }' "$1"
}
for s in tree regret winners; do
	grep -q '<svg' "$W/$s.svg" || die "$s.svg: no <svg> element produced"
done

h() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
meta=$(head -1 "${feats[0]}")
capa=$(printf '%s' "$meta" | sed -n 's/.*"device_capa": *\[\([0-9]*\), *\([0-9]*\)\].*/\1.\2/p')
smem=$(printf '%s' "$meta" | sed -n 's/.*"shared_memory": *\([0-9]*\).*/\1/p')
nleaf=$(awk -F'\t' '$1 == "node" && $3 == -1' "$tree" | wc -l)
nnode=$(grep -c $'^node\t' "$tree")
depth=$(awk -F'\t' '$1 == "param" && $2 == "max_depth" { print $3 }' "$tree")

{
	cat <<EOF
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>$(printf '%s' "$title" | h) — mmrank report</title>
<style>
body { font: 14px/1.4 "DejaVu Sans", sans-serif; margin: 16px 24px; color: #222; max-width: 1500px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 26px 0 8px; border-bottom: 1px solid #ccc; }
.sub { color: #555; margin: 0 0 10px; }
figure { margin: 8px 0; } figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #555; font-size: 12px; } #fig-regret svg, #fig-winners svg { max-width: 1100px; }
table.data { border-collapse: collapse; margin: 8px 0; font-size: 12px; }
table.data th, table.data td { border: 1px solid #ccc; padding: 2px 7px; text-align: right; vertical-align: top; }
table.data th { background: #f3f3f3; } table.data tbody th { text-align: left; font-weight: normal; }
table.data td:first-child { text-align: left; } tr.sel { background: #eef6ee; }
table.data td.what { text-align: left; color: #444; max-width: 560px; }
code { font-size: 12px; } .cols { display: flex; gap: 28px; flex-wrap: wrap; align-items: flex-start; }
</style></head><body>
<h1>$(printf '%s' "$title" | h)</h1>
<p class="sub">mmrank report — device capability ${capa:-?}, shared memory ${smem:-?} B; tree
<code>$(printf '%s' "$tree" | h)</code>: $nnode nodes, $nleaf leaves, max_depth ${depth:-?}, ranking k = $ranking;
sets: $(printf '%s' "${sets[*]}" | h).</p>

<h2 id="tree">Tree</h2>
<figure id="fig-tree">
$(inline_svg "$W/tree.svg" t)
<figcaption>Internal nodes: a sample goes to "yes" when feature &lt;= threshold; n = training
samples (ranking expansion). Leaves: the top-$top choices by rank weight, with the weight in %
(it orders the leaf's list and is no probability; M/K/N block sizes, s = num_stages,
w = num_warps); the emitted heuristic returns all of a leaf's choices, best first.</figcaption>
</figure>

<h2 id="metrics">Metrics (fit, spec §5.9)</h2>
$(cat "$W/metrics.html")

<h2 id="regret">Regret</h2>
<figure id="fig-regret">
$(inline_svg "$W/regret.svg" r)
<figcaption>Regret per input = best median time among the top-k list (extern_mm always added) ÷ the
input's best time (≥ 1: no axis goes below it); the x axis shows it as a slowdown, (regret − 1) × 100 %,
each tick with its regret under it (×1.01 = 1 % slower), with slowdowns ≤ 0.01 %
(mostly 0: the list holds the winner) drawn at 0.01; the curve's height there is the hit rate. "main" is every input of the main log (its
train/val/test split is inside fit; 80 % of it was trained on), the other sets are the --data sets.</figcaption>
</figure>
$(cat "$W/eval.html")
<p class="sub">Per set and list size k (eval, the list = the tree's first k choices measured for the
input, extern_mm appended): hit rate = share of inputs whose fastest choice is in the list; regret
= best listed time ÷ best time (gmean, p95, max; ≥ 1); speedup = extern_mm's time ÷ best listed time
(gmean, max); no ranked = inputs none of whose measured choices the tree ranks (their list is
extern_mm alone); unsafe = inputs reaching a leaf without probabilities (spec §5.7).</p>

<h2 id="curve">Every list length</h2>
<p>The pick alone is what a program that runs one choice without autotuning gets (the C API's
<code>_pick()</code>: the leaf's own pick where it is offered for the shape, else the first listed
choice that is, no extern_mm added); the list head alone is the first listed choice offered;
top-k + extern_mm is what Inductor autotunes (spec §7.3). Hit rate: the share of inputs whose
fastest choice is in the list; regret: best listed time ÷ best time (geometric mean; inputs whose
list has no finite time are counted apart).</p>
$(cat "$W/curve.html")

<h2 id="data">Data</h2>
$(cat "$W/summary.html" | awk '/id="winners"/ { exit } { print }')
<figure id="fig-winners">
$(inline_svg "$W/winners.svg" w)
</figure>
$(cat "$W/summary.html" | awk '/id="winners"/ { on = 1 } on { print }')
</body></html>
EOF
} >"$tmp"
# the page must hold the three figures
[ "$(grep -c '<svg' "$tmp")" -ge 3 ] || die "$tmp: fewer than 3 inline SVGs"
mv -f "$tmp" "$out"
trap 'rm -rf "$W"' EXIT
