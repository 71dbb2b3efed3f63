#!/usr/bin/env bash
# perf/compare/oof.sh GPU [K] [OUT] — out-of-fold comparison: every main
# input held out exactly once (grouped validation), so ours and the shipped
# heuristics are compared on every input.
#
# make compare's (b) holds out one grouped 20 % share of the main inputs:
# 529 A100 inputs, 65 H100 inputs.  Here the main inputs are cut into K
# (default 5) disjoint grouped test folds (fit --test-fold F/K, seed =
# make's SEED; fold 0 is (b)'s held-out set).  For each fold, ours is
# trained without the fold with make's profile options (make fit-args, its
# split made the grouped fold split; PROFILE=ours: cross-validated selection
# on the rest), and so is the reference learner (make ref-learn-args: one
# model, §5.10 selection, as in compare (d)).  Every input is then ranked by the two trees
# that never saw it and by PyTorch's shipped artifact (REFERENCE_DIR,
# default ../shared/reference; it was trained on every main input), and
# perf/compare/paired.py pools the K folds: top-k hit rate and regret
# geometric mean (k = RANKING, default 10) with paired bootstrap 95 %
# intervals, shipped vs ours and ref vs ours.  The extra sets (make
# extra-sets: train_timm, train_hf for the official data, none for a
# collection) are training data of every tree, so they are not scored here
# (see make compare).  In the pooled lists, "input F:I" is input I (the
# input column) of fold F's test.feat.tsv.
#
# Writes OUT/GPU/fold<F>/{ours,ref}.{tree,pruned,split}.tsv and
# test.feat.tsv (OUT default out/oof; never out/, which make heuristic owns)
# and prints the tables, then the curve (hit rate and regret of
# the pick alone, of the list head alone and of the top-k + extern_mm lists,
# k = 1, 2, 3, 5, 10, auto, eval --curve per fold pooled by
# perf/compare/curve.py) of shipped, ref,
# ours and, where installed, nvMatmulHeuristics (stage nvmmh; else "skip
# nvmmh: why").  make's variables in the environment apply to ours
# (e.g. LEAF_PAD=0, PROFILE, SEED); MAKEOUT (default out) is make's OUT,
# where the feat TSVs are made, and BUILD (default build) make's build
# folder.  SHIPPED=FILE: the shipped artifact to compare (default
# REFERENCE_DIR/_MMRanking<GPU>.py; for an H200 collection _MMRankingH100.py,
# the one Inductor uses on an H200).  Needs python3.  Exit status: 0 on success, 1 on bad usage or a
# failing stage (its messages on stderr).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: perf/compare/oof.sh GPU [K] [OUT]" >&2; exit 1; }
gpu=$1 k=${2:-5} out=${3:-out/oof}
case $k in [2-9] | [1-9][0-9] | 100) ;; *) echo "oof.sh: K must be 2..100, got '$k'" >&2; exit 1 ;; esac
. perf/compare/setup.sh
[ "$(realpath -m "$out")" != "$(realpath -m "$mo")" ] ||
	{ echo "oof.sh: OUT=$out is make's output folder ($mo/$gpu/ is make heuristic's): use another folder" >&2; exit 1; }
D=$out/$gpu
mkdir -p "$D"
echo "# perf/compare/oof.sh $gpu $k $out: $k grouped test folds of $O/main.feat.tsv, k = $ranking"
echo "# ours: fit $ours --test-fold F/$k"
echo "# ref:  fit $ref --test-fold F/$k"
F=() TO=() TR=()
for ((f = 0; f < k; f++)); do
	d=$D/fold$f
	mkdir -p "$d"
	for who in ours ref; do
		args=$ours
		[ $who = ref ] && args=$ref
		# shellcheck disable=SC2086  # word splitting of the option list is wanted
		"$bin/fit" "$O/main.feat.tsv" "${data[@]}" $args --test-fold "$f/$k" \
			--write-split "$d/$who.split.tsv" -o "$d/$who.tree.tsv" --metrics "$d/$who.metrics.tsv" \
			>/dev/null 2>"$d/$who.fit.err" || { cat "$d/$who.fit.err" >&2; exit 1; }
		"$bin/prune" --ranking "$ranking" -o "$d/$who.pruned.tsv" "$d/$who.tree.tsv" 2>"$d/$who.prune.err" ||
			{ cat "$d/$who.prune.err" >&2; exit 1; }
	done
	cmp -s <(cut -f2 "$d/ours.split.tsv") <(cut -f2 "$d/ref.split.tsv") ||
		{ echo "oof.sh: fold $f: ours and ref hold out different inputs" >&2; exit 1; }
	stages/sh/subset.sh "$d/ours.split.tsv" test "$O/main.feat.tsv" "$d/test.feat.tsv"
	F+=("$d/test.feat.tsv") TO+=("$d/ours.pruned.tsv") TR+=("$d/ref.pruned.tsv")
done
pooled "the input"
# the curve: every fold's test set scored at every list length
# by the trees that never saw it (shipped: trained on it), and by NVIDIA's
# analytic nvMatmulHeuristics where it is installed (stage nvmmh: no
# training; its Triton choices by the runtime estimate, extern_mm appended)
echo "== the curve: first = the leaf's pick alone (the C API's pick, no extern_mm added), head = the first listed choice"
echo "   alone, k = top-k + extern_mm;"
echo "   hit rate and regret geomean over the $k folds' test inputs (perf/compare/curve.py)"
nvok=
if "${mk[@]}" -s "$bin/nvmmh" >/dev/null 2>"$D/nvmmh.err"; then nvok=1
else echo "skip nvmmh: $(tail -1 "$D/nvmmh.err")"; fi
C=()
for ((f = 0; f < k; f++)); do
	d=$D/fold$f
	t=(--tree ref="$d/ref.pruned.tsv" --tree ours="$d/ours.pruned.tsv")
	[ -r "$art" ] && t=(--tree shipped="$D/shipped.tsv" "${t[@]}")
	if [ -n "$nvok" ]; then
		"$bin/nvmmh" -o "$d/nvmmh.ranks.tsv" "$d/test.feat.tsv" 2>"$d/nvmmh.err" ||
			{ cat "$d/nvmmh.err" >&2; exit 1; }
		t+=(--ranked "nvmmh:test=$d/nvmmh.ranks.tsv")
	fi
	"$bin/eval" --curve "$d/curve.tsv" "${t[@]}" "test=$d/test.feat.tsv" >/dev/null ||
		{ echo "oof.sh: eval --curve failed on fold $f" >&2; exit 1; }
	C+=("$d/curve.tsv")
done
python3 perf/compare/curve.py --k first,head,1,2,3,5,10,auto "${C[@]}"
