#!/usr/bin/env bash
# compare.sh — the shipped PyTorch heuristic vs ours, side by side
# (spec §5.9 metrics, §6.3
# shipped artifacts, §7.3 how Inductor uses the top-k list).
#
# usage: stages/sh/compare.sh [--bin DIR] [--ranking K] [--reference ART.py]
#                          [--ref-learner REF.tsv] [--nvmmh PROG]
#                          --ours TREE.tsv -o COMPARE.tsv NAME=SET.feat.tsv...
#
# Imports ART.py (PyTorch's _MMRanking<GPU>.py) with `import`, evaluates it
# and TREE.tsv (our pruned tree) on every set with `eval` (top-k sizes 1, 5,
# K), writes eval's TSV (tree = shipped | ours) to COMPARE.tsv and prints a
# side-by-side table: hit rate (fraction of inputs whose fastest choice is in
# the top-k list + extern_mm), regret (best listed time / best time,
# geometric mean and max) and speedup of the best listed choice over
# extern_mm (geometric mean), shipped | ours | ours - shipped.
# --ref-learner REF.tsv adds a third tree (tree = ref, between shipped and
# ours: the reference learner trained by us on ours' training data), and the
# diff column becomes ours - ref.
# If ART.py is absent, prints "skip shipped: no ART.py" and evaluates ours
# alone.  Then the curve (eval --curve) of every tree per set:
# hit rate and regret of the pick alone (the leaf's pick where it was
# measured for the input, else the first listed choice that was, no
# extern_mm added: what the C API's pick() launches), of the list head
# alone (the same without the pick) and of the top-k + extern_mm lists for
# k = 1, 2, 5, 10.
# --nvmmh PROG (mk/nvmmh.mk's stage, where NVIDIA's nvMatmulHeuristics
# is installed) adds its per-input rankings (tree = nvmmh, curve only; sets
# must be given as NAME=PATH); a PROG that is not there prints "skip nvmmh:
# why", a set without Triton choices (nothing for it to rank) "skip nvmmh on
# set 'NAME': why".  Times are medians in ms; every ratio is unitless.
# Exit status: 0 on success, 1 on bad usage or a failing stage; COMPARE.tsv
# is written atomically (eval's -o).
set -euo pipefail
bin=build/bin ranking=10 ref= reflearn= ours= out= nvmmh=
sets=()
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2; shift 2 ;;
	--ranking) ranking=$2; shift 2 ;;
	--reference) ref=$2; shift 2 ;;
	--ref-learner) reflearn=$2; shift 2 ;;
	--ours) ours=$2; shift 2 ;;
	--nvmmh) nvmmh=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "compare.sh: unknown option '$1' (see --help)" >&2; exit 1 ;;
	*) sets+=("$1"); shift ;;
	esac
done
[ -n "$ours" ] && [ -n "$out" ] && [ ${#sets[@]} -gt 0 ] ||
	{ echo "compare.sh: usage: compare.sh [--reference ART.py] [--ref-learner REF.tsv] --ours TREE.tsv -o OUT.tsv NAME=SET.feat.tsv... (see --help)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trees=()
if [ -n "$ref" ] && [ -r "$ref" ]; then
	"$bin/import" -o "$tmp/shipped.tsv" "$ref"
	trees+=(--tree "shipped=$tmp/shipped.tsv")
else
	echo "skip shipped: no ${ref:-reference artifact given} (set REFERENCE_DIR)"
fi
[ -z "$reflearn" ] || trees+=(--tree "ref=$reflearn")
trees+=(--tree "ours=$ours")
if [ -n "$nvmmh" ] && [ -x "$nvmmh" ]; then
	for s in "${sets[@]}"; do
		case $s in *=*) ;; *) echo "compare.sh: --nvmmh needs NAME=PATH sets, got '$s'" >&2; exit 1 ;; esac
		"$nvmmh" -o "$tmp/nvmmh.${s%%=*}.tsv" "${s#*=}" 2>"$tmp/nvmmh.err" ||
			{ cat "$tmp/nvmmh.err" >&2; exit 1; }
		# nvMatmulHeuristics ranks Triton choices only: a set of other
		# candidates (make collect's nvrtc kernels) gets no ranking at all
		if awk -F'\t' 'NR > 1 && $5 != "" { exit 1 }' "$tmp/nvmmh.${s%%=*}.tsv"; then
			echo "skip nvmmh on set '${s%%=*}': it has no Triton choices (type=triton_...), the only ones nvMatmulHeuristics ranks"
			continue
		fi
		trees+=(--ranked "nvmmh:${s%%=*}=$tmp/nvmmh.${s%%=*}.tsv")
	done
elif [ -n "$nvmmh" ]; then
	echo "skip nvmmh: no $nvmmh (NVIDIA's nvMatmulHeuristics not installed: stages/sh/nvmmh-dir.sh)"
fi
"$bin/eval" --ranking "$ranking" -o "$out" --curve "$tmp/curve.tsv" "${trees[@]}" "${sets[@]}" >"$tmp/table"
awk -F'\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	key = $2 "\t" $3
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	hit[$1, key] = $(c["hit_rate"]); rg[$1, key] = $(c["regret_gmean"])
	rm[$1, key] = $(c["regret_max"]); sp[$1, key] = $(c["speedup_gmean"])
	inp[key] = $(c["inputs"]); trees[$1] = 1
}
END {
	two = ("shipped" in trees)
	if ("ref" in trees) {
		printf "%-14s %6s %3s | %-31s | %-26s | %-23s | %-26s\n", "set", "inputs", "k",
		    "hit%  shipped/ref/ours/ours-ref", "regret gm shipped/ref/ours", "regret max s/r/o",
		    "speedup gm s/r/o"
		for (i = 1; i <= n; i++) {
			k = order[i]; split(k, p, "\t")
			if (two)
				s = sprintf("%6.2f %8.4f %7.3f %7.4f", 100*hit["shipped",k], rg["shipped",k],
				    rm["shipped",k], sp["shipped",k])
			else
				s = sprintf("%6s %8s %7s %7s", "-", "-", "-", "-")
			split(s, sh, " ")
			printf "%-14s %6d %3d | %6s %6.2f %6.2f %+7.2f    | %8s %8.4f %8.4f | %7s %7.3f %7.3f | %8s %8.4f %8.4f\n",
			    p[1], inp[k], p[2], sh[1], 100*hit["ref",k], 100*hit["ours",k],
			    100*(hit["ours",k]-hit["ref",k]), sh[2], rg["ref",k], rg["ours",k],
			    sh[3], rm["ref",k], rm["ours",k], sh[4], sp["ref",k], sp["ours",k]
		}
		exit
	}
	printf "%-14s %6s %3s | %-24s | %-24s | %-17s | %-17s\n", "set", "inputs", "k",
	    "hit%  shipped/ours/diff", "regret gm shipped/ours", "regret max s/o", "speedup gm s/o"
	for (i = 1; i <= n; i++) {
		k = order[i]; split(k, p, "\t")
		if (two)
			printf "%-14s %6d %3d | %6.2f %6.2f %+7.2f    | %8.4f %8.4f       | %7.3f %7.3f   | %7.4f %7.4f\n",
			    p[1], inp[k], p[2], 100*hit["shipped",k], 100*hit["ours",k],
			    100*(hit["ours",k]-hit["shipped",k]), rg["shipped",k], rg["ours",k],
			    rm["shipped",k], rm["ours",k], sp["shipped",k], sp["ours",k]
		else
			printf "%-14s %6d %3d | %6s %6.2f %7s    | %8s %8.4f       | %7s %7.3f   | %7s %7.4f\n",
			    p[1], inp[k], p[2], "-", 100*hit["ours",k], "-", "-", rg["ours",k],
			    "-", rm["ours",k], "-", sp["ours",k]
	}
}' "$out"
awk -F'\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$3 == "first" || $3 == "head" || $3 == 1 || $3 == 2 || $3 == 5 || $3 == 10 {
	key = $2 "\t" $1
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	v[key, $3] = sprintf("%6.2f %8.4f", 100 * $(c["hit_rate"]), $(c["regret_gmean"]))
	inp[key] = $(c["inputs"])
}
END {
	print ""
	print "   curve: first = the leaf'"'"'s pick alone, head = the first listed choice alone (no extern_mm added); k = top-k + extern_mm; hit% regret gm"
	printf "%-14s %-8s %6s | %-15s | %-15s | %-15s | %-15s | %-15s | %-15s\n", "set", "tree", "inputs",
	    "first", "head", "k=1", "k=2", "k=5", "k=10"
	for (i = 1; i <= n; i++) {
		split(order[i], p, "\t")
		printf "%-14s %-8s %6d | %s | %s | %s | %s | %s | %s\n", p[1], p[2], inp[order[i]],
		    v[order[i], "first"], v[order[i], "head"], v[order[i], 1], v[order[i], 2], v[order[i], 5], v[order[i], 10]
	}
}' "$tmp/curve.tsv"
