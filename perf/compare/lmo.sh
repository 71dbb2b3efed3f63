#!/usr/bin/env bash
# perf/compare/lmo.sh GPU [OUT] — leave one model out: how the trees rank the
# GEMMs of a model whose shapes they never saw (the case of an architecture
# nobody listed).
#
# The extra set SET (default train_models: the log of datasets/shapes/real.tsv's
# shapes, collected for the H200) holds the GEMMs of many models; SHAPES
# (default datasets/shapes/real.tsv) says which model each shape is from (the
# `source` column's text before its first dot: llama2-7b, gpt2, ...). For each
# model, its test set is every input of SET whose shape (m, k, n, dtype,
# strides; tf32 for float32) the model has, and ours and the reference learner
# (oof.sh's options: make fit-args, make ref-learn-args) are trained on the main
# set, the other extra sets and the rest of SET: shapes shared with the model
# are held out too (an input that two models share is scored in each).  The
# tests are pooled as oof.sh pools its folds (perf/compare/paired.py:
# shipped vs ours, ref vs ours, paired bootstrap intervals; then the curve,
# k = first, 1, 2, 3, 5, 10, auto).  The shipped
# artifact is scored as it is: it was trained on PyTorch's own data (for the
# H100 artifact on an H200, H100 timings of Hugging Face and timm models), so
# it may have seen these architectures' shapes.
# Writes OUT/GPU/<model>/{test,rest}.feat.tsv and {ours,ref}.{tree,pruned,metrics}.tsv
# (OUT default out/lmo; never make's out/).  Environment as oof.sh's (MAKEOUT,
# BUILD, REFERENCE_DIR, SHIPPED, make's variables), and SET, SHAPES.
# Exit status: 0 on success, 1 on bad usage, a missing set or a failing stage.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: perf/compare/lmo.sh GPU [OUT]" >&2; exit 1; }
gpu=$1 out=${2:-out/lmo}
set_name=${SET:-train_models} shapes=${SHAPES:-datasets/shapes/real.tsv}
. perf/compare/setup.sh
[ "$(realpath -m "$out")" != "$(realpath -m "$mo")" ] ||
	{ echo "lmo.sh: OUT=$out is make's output folder: use another folder" >&2; exit 1; }
feat=$O/$set_name.feat.tsv
[ -r "$feat" ] || { echo "lmo.sh: no extra set '$set_name' for $gpu ($feat; make extra-sets: ${data[*]:-none})" >&2; exit 1; }
[ -r "$shapes" ] || { echo "lmo.sh: cannot read SHAPES=$shapes" >&2; exit 1; }
others=()
for ((i = 0; i < ${#data[@]}; i += 3)); do
	[ "${data[i + 1]}" = "$set_name" ] || others+=("${data[@]:i:3}")
done
D=$out/$gpu
mkdir -p "$D"
# model -> its shape keys, from SHAPES (header: m k n dtype tf32 layout strides... source)
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
	for (f in need) if (!(f in c)) { print "lmo.sh: " FILENAME ": no column " f > "/dev/stderr"; exit 1 }; next }
	BEGIN { split("m k n dtype tf32 mat1_stride_0 mat1_stride_1 mat2_stride_0 mat2_stride_1 source", x, " "); for (i in x) need[x[i]] }
	{ u = $(c["source"]); sub(/\..*/, "", u)
	  t = $(c["dtype"]) == "torch.float32" ? $(c["tf32"]) : "-"
	  print u "\t" $(c["m"]) " " $(c["k"]) " " $(c["n"]) " " $(c["dtype"]) " " $(c["mat1_stride_0"]) " " \
	    $(c["mat1_stride_1"]) " " $(c["mat2_stride_0"]) " " $(c["mat2_stride_1"]) " " t }' "$shapes" >"$D/keys.tsv"
# split_set MODEL TEST REST: SET's rows whose input has one of MODEL's keys, and the
# others (inputs renumbered 0, 1, ... in each, as fit and eval want); prints TEST's inputs
split_set() {
	awk -F'\t' -v u="$1" -v test="$2" -v rest="$3" '
	FNR == NR { if ($1 == u) want[$2]; next }
	FNR <= 2 { print > test; print > rest
		if (FNR == 2) for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ t = $(c["mat1_dtype"]) == "torch.float32" ? ($(c["using_tf32"]) == "True" ? 1 : 0) : "-"
	  key = $(c["m"]) " " $(c["k"]) " " $(c["n"]) " " $(c["mat1_dtype"]) " " $(c["mat1_stride_0"]) " " \
	    $(c["mat1_stride_1"]) " " $(c["mat2_stride_0"]) " " $(c["mat2_stride_1"]) " " t
	  id = $(c["input"]); w = key in want
	  if (!((w, id) in num)) num[w, id] = cnt[w]++   # renumbered 0, 1, ... in each file
	  $(c["input"]) = num[w, id]
	  if (w) print > test; else print > rest }
	END { print cnt[1] + 0 }' OFS='\t' "$D/keys.tsv" "$feat"
}
echo "# perf/compare/lmo.sh $gpu $out: each model of $shapes held out of $set_name ($feat), k = $ranking"
echo "# ours: fit $ours;  ref: fit $ref"
F=() TO=() TR=() C=() units=0
rm -f "$D/units.tsv.new"
for u in $(cut -f1 "$D/keys.tsv" | sort -u); do
	d=$D/$u
	mkdir -p "$d"
	n=$(split_set "$u" "$d/test.feat.tsv" "$d/rest.feat.tsv")
	if [ "$n" = 0 ]; then echo "skip $u: none of its shapes is in $set_name"; rm -rf "$d"; continue; fi
	printf '%s\t%s\n' "$u" "$n" >>"$D/units.tsv.new"
	for who in ours ref; do
		args=$ours
		[ $who = ref ] && args=$ref
		# shellcheck disable=SC2086  # word splitting of the option list is wanted
		"$bin/fit" "$O/main.feat.tsv" "${others[@]}" --data "$set_name" "$d/rest.feat.tsv" $args \
			-o "$d/$who.tree.tsv" --metrics "$d/$who.metrics.tsv" >/dev/null 2>"$d/$who.fit.err" || { cat "$d/$who.fit.err" >&2; exit 1; }
		"$bin/prune" --ranking "$ranking" -o "$d/$who.pruned.tsv" "$d/$who.tree.tsv" 2>"$d/$who.prune.err" ||
			{ cat "$d/$who.prune.err" >&2; exit 1; }
	done
	F+=("$d/test.feat.tsv") TO+=("$d/ours.pruned.tsv") TR+=("$d/ref.pruned.tsv")
	units=$((units + 1))
done
[ "$units" -gt 0 ] || { echo "lmo.sh: no model of $shapes has an input in $set_name" >&2; exit 1; }
mv "$D/units.tsv.new" "$D/units.tsv"
echo "# $units models held out, one at a time (inputs each: $(tr '\t\n' '= ' <"$D/units.tsv"))"
pooled "the model's shapes"
echo "== the curve over the held-out models' inputs (perf/compare/curve.py)"
for ((i = 0; i < units; i++)); do
	t=(--tree ref="${TR[i]}" --tree ours="${TO[i]}")
	[ -r "$art" ] && t=(--tree shipped="$D/shipped.tsv" "${t[@]}")
	"$bin/eval" --curve "${F[i]%/*}/curve.tsv" "${t[@]}" "test=${F[i]}" >/dev/null ||
		{ echo "lmo.sh: eval --curve failed on ${F[i]}" >&2; exit 1; }
	C+=("${F[i]%/*}/curve.tsv")
done
python3 perf/compare/curve.py --k first,1,2,3,5,10,auto "${C[@]}"
