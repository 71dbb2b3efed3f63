#!/bin/bash
# t5110-emit-torch.sh — the emitted Python artifacts in a real torch Inductor
# (TORCH_PYTHON, default python3; CPU torch suffices; skipped without torch):
# check/emit/rank_torch.py lets Inductor's own discovery find the artifact
# (a scratch folder as the artifacts package's path: torch's files are not
# touched), checks its precondition, builds every context with Inductor's
# value types (torch.dtype, bool) and compares the controller's
# get_decisions_ranked(10) with the list.
#   1. check/fixtures/emit/expected.py (dummies on using_tf32 and mat1_dtype,
#      compared through str()): the hand-worked rankings of expected_rank.txt;
#   2. the shipped artifacts gen/_MMRanking{A100,H100,H200}.py: the same
#      lists as under the stand-in (rank_py.py) on 400 synthetic contexts and
#      200 huge ones, each's precondition true for its own device and false
#      for the capability one major below;
#   3. a copy whose file name lacks the leading '_' is not discovered.
. "$(dirname "$0")/lib.sh"
E=$ROOT/check/emit
FE=$FIX/emit
TP=${TORCH_PYTHON:-python3}
RT=("$TP" -W ignore "$E/rank_torch.py")
test_require TORCH emit-torch

cp "$FE/expected.py" "$TMP/_MMRankingTest.py"
if "${RT[@]}" "$TMP/_MMRankingTest.py" MMRankingTest "$FE/contexts.tsv" 166912 8,0 >"$TMP/hand" 2>"$TMP/err"; then
	test_cmp emit-torch-hand "$FE/expected_rank.txt" "$TMP/hand"
else fail emit-torch-hand "$(tail -c 300 "$TMP/err")"; fi

python3 "$E/gen_contexts.py" 400 17 >"$TMP/ctx.tsv"
python3 "$E/gen_contexts.py" 200 18 --huge | sed 1d >>"$TMP/ctx.tsv"
for dev in A100:166912:8,0 H100:232448:9,0 H200:232448:9,0; do
	IFS=: read -r g smem capa <<<"$dev"
	art=$ROOT/gen/_MMRanking$g.py
	stub_python "$E/rank_py.py" "$art" "MMRanking$g" "$TMP/ctx.tsv" >"$TMP/stub.$g"
	if "${RT[@]}" "$art" "MMRanking$g" "$TMP/ctx.tsv" "$smem" "$capa" >"$TMP/torch.$g" 2>"$TMP/err" &&
		[ "$(wc -l <"$TMP/torch.$g")" -eq 600 ]; then
		test_cmp "emit-torch-gen-$g" "$TMP/stub.$g" "$TMP/torch.$g"
	else fail "emit-torch-gen-$g" "$(tail -c 300 "$TMP/err")"; fi
done
cp "$ROOT/gen/_MMRankingH200.py" "$TMP/MMRankingH200.py"
expect_error emit-torch-underscore "discovery found \[\] for 'mm', not \[MMRankingH200\]" "$TMP/none" \
	"${RT[@]}" "$TMP/MMRankingH200.py" MMRankingH200 "$TMP/ctx.tsv" 232448 9,0
finish
