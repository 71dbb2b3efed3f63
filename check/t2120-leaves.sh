#!/usr/bin/env bash
# t2120-leaves.sh — the one place that prunes (stages/learn/leaves.h): the prune
# stage on fit's tree re-derives the pruned tree fit evaluated and selected.
# A synthetic 400-input log (check/synth_mm.awk: 14 choices whose times
# depend on the shape, some within 2 % of the best), one depth-4 model,
# --split none (every input in every set), k = 4; for each leaf order:
#   - pruning happened (fewer nodes after prune than before), and the
#     orders differ (greedy's tree is not freq's), so the checks below bite;
#   - fit --save-dot (the pruned tree fit evaluated) and emit --format dot
#     of prune's output have the same leaves (internal nodes: fit's DOT
#     shows them as fitted, prune's as ordered for pruning at any k);
#   - eval of prune's output at k = 4 gives exactly fit's metrics row of
#     the selected model (set train: every input, the same top-k lists).
. check/lib.sh
for s in featurize fit prune emit eval; do
	[ -x "$BIN/$s" ] || { fail leaves "no $BIN/$s"; finish; }
done
cd "$TMP"
awk -v seed=777 -v inputs=400 -v choices=14 -f "$ROOT/check/synth_mm.awk" >syn.txt
"$BIN/featurize" -o syn.feat.tsv syn.txt 2>/dev/null || { fail leaves-featurize "featurize failed"; finish; }
printf 'max_depth\tmin_samples_leaf\tcriterion\n4\t1\tentropy\n' >grid.tsv

# case NAME FIT-ARGS...
case_() {
	local name=$1; shift
	local x=; case "$*" in *--prune-exclude-extern*) x=--prune-exclude-extern ;; esac
	if ! "$BIN/fit" syn.feat.tsv --split none --grid grid.tsv --ranking 4 "$@" --save-dot "$name.fit.dot" \
		-o "$name.tree.tsv" --metrics "$name.m.tsv" >/dev/null 2>err; then
		fail "leaves-$name" "fit failed: $(grep -v warning err | head -1)"; return; fi
	"$BIN/prune" --ranking 4 $x -o "$name.pruned.tsv" "$name.tree.tsv" 2>/dev/null &&
	"$BIN/emit" --heuristic-name T --format dot -o "$name.dot" "$name.pruned.tsv" &&
	"$BIN/eval" --k 4 -o "$name.eval.tsv" "$name.pruned.tsv" main=syn.feat.tsv >/dev/null ||
		{ fail "leaves-$name" "prune, emit or eval failed"; return; }
	local before after
	before=$(grep -c '^node' "$name.tree.tsv") after=$(grep -c '^node' "$name.pruned.tsv")
	[ "$after" -lt "$before" ] && ok "leaves-$name-pruned ($before -> $after nodes)" ||
		fail "leaves-$name-pruned" "$before -> $after nodes: nothing pruned"
	grep -v 'shape=oval' "$name.fit.dot" >fit.leaves
	grep -v 'shape=oval' "$name.dot" >prune.leaves
	test_cmp "leaves-$name-same-leaves" fit.leaves prune.leaves
	awk -F'\t' 'NR == 2' "$name.eval.tsv" | cut -f12- >eval.row
	awk -F'\t' '$1 == "train" && $5 == 1' "$name.m.tsv" | cut -f6- >fit.row
	[ -s fit.row ] && test_cmp "leaves-$name-same-metrics" fit.row eval.row ||
		fail "leaves-$name-same-metrics" "no selected train row in $name.m.tsv"
}
case_ freq --leaf-rank freq
case_ greedy --leaf-rank greedy
case_ pad --leaf-rank greedy --leaf-pad 3
case_ pad-pxe --leaf-rank greedy --leaf-pad 3 --prune-exclude-extern
cmp -s freq.pruned.tsv greedy.pruned.tsv && fail leaves-orders-differ "greedy's pruned tree is freq's" ||
	ok leaves-orders-differ
cmp -s pad.pruned.tsv pad-pxe.pruned.tsv && fail leaves-pxe-differs "--prune-exclude-extern pruned nothing more" ||
	ok leaves-pxe-differs
finish
