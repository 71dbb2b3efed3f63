#!/bin/bash
# bench_latency.sh — latency of the generated heuristics (not a test).
# For each tree (the emit fixture, PyTorch's shipped A100/H100 trees imported
# from ../shared/reference when present, out/*/pruned.tsv when present) it
# emits _NAME.c/.py and prints
#   C:      nanoseconds per NAME_rank() call (cc -O2, ranking into a buffer of
#           NAME_MAX_RANKED entries, derived features computed per call)
#   Python: microseconds per get_best_choices() call (context already built,
#           derived features already applied, as in Inductor §7.3)
# over a realistic input mix: the contexts of a real feat TSV (FEAT=..., or
# built from $DATASET_MIRROR/a100_mm.zip with $BIN/featurize), else 5000
# synthetic contexts (check/emit/gen_contexts.py).
# Env: BIN (default build/bin), CC, SECONDS_PER_RUN (default 1).
set -eu
BIN=${BIN:-build/bin}
ROOT=$PWD
E=$ROOT/check/emit
REF=${MMRANK_REFERENCE:-$ROOT/../shared/reference}
MIRROR=${DATASET_MIRROR:-$ROOT/../shared/datasets}
CC=${CC:-cc}
S=${SECONDS_PER_RUN:-1}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

FEAT=${FEAT:-}
if [ -z "$FEAT" ] && [ -f "$MIRROR/a100_mm.zip" ] && [ -x "$BIN/featurize" ]; then
	unzip -q -o -j "$MIRROR/a100_mm.zip" '*/a100_mm.txt' -d "$TMP" &&
		"$BIN/featurize" -o "$TMP/feat.tsv" "$TMP/a100_mm.txt" 2>/dev/null && FEAT=$TMP/feat.tsv
fi
if [ -n "$FEAT" ]; then
	CTX=$FEAT
	echo "contexts: $FEAT (one per input)"
else
	python3 "$E/gen_contexts.py" 5000 1 >"$TMP/ctx.tsv"
	CTX=$TMP/ctx.tsv
	echo "contexts: 5000 synthetic (gen_contexts.py 5000 1)"
fi

trees=("MMRankingTest:$ROOT/check/fixtures/emit/tree.tsv")
for g in A100 H100; do
	if [ -f "$REF/_MMRanking$g.py" ]; then
		python3 "$E/import_artifact.py" "$REF/_MMRanking$g.py" >"$TMP/$g.tsv"
		trees+=("MMRanking$g:$TMP/$g.tsv")
	fi
done
for t in "$ROOT"/out/*/pruned.tsv; do
	[ -f "$t" ] && trees+=("MMRankingOut$(basename "$(dirname "$t")"):$t")
done

printf '%-22s %6s %6s %12s %14s\n' heuristic nodes maxlen "C ns/call" "Python us/call"
for entry in "${trees[@]}"; do
	name=${entry%%:*} tree=${entry#*:}
	D=$TMP/$name
	mkdir -p "$D"
	for f in py h c; do
		"$BIN/emit" --templates "$ROOT/templates" --heuristic-name "$name" --format $f \
			-o "$D/_$name.$f" "$tree"
	done
	$CC -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -I"$D" -DHEUR="$name" \
		-DHEUR_C="\"$D/_$name.c\"" "$E/rank_c.c" -o "$D/rank_c"
	cns=$("$D/rank_c" "$CTX" --bench "$S" 2>/dev/null)
	pus=$(PYTHONPATH="$ROOT/check/stub" python3 "$E/rank_py.py" "$D/_$name.py" "$name" "$CTX" --bench "$S")
	nodes=$(grep -c '^node' "$tree")
	maxlen=$(sed -n "s/^#define ${name}_MAX_RANKED //p" "$D/_$name.h")
	printf '%-22s %6s %6s %12s %14s\n' "$name" "$nodes" "$maxlen" "$cns" "$pus"
done
