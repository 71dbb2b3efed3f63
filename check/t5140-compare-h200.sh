#!/usr/bin/env bash
# make compare GPU=h200nvrtc (the committed NVRTC collection: nvrtc candidates, no
# shipped PyTorch artifact): it works, where NVIDIA's nvMatmulHeuristics is
# installed too (it ranks Triton choices only: each set says "skip nvmmh on
# set ..." instead of failing), and a failing step is reported by its own
# message, not as "(b) and (d) hold out different inputs".
. check/lib.sh
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" GPU=h200nvrtc OUT="$TMP/out"
	BUILD="$BUILD" PROFILE=reference REFERENCE_DIR="$TMP/ref")
mkdir -p "$TMP/ref"
if ! "${MK[@]}" compare >"$TMP/make.log" 2>&1; then
	fail compare-h200 "$(tail -5 "$TMP/make.log" | tr '\n' '|')"; finish
fi
C=$TMP/out/h200nvrtc/compare.txt
[ "$(grep -c '^== ([abcd])' "$C")" = 4 ] && grep -q "^skip shipped: no $TMP/ref/_MMRankingH200NVRTC.py" "$C" &&
	ok compare-h200 || fail compare-h200 "sections: $(grep '^==' "$C" | cut -c1-12 | tr '\n' '|')"
# nothing stale: a second make compare runs no stage (its parameter stamps
# are asked only when their text changes), and make -n lists none
"${MK[@]}" -n compare >"$TMP/n.log" 2>&1
if grep -qE 'bin/(featurize|fit|prune|import|eval|nvmmh) |stages/(compare|subset)\.sh' "$TMP/n.log"; then
	fail compare-n-lists-nothing-when-up-to-date "$(grep -oE '(bin|stages)/[a-z_.]+ ' "$TMP/n.log" | sort -u | tr '\n' ' ')"
else ok compare-n-lists-nothing-when-up-to-date; fi
# while another setting still refits the comparison's trees
"${MK[@]}" -n compare HOLDOUT=0.3 >"$TMP/n2.log" 2>&1
[ "$(grep -cE 'bin/fit ' "$TMP/n2.log")" = 3 ] && ok compare-n-refits-on-a-new-setting ||
	fail compare-n-refits-on-a-new-setting "$(grep -cE 'bin/fit ' "$TMP/n2.log") fits listed, want 3"
if test_skip_unless NVMMH compare-h200-nvmmh-skipped; then
	n=$(grep -c "^skip nvmmh on set '[a-z]*': it has no Triton choices (type=triton_...), the only ones nvMatmulHeuristics ranks$" "$C")
	[ "$n" = 4 ] && ok compare-h200-nvmmh-skipped || fail compare-h200-nvmmh-skipped "$n skip lines, want 4 (one per section)"
fi
# a damaged shipped artifact: import's message, nothing about the splits
echo 'not python' >"$TMP/ref/_MMRankingH200NVRTC.py"
if "${MK[@]}" compare >"$TMP/make.log" 2>&1; then fail compare-step-message "exit status 0"
elif grep -q 'hold out different inputs' "$TMP/make.log"; then
	fail compare-step-message "misleading: $(grep 'hold out' "$TMP/make.log")"
elif ! grep -q '^import: .*_MMRankingH200NVRTC.py' "$TMP/make.log"; then
	fail compare-step-message "no import message: $(tail -3 "$TMP/make.log" | tr '\n' '|')"
else ok compare-step-message; fi
[ ! -e "$C.part" ] && [ "$(grep -c '^== ([abcd])' "$C")" = 4 ] && ok compare-step-keeps-previous ||
	fail compare-step-keeps-previous "compare.txt.part left, or the previous compare.txt lost"
# GPU=h200, Inductor's ids: compare runs, and with nvMatmulHeuristics
# installed it ranks the Triton choices there (no skip line)
MK2=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" GPU=h200 OUT="$TMP/out"
	BUILD="$BUILD" PROFILE=reference REFERENCE_DIR="$TMP/ref")
if ! "${MK2[@]}" compare >"$TMP/make3.log" 2>&1; then
	fail compare-h200-inductor-ids "$(tail -5 "$TMP/make3.log" | tr '\n' '|')"
elif ! [ "$(grep -c '^== ([abcd])' "$TMP/out/h200/compare.txt")" = 4 ]; then
	fail compare-h200-inductor-ids "sections: $(grep -c '^== ([abcd])' "$TMP/out/h200/compare.txt")"
elif stages/sh/nvmmh-dir.sh >/dev/null 2>&1 && grep -q "^skip nvmmh" "$TMP/out/h200/compare.txt"; then
	fail compare-h200-inductor-ids "nvmmh skipped on Triton choices: $(grep '^skip nvmmh' "$TMP/out/h200/compare.txt" | head -1)"
else ok compare-h200-inductor-ids; fi
# an explicit REFERENCE_DIR that does not exist: refused before anything runs
if "${MK[@]}" compare REFERENCE_DIR="$TMP/no/such/ref" >"$TMP/make4.log" 2>&1; then
	fail compare-reference-dir-missing "exit status 0"
elif ! grep -q "REFERENCE_DIR='$TMP/no/such/ref': no such folder" "$TMP/make4.log"; then
	fail compare-reference-dir-missing "$(tail -2 "$TMP/make4.log" | tr '\n' '|')"
else ok compare-reference-dir-missing; fi
# make eval EVAL_TREE=a missing file: refused naming it, nothing run
if "${MK[@]}" eval EVAL_TREE="$TMP/no-tree.tsv" >"$TMP/make5.log" 2>&1; then
	fail eval-tree-missing "exit status 0"
elif ! grep -q "EVAL_TREE='$TMP/no-tree.tsv': no such file" "$TMP/make5.log"; then
	fail eval-tree-missing "$(tail -2 "$TMP/make5.log" | tr '\n' '|')"
else ok eval-tree-missing; fi
finish
