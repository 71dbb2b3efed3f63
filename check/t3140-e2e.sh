#!/usr/bin/env bash
# End to end on the official H100 data (spec §5, §6): make heuristic GPU=h100
# into a scratch OUT, then check the artifacts, quality against the
# reference trainer's recorded counts, a known input's ranking, and that
# Make redoes only what is stale.
. check/lib.sh
test_require DATASET e2e
MIRROR=$DATASET_DIR
BUILD=${BIN%/bin}
MK=(make --no-print-directory GPU=h100 OUT="$TMP/out" BUILD="$BUILD" DATASET_MIRROR="$MIRROR")
O=$TMP/out/h100
if ! "${MK[@]}" heuristic >"$TMP/make1.log" 2>&1; then
	fail e2e-make "$(tail -5 "$TMP/make1.log" | tr '\n' '|')"; finish
fi
ok e2e-make
for f in _MMRankingH100.py _MMRankingH100.c _MMRankingH100.h MMRankingH100.dot metrics.tsv; do
	[ -s "$O/$f" ] || fail e2e-artifacts "missing $f"
done
ok e2e-artifacts

# Emitted code: C99 clean, Python compiles.
cc -std=c99 -Wall -Wextra -Werror -pedantic -c "$O/_MMRankingH100.c" -I "$O" -o "$TMP/h.o" 2>"$TMP/cc.log" &&
	ok e2e-c99 || fail e2e-c99 "$(head -3 "$TMP/cc.log")"
python3 -m py_compile "$O/_MMRankingH100.py" && ok e2e-py-compile || fail e2e-py-compile "py_compile"

# Quality: the reference trainer's top_k_correct (k=10) on the two extra sets
# is train_timm 892/913, train_hf 292/294 (same inputs as ours: no split).
# val/test sets differ from the reference's (different permutation; by
# default we select by 5-fold cross-validation, set 'cv'), so we require a
# rate: reference val 67/68 = 98.5 %; ours (cv or val) must be >= 95 %.
col() { awk -F'\t' -v s="$1" -v c="$2" 'NR==1{for(i=1;i<=NF;i++) h[$i]=i} $1==s && $5==1 {print $h[c]}' "$O/metrics.tsv"; }
[ "$(col train_timm total)" = 913 ] && [ "$(col train_timm top_k_correct)" -ge 892 ] &&
	ok e2e-train-timm-vs-reference || fail e2e-train-timm-vs-reference "$(col train_timm top_k_correct)/$(col train_timm total) < 892/913"
[ "$(col train_hf total)" = 294 ] && [ "$(col train_hf top_k_correct)" -ge 292 ] &&
	ok e2e-train-hf-vs-reference || fail e2e-train-hf-vs-reference "$(col train_hf top_k_correct)/$(col train_hf total) < 292/294"
vs=val; grep -q '^cv' "$O/metrics.tsv" && vs=cv
v=$(col $vs top_k_correct) t=$(col $vs total)
[ $((100 * v)) -ge $((95 * t)) ] && ok e2e-val-rate || fail e2e-val-rate "$vs $v/$t < 95 %"

# A known input: the first of h100_mm.txt, 1152x10112x2048 bf16 row-major.
# By hand from its 30 choices x 3 runs (medians): the winner is
# M64/K64/N128 s3 w4 (0.09792 ms), then extern_mm (0.10333 ms).  It must
# be in our top-10, and extern_mm is always autotuned besides.
printf 'm\tk\tn\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\tmat1_dtype\tmat2_dtype\tmat1_iscontig\tmat2_iscontig\tusing_tf32\n1152\t10112\t2048\t10112\t1\t2048\t1\ttorch.bfloat16\ttorch.bfloat16\tTrue\tTrue\tnot_float_32\n' > "$TMP/ctx.tsv"
cc -std=c99 -O1 -D_POSIX_C_SOURCE=200809L -I "$O" -DHEUR=MMRankingH100 \
	-DHEUR_C="\"$O/_MMRankingH100.c\"" check/emit/rank_c.c -o "$TMP/rank" 2>"$TMP/cc2.log" ||
	fail e2e-known-input "rank_c build: $(head -2 "$TMP/cc2.log")"
ranking=$("$TMP/rank" "$TMP/ctx.tsv" | cut -f2)
top10=$(tr ',' '\n' <<<"$ranking" | head -10 | cut -d: -f1)
winner='type=triton_BLOCK-M=64_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4'
widx=$(grep -n "self.choices.append('$winner')" "$O/_MMRankingH100.py" | head -1 | cut -d: -f1)
first=$(grep -n "self.choices.append(" "$O/_MMRankingH100.py" | head -1 | cut -d: -f1)
widx=$((widx - first))
if grep -qx "$widx" <<<"$top10"; then ok e2e-known-input-winner-in-top10; else
	fail e2e-known-input-winner-in-top10 "winner index $widx not in [$(echo $top10)]"; fi
# Regression guard (expect-test): the exact top-10 of this input.  Update
# check/fixtures/e2e/h100_known_top10.txt deliberately when the learner changes.
# (LEAF_RANK=head-q0, datasets/PROFILES.tsv: the coverage order's
# first ten, extern_mm, index 0, not among them; under joint,
# extern_mm was its leaf's first entry, then these first nine.  LEAF_FILL=all:
# their indices among 267 classes instead of 204.  TRUTH, the h100 profile's
# in-graph truth, prune --truth: this prefill leaf's gpt2 and llama-3-8b
# GEMMs run extern_mm fastest in the graph, so extern_mm, index 0, heads it
# and the coverage order's first nine follow.)
echo "$top10" | tr '\n' ' ' | sed 's/ $/\n/' > "$TMP/top10.txt"
test_cmp e2e-known-input-top10 "$FIX/e2e/h100_known_top10.txt" "$TMP/top10.txt"

# Incremental: a second run redoes nothing; a new RANKING refits, prunes and
# emits but does not featurize again.
"${MK[@]}" heuristic >"$TMP/make2.log" 2>&1
if grep -qE '^  (FETCH|UNZIP|FEAT|FIT|PRUNE|EMIT)' "$TMP/make2.log"; then
	fail e2e-nothing-stale "$(grep -E '^  [A-Z]' "$TMP/make2.log" | tr '\n' '|')"
else ok e2e-nothing-stale; fi
"${MK[@]}" heuristic RANKING=9 >"$TMP/make3.log" 2>&1
if grep -q '^  FIT' "$TMP/make3.log" && grep -q '^  PRUNE' "$TMP/make3.log" &&
   grep -q '^  EMIT' "$TMP/make3.log" && ! grep -q '^  FEAT' "$TMP/make3.log"; then
	ok e2e-ranking-change-refits-only
else fail e2e-ranking-change-refits-only "$(grep -E '^  [A-Z]' "$TMP/make3.log" | tr '\n' '|')"; fi
# A failing fit setting changes nothing in OUT (no output deleted, not even
# the fit.params stamp); the unchanged setting then refits nothing, a changed
# one (an option given twice: other text) refits.
snap() { (cd "$O" && find . -type f -printf '%p %s %T@\n' | sort && sha256sum $(find . -type f | sort)); }
snap >"$TMP/before"
if "${MK[@]}" heuristic RANKING=9 FIT_EXTRA=--bogus >"$TMP/make4.log" 2>&1; then fail e2e-bad-fit-setting "exit status 0"
elif ! grep -q "unknown option '--bogus'" "$TMP/make4.log"; then fail e2e-bad-fit-setting "$(tail -3 "$TMP/make4.log" | tr '\n' '|')"
elif snap | cmp -s - "$TMP/before"; then ok e2e-bad-fit-setting-changes-nothing
else fail e2e-bad-fit-setting-changes-nothing "$(snap | diff "$TMP/before" - | head -6 | tr '\n' '|')"; fi
"${MK[@]}" heuristic RANKING=9 >"$TMP/make5.log" 2>&1
if grep -qE '^  (FEAT|FIT|PRUNE|EMIT)' "$TMP/make5.log"; then
	fail e2e-same-fit-setting-no-refit "$(grep -E '^  [A-Z]' "$TMP/make5.log" | tr '\n' '|')"
else ok e2e-same-fit-setting-no-refit; fi
"${MK[@]}" heuristic RANKING=9 FIT_EXTRA="--seed $("${MK[@]}" -s fit-args | sed 's/.*--seed \([0-9]*\).*/\1/')" >"$TMP/make6.log" 2>&1
if grep -q '^  FIT' "$TMP/make6.log" && grep -q -- '--seed' "$O/fit.params" && ! grep -q bogus "$O/fit.params"; then
	ok e2e-changed-fit-setting-refits
else fail e2e-changed-fit-setting-refits "$(grep -E '^  [A-Z]' "$TMP/make6.log" | tr '\n' '|')"; fi
finish
