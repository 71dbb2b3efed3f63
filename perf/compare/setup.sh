# perf/compare/setup.sh — sourced by oof.sh and lmo.sh after gpu=GPU is set:
# builds what they run and featurizes make's data (make featurize), then sets
#   mk      the make command (GPU, OUT=$MAKEOUT (default out), BUILD)
#   bin     the stage binaries         O     make's folder for GPU (feat TSVs)
#   ranking k of make fit-args          ours  make fit-args, with --split group
#   ref     the reference learner's options (make ref-learn-args), same split
#   data    --data NAME FILE for every extra set (make extra-sets)
#   art     the shipped artifact (SHIPPED, else REFERENCE_DIR/_MMRanking<GPU>.py;
#           for an H200, MMRankingH100: Inductor uses it there)  seen  what it saw
# and the functions join (a comma list) and pooled (below).
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package (paired.py)
mo=${MAKEOUT:-out} bd=${BUILD:-build}
bin=$bd/bin
mk=(make --no-print-directory GPU="$gpu" OUT="$mo" BUILD="$bd")
"${mk[@]}" -s featurize "$bin/fit" "$bin/prune" "$bin/eval" "$bin/import" >/dev/null ||
	{ echo "${0##*/}: make featurize GPU=$gpu failed" >&2; exit 1; }
O=$mo/$gpu
fa=$("${mk[@]}" -s fit-args)
ranking=$(sed -n 's/.*--ranking \([^ ]*\).*/\1/p' <<<"$fa")
ours=$(sed 's/--split [^ ]*/--split group/' <<<"$fa")
ref="--ranking $ranking --seed $(sed -n 's/.*--seed \([^ ]*\).*/\1/p' <<<"$fa") --split group $("${mk[@]}" -s ref-learn-args)"
data=()
for s in $("${mk[@]}" -s extra-sets); do data+=(--data "$s" "$O/$s.feat.tsv"); done
refdir=${REFERENCE_DIR:-../shared/reference}
art=${SHIPPED:-$refdir/_MMRanking$(echo "$gpu" | tr a-z A-Z).py}
# torch ships no H200 heuristic: on an H200, Inductor uses MMRankingH100 (the
# same precondition, shared memory 232448 and capability (9, 0)), so that is
# the shipped peer of an H200 collection
seen="trained on every main input"
[ -n "${SHIPPED:-}" ] || [ -r "$art" ] || case $gpu in
h200*) art=$refdir/_MMRankingH100.py seen="trained on the official H100 data: it never saw these inputs" ;;
esac
[ -z "${SHIPPED:-}" ] || seen="given as SHIPPED"
join() { local IFS=,; echo "$*"; }
# pooled WHAT: the paired tables over the test sets F (trees TO ours, TR ref,
# aligned with F; shipped imported into D): shipped vs ours, ref vs ours
pooled() {
	if [ -r "$art" ]; then
		"$bin/import" -o "$D/shipped.tsv" "$art" 2>/dev/null
		echo "== shipped ($art, $seen) vs ours (never saw $1)"
		python3 perf/compare/paired.py --bin "$bin" --k "$ranking" "$(join "${F[@]}")" shipped="$D/shipped.tsv" \
			ours="$(join "${TO[@]}")" | sed "s#$D/##g"
	else
		echo "skip shipped: no $art (set REFERENCE_DIR)"
	fi
	echo "== ref (the reference learner) vs ours, neither saw $1"
	python3 perf/compare/paired.py --bin "$bin" --k "$ranking" "$(join "${F[@]}")" ref="$(join "${TR[@]}")" \
		ours="$(join "${TO[@]}")" | sed "s#$D/##g"
}
