#!/usr/bin/env bash
# perf/compare/seeds.sh GPU [OUT] — make compare's (b) and (d) for several
# held-out splits: the default seed (make fit-args) and seeds 1..5.
#
# SEED is both the seed of compare's grouped split ((b), (d): which HOLDOUT
# share of the main inputs is held out) and the main fit's seed (make
# heuristic, compare (c)), so every run goes to OUT (default out/seeds), never
# to out/<gpu>/.  One line per seed, on the held-out inputs (set heldout,
# k = 10): hit rate (%) and regret geometric mean of shipped (PyTorch's
# artifact; it was trained on those inputs), ref (the reference learner,
# trained by us without them) and ours (trained without them), from
# OUT/GPU/compare/fair.tsv (eval's TSV of compare (d)).
# Exit status: 0 on success, 1 on bad usage or a failing make.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: perf/compare/seeds.sh GPU [OUT]" >&2; exit 1; }
gpu=$1 out=${2:-out/seeds}
case $out in "out" | "out/") echo "seeds.sh: OUT=$out would retrain out/$gpu/: use another folder" >&2; exit 1 ;; esac
mk=(make --no-print-directory GPU="$gpu" OUT="$out")
mkdir -p "$out"
def=$("${mk[@]}" -s fit-args | sed -n 's/.*--seed \([^ ]*\).*/\1/p')
[ -n "$def" ] || { echo "seeds.sh: no --seed in make fit-args" >&2; exit 1; }
echo "# perf/compare/seeds.sh $gpu $out  (make compare GPU=$gpu OUT=$out SEED=s per seed; set heldout, k = 10; hit % and regret gmean: shipped/ref/ours)"
for s in "$def" 1 2 3 4 5; do
	log=$out/seeds-$gpu-$s.log
	"${mk[@]}" compare SEED="$s" >"$log" 2>&1 ||
		{ tail -5 "$log" >&2; echo "seeds.sh: make compare SEED=$s failed (log: $log)" >&2; exit 1; }
	awk -F'\t' -v g="$gpu" -v s="$s" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$2 == "heldout" && $3 == 10 { h[$1] = $(c["hit_rate"]); r[$1] = $(c["regret_gmean"]); n = $(c["inputs"]) }
	END {
		if (!("ref" in h) || !("ours" in h)) { print "seeds.sh: no heldout k=10 rows of ref and ours" > "/dev/stderr"; exit 1 }
		hs = ("shipped" in h) ? sprintf("%6.2f", 100*h["shipped"]) : "     -"
		rs = ("shipped" in h) ? sprintf("%.7f", r["shipped"]) : "        -"
		printf "%s seed=%-2s heldout %4d inputs k=10  hit %s/%6.2f/%6.2f  regret %s/%.7f/%.7f\n",
		    g, s, n, hs, 100*h["ref"], 100*h["ours"], rs, r["ref"], r["ours"]
	}' "$out/$gpu/compare/fair.tsv"
done
