#!/usr/bin/env bash
# python/mmrank/inductor.py, no GPU: the handler's
# top-k for known shapes against an independent source — the candidate
# lists from the C candidate rule (stages/gpu/bench/triton_cands.c, checked
# against torch 2.11 by t4150-triton.sh) and the ranking from the C twin of
# the artifact (gen/_MMRankingH200.c through check/handler/topk_c.c) — run
# on the torch stand-in check/stub; addmm keeps both ATen choices,
# bmm is untouched, k=1 and k=int override, k="auto" uses get_top_k (10
# without it), the extra "mm-ah" configs, the unranked rule (keep / drop),
# aten=always/listed, the "auto" default (k=1, or k="auto" at a leaf whose
# top_k is 1, with a truth artifact: the pick alone), the unsafe-leaf fallback; install refuses a wrong GPU and changes
# nothing; MMRANK_INDUCTOR at import.  TORCH prerequisite (a python with
# torch 2.11, TORCH_PYTHON): the
# subclass against the real signatures, and a CPU compile where the handler
# ranks real KernelTemplateChoice objects of torch's own CUDA mm heuristic
# (TORCH_PYTHON=/path/to/python with torch 2.11, e.g. a venv).
# Prerequisites: python3, cc, the library (make check builds it).
. check/lib.sh
CC=${CC:-cc}
LIBA=$(dirname "$BIN")/libmmrank.a
H=check/handler
# the cases build on the H200 artifact without its truth marks (the class
# attribute truth, and get_truth up to the next method), which cases add back
mkdir -p "$TMP/base"
awk '/^    truth = True$/ { next } /^    def get_truth\(/ { cut = 1; next } cut && /^    def / { cut = 0 } !cut' \
	gen/_MMRankingH200.py >"$TMP/base/_MMRankingH200.py"
ART=$TMP/base/_MMRankingH200.py
defs() { grep -c '^    def ' "$1"; }
if [ "$(defs "$ART")" -eq $(($(defs gen/_MMRankingH200.py) - 1)) ] && grep -q '^    def get_top_k(' "$ART" &&
	grep -q '^    def get_pick(' "$ART" && ! grep -Eq '^    (truth = |def get_truth\()' "$ART"; then ok handler-base-artifact-without-truth
else fail handler-base-artifact-without-truth "$(grep -n '^    def \|truth = ' "$ART" | tr '\n' '|')"; fi
test_require PYTHON3 handler-all
if [ ! -f "$LIBA" ]; then skip handler-all "[BUILT] $LIBA missing (make check builds it)"; finish; fi
FLAGS="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1"
case $BIN in */san/bin) FLAGS="$FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" ;; esac
if ! $CC $FLAGS -iquote stages -iquote "$(dirname "$BIN")" -o "$TMP/triton_cands" \
	stages/gpu/bench/triton_cands.c stages/gpu/policy/inductor_cands.c "$LIBA" -ljansson -lm 2>"$TMP/cc.err" ||
   ! $CC $FLAGS -I gen -DHEUR=MMRankingH200 -DHEUR_C="\"$ROOT/gen/_MMRankingH200.c\"" \
	"$H/topk_c.c" -o "$TMP/topk_c" 2>>"$TMP/cc.err"; then
	fail handler-build "$(head -c 400 "$TMP/cc.err")"; finish
fi
ok handler-build

# 0: GPT-2's c_attn addmm; 1: a decode mm (m 16, K 4096); 2: fp32 with TF32
# on, mat2 transposed; 3: Llama's down_proj at prefill
printf 'input\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\n0\t2048\t768\t2304\ttorch.bfloat16\t0\t0\t0\n1\t16\t4096\t4096\ttorch.bfloat16\t0\t0\t0\n2\t512\t1024\t768\ttorch.float32\t1\t0\t1\n3\t2048\t14336\t4096\ttorch.bfloat16\t0\t0\t0\n' >"$TMP/shapes.tsv"
"$TMP/triton_cands" --candidates "$TMP/shapes.tsv" "$TMP/cands.tsv" 2>"$TMP/tc.err" ||
	{ fail handler-cands "$(head -c 300 "$TMP/tc.err")"; finish; }

# expect INPUT K LISTS -> $TMP/want: the C ranking's first K offered ids
# (LISTS: mm, or "mm mm-ah"; extern_mm always offered)
expect() {
	awk -F'\t' -v i="$1" -v l=" $3 " 'NR > 1 && $1 == i && index(l, " " $14 " ") { print $12 }' \
		"$TMP/cands.tsv" | sort -u >"$TMP/offered"
	echo extern_mm >>"$TMP/offered"
	local r
	r=$(awk -F'\t' -v i="$1" 'NR > 1 && $1 == i { print $2, $3, $4, $5, $7, $8, $9, $10, $6; exit }' "$TMP/cands.tsv")
	set -- $r "$2"   # m k n dtype s10 s11 s20 s21 tf32 K
	local c1=0 c2=0
	[ "$5" = "$2" ] && [ "$6" = 1 ] && c1=1
	[ "$7" = "$3" ] && [ "$8" = 1 ] && c2=1
	"$TMP/topk_c" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" $c1 $c2 "$9" "${10}" "$TMP/offered" >"$TMP/want" 2>"$TMP/want.err"
}
# got NAME ENV... -- ARGS: the handler's answer in $TMP/got (triton ids)
run_case() { stub_python "$H/case.py" "$TMP/cands.tsv" "$@" >"$TMP/out" 2>"$TMP/err"; }
# same_top NAME: the handler kept exactly the C top-k (less extern_mm), in
# Inductor's order (the candidate list's)
same_top() {
	grep -v '^extern_mm$' "$TMP/want" | sort >"$TMP/want.t"
	grep '^triton ' "$TMP/out" | cut -d' ' -f2 >"$TMP/got.t"
	local n_c
	n_c=$(wc -l <"$TMP/want.t")
	if [ "$n_c" -eq 0 ] && ! grep -qx extern_mm "$TMP/want"; then fail "$1" "no expected list"; return; fi
	if ! sort "$TMP/got.t" | cmp -s - "$TMP/want.t"; then
		fail "$1" "kept $(tr '\n' ' ' <"$TMP/got.t" | head -c 300) want $(tr '\n' ' ' <"$TMP/want.t" | head -c 300)"; return; fi
	awk 'NR == FNR { pos[$0] = FNR; next } { print pos[$0] }' "$TMP/cand_order" "$TMP/got.t" >"$TMP/pos"
	if ! sort -n "$TMP/pos" | cmp -s - "$TMP/pos"; then fail "$1" "not in Inductor's order"; return; fi
	if grep -q '^bad-extra' "$TMP/out"; then fail "$1" "a kept choice lost the op's kwargs/layout/inputs"; return; fi
	ok "$1"
}
order() { awk -F'\t' -v i="$1" -v l=" $2 " 'NR > 1 && $1 == i && index(l, " " $14 " ") { print $12 }' "$TMP/cands.tsv" >"$TMP/cand_order"; }
stat_is() {   # NAME PYEXPR: evaluated on the stats dict s
	if python3 -c "import json,sys; s=json.loads(sys.argv[1]); sys.exit(0 if ($2) else 1)" \
		"$(sed -n 's/^stats //p' "$TMP/out")"; then ok "$1"; else fail "$1" "stats: $(sed -n 's/^stats //p' "$TMP/out" | head -c 300)"; fi
}

# ---- known shapes -> the C twin's top-k ------------------------------------
order 1 mm; expect 1 5 mm; run_case 1 mm 5 "$ART"
same_top handler-topk-decode-mm-k5
grep -qx 'aten aten::mm' "$TMP/out" && ok handler-decode-keeps-extern-mm || fail handler-decode-keeps-extern-mm "$(head -3 "$TMP/out")"
stat_is handler-decode-stats 's["decisions"] == {"mm": 1, "addmm": 0} and s["k_sum"]["mm"] == 5 and s["offered_triton_sum"]["mm"] == 18'

# k="auto": gen/'s artifact has get_top_k (fit --topk-eps): the leaf's k,
# the C twin's _top_k(); an artifact without it (get_top_k cut off): 10
order 0 mm; expect 0 auto mm; run_case 0 addmm auto "$ART"
same_top handler-topk-addmm-auto
if [ "$(grep '^aten ' "$TMP/out" | tr '\n' ' ')" = "aten aten::bias_addmm " ]; then
	ok handler-addmm-keeps-aten; else fail handler-addmm-keeps-aten "$(grep '^aten' "$TMP/out" | tr '\n' ' ')"; fi
kauto=$(sed -n 's/^topk_c: auto k //p' "$TMP/want.err")
stat_is handler-auto-is-the-c-top-k "s['k_default'] == 0 and s['mean_k'] == ${kauto:-0} and s['decisions']['addmm'] == 1"
mkdir -p "$TMP/nok"
sed '/^    def get_top_k(/,$d' "$ART" >"$TMP/nok/_MMRankingH200.py"
order 0 mm; expect 0 10 mm; run_case 0 addmm auto "$TMP/nok/_MMRankingH200.py"
same_top handler-topk-addmm-auto-without-get-top-k
stat_is handler-auto-without-get-top-k-is-10 's["k_default"] == 1 and s["mean_k"] == 10 and s["decisions"]["addmm"] == 1'

order 2 mm; expect 2 3 mm; MMRANK_STUB_FP32=tf32 run_case 2 mm 3 "$ART"
same_top handler-topk-tf32-transposed-k3
# the decision log carries mat1's and mat2's strides (replay.py matches a
# GEMM's layout by them): input 2's, transposed, from the candidate table
want=$(awk -F'\t' 'NR > 1 && $1 == 2 { printf "[[%s, %s], [%s, %s]]", $7, $8, $9, $10; exit }' "$TMP/cands.tsv")
got=$(sed -n 's/^log-strides //p' "$TMP/out")
[ -n "$want" ] && [ "$got" = "$want" ] && ok handler-log-strides || fail handler-log-strides "logged '$got', want '$want'"
order 3 mm; expect 3 4 mm; run_case 3 mm 4 "$ART"
same_top handler-topk-llama-down-k4

order 0 mm; expect 0 1 mm; run_case 0 mm 1 "$ART"
same_top handler-k1-override
n=$(grep -c '^triton ' "$TMP/out")
if grep -qx extern_mm "$TMP/want"; then want_n=0; else want_n=1; fi
[ "$n" -eq "$want_n" ] && ok handler-k1-one-entry || fail handler-k1-one-entry "$n triton choices kept"

# the extra configs: the ranked pool is max-autotune's list plus mm-ah's
order 0 "mm mm-ah"; expect 0 10 "mm mm-ah"; run_case 0 mm 10 "$ART" --extra
awk '!seen[$0]++' "$TMP/cand_order" >"$TMP/co" && mv "$TMP/co" "$TMP/cand_order"
same_top handler-extra-mm-ah-pool
stat_is handler-extra-stats 's["extra"] and s["offered_triton_sum"]["mm"] > 20'

# get_top_k: the artifact's confidence-sized k wins over 10; an int overrides
{ cat "$ART"; printf '\n    def get_top_k(self, context):\n        return 2\n'; } >"$TMP/_MMRankingH200.py"
order 0 mm; expect 0 2 mm; run_case 0 addmm auto "$TMP/_MMRankingH200.py"
same_top handler-auto-uses-get-top-k
stat_is handler-auto-get-top-k-stats 's["k_default"] == 0 and s["k_sum"]["addmm"] == 2'
expect 0 6 mm; run_case 0 addmm 6 "$TMP/_MMRankingH200.py"
same_top handler-int-k-overrides-get-top-k

# ---- what the tree does not rank ------------------------------------------
run_case 0 addmm 3 "$ART" --others
if grep -qx 'other decompose_k' "$TMP/out" && grep -qx 'other triton::mm_persistent_tma' "$TMP/out"; then
	ok handler-unranked-kept; else fail handler-unranked-kept "$(grep -v '^triton' "$TMP/out" | head -5 | tr '\n' ' ')"; fi
run_case 0 addmm 3 "$ART" --others --unranked drop
if ! grep -q '^other ' "$TMP/out" && [ "$(grep -c '^aten ' "$TMP/out")" -eq 1 ]; then
	ok handler-unranked-dropped; else fail handler-unranked-dropped "$(grep -v '^triton' "$TMP/out" | head -5 | tr '\n' ' ')"; fi
# aten=listed: the ATen choices only where extern_mm is among the k kept;
# at k=1 the C pick (_pick(), the choice trained to run alone) where it is
# offered, else the C top-1, so k=1 with unranked=drop leaves one entry
# alone (an extern_mm entry: addmm's bias_addmm alone, nothing autotuned) ...
picks=0
for i in 0 1 2 3; do
	order "$i" mm; expect "$i" 1 mm; run_case "$i" addmm 1 "$ART" --others --unranked drop --aten listed
	one=$(sed -n 's/^topk_c: pick //p' "$TMP/want.err")
	if [ -n "$one" ] && grep -qxF -- "$one" "$TMP/offered"; then picks=$((picks + 1)); else one=$(head -1 "$TMP/want"); fi
	if [ "$one" = extern_mm ]; then want="aten aten::bias_addmm|"
	else want="triton $one|"; fi
	got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
	[ -n "$one" ] && [ "$got" = "$want" ] && ok "handler-aten-listed-k1-pick-$i" || fail "handler-aten-listed-k1-pick-$i" "got '$got', want '$want'"
done
# (the pick rule, not the head's, decides at least one of the four)
[ "$picks" -ge 1 ] && ok handler-aten-listed-k1-picks-offered || fail handler-aten-listed-k1-picks-offered "no input offers its pick"
stat_is handler-plain-addmm-dropped 's["plain_addmm_dropped"] == {"mm": 0, "addmm": 1}'
stat_is handler-aten-listed-stats 's["aten"] == "listed" and s["decisions"]["addmm"] == 1 and s["single_choice"]["addmm"] == 1'
run_case 1 mm 1 "$ART" --others --unranked drop --aten listed
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ "$got" = "aten aten::mm|" ] && ok handler-aten-listed-mm-extern-alone || fail handler-aten-listed-mm-extern-alone "got '$got'"
stat_is handler-aten-listed-single-stat 's["single_choice"] == {"mm": 1, "addmm": 0}'
# ... and a list headed by a Triton config (the tree's own choices, input
# 1's first offered one put first): that config alone; with aten=always
# (the default) the ATen choices stay beside it
order 1 mm
tid=$(while read -r c; do grep -q "'$c'" "$ART" && { echo "$c"; break; }; done <"$TMP/cand_order")
mkdir -p "$TMP/tri"
{ cat "$ART"; printf '\n    def get_best_choices(self, context):\n        return [(1.0, self.choices.index("%s"))]\n' "$tid"; } >"$TMP/tri/_MMRankingH200.py"
# the pick wins over the head: input 1's pick in gen/'s tree is extern_mm
# (checked first), so the Triton head is not kept
expect 1 1 mm
if [ "$(sed -n 's/^topk_c: pick //p' "$TMP/want.err")" = extern_mm ]; then
	run_case 1 addmm 1 "$TMP/tri/_MMRankingH200.py" --others --unranked drop --aten listed
	got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
	[ "$got" = "aten aten::bias_addmm|" ] && ok handler-aten-listed-pick-over-head ||
		fail handler-aten-listed-pick-over-head "got '$got'"
	stat_is handler-aten-listed-picked-stat 's["picked"] == {"mm": 0, "addmm": 1}'
else
	fail handler-aten-listed-pick-over-head "gen/_MMRankingH200's pick for input 1 is no longer extern_mm: choose another input"
fi
# a Triton pick: that config alone
mkdir -p "$TMP/trp"
{ cat "$TMP/tri/_MMRankingH200.py"; printf '\n    def get_pick(self, context):\n        return "%s"\n' "$tid"; } >"$TMP/trp/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/trp/_MMRankingH200.py" --others --unranked drop --aten listed
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ -n "$tid" ] && [ "$got" = "triton $tid|" ] && ok handler-aten-listed-triton-pick || fail handler-aten-listed-triton-pick "got '$got', want 'triton $tid|'"
stat_is handler-aten-listed-triton-single 's["single_choice"] == {"mm": 0, "addmm": 1}'
# a pick that is not offered: the head stands in
mkdir -p "$TMP/tpx"
{ cat "$TMP/tri/_MMRankingH200.py"; printf '\n    def get_pick(self, context):\n        return "type=triton_BLOCK-M=999_BLOCK-K=16_BLOCK-N=16_numstages=1_numwarps=1"\n'; } >"$TMP/tpx/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/tpx/_MMRankingH200.py" --others --unranked drop --aten listed
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ -n "$tid" ] && [ "$got" = "triton $tid|" ] && ok handler-aten-listed-pick-not-offered-head || fail handler-aten-listed-pick-not-offered-head "got '$got', want 'triton $tid|'"
stat_is handler-aten-listed-pick-not-offered-stat 's["picked"] == {"mm": 0, "addmm": 0}'
# k > 1: the ATen choices come back when extern_mm is among the first k
# (second or third of a list T1, extern_mm, T2 / T1, T2, extern_mm), not
# when it is later
t2=$(while read -r c; do [ "$c" != "$tid" ] && grep -q "'$c'" "$ART" && { echo "$c"; break; }; done <"$TMP/cand_order")
mkdir -p "$TMP/tet" "$TMP/tte"
{ cat "$ART"; printf '\n    def get_best_choices(self, context):\n        return [(1.0, self.choices.index("%s")), (0.9, self.choices.index("extern_mm")), (0.8, self.choices.index("%s"))]\n' "$tid" "$t2"; } >"$TMP/tet/_MMRankingH200.py"
{ cat "$ART"; printf '\n    def get_best_choices(self, context):\n        return [(1.0, self.choices.index("%s")), (0.9, self.choices.index("%s")), (0.8, self.choices.index("extern_mm"))]\n' "$tid" "$t2"; } >"$TMP/tte/_MMRankingH200.py"
kinds() { grep -E '^(triton|aten|other) ' "$TMP/out" | cut -d' ' -f1 | sort | uniq -c | awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $2, $1 }'; }
run_case 1 addmm 2 "$TMP/tet/_MMRankingH200.py" --unranked drop --aten listed
[ "$(kinds)" = "aten=1 triton=1" ] && ok handler-aten-listed-k2-extern-second || fail handler-aten-listed-k2-extern-second "$(kinds)"
run_case 1 addmm 2 "$TMP/tte/_MMRankingH200.py" --unranked drop --aten listed
[ "$(kinds)" = "triton=2" ] && ok handler-aten-listed-k2-extern-third || fail handler-aten-listed-k2-extern-third "$(kinds)"
run_case 1 addmm 3 "$TMP/tte/_MMRankingH200.py" --unranked drop --aten listed
[ "$(kinds)" = "aten=1 triton=2" ] && ok handler-aten-listed-k3-extern-third || fail handler-aten-listed-k3-extern-third "$(kinds)"
run_case 1 addmm 1 "$TMP/tri/_MMRankingH200.py" --others --unranked drop
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ "$got" = "aten aten::bias_addmm|triton $tid|" ] && ok handler-aten-always-keeps-aten ||
	fail handler-aten-always-keeps-aten "got '$got'"
# aten and unranked "auto" (the defaults): at k=1 a context whose leaf the
# truth set (class attribute truth = True and get_truth(context) True:
# prune --truth) runs the pick alone, the unranked templates dropped; at
# k=2, at a leaf get_truth does not mark, or without truth, the ATen
# choices and the unranked templates stay; an explicit word wins
mkdir -p "$TMP/trt" "$TMP/trf" "$TMP/trg"
{ cat "$TMP/trp/_MMRankingH200.py"; printf '
    truth = True

    def get_truth(self, context):
        return True
'; } >"$TMP/trt/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/trt/_MMRankingH200.py" --others
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ -n "$tid" ] && [ "$got" = "triton $tid|" ] && ok handler-auto-truth-k1-pick-alone || fail handler-auto-truth-k1-pick-alone "got '$got', want 'triton $tid|'"
stat_is handler-auto-truth-k1-resolved 's["aten"] == "auto" and s["unranked"] == "auto" and s["alone"]["addmm"] == 1 and s["single_choice"]["addmm"] == 1'
# a leaf get_truth does not mark (False, or not True), and an artifact with
# truth = True but no get_truth: the hedge
{ cat "$TMP/trp/_MMRankingH200.py"; printf '
    truth = True

    def get_truth(self, context):
        return 1
'; } >"$TMP/trf/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/trf/_MMRankingH200.py" --others
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
case $got in "aten aten::bias_addmm|triton $tid|other "*) ok handler-auto-truth-unmarked-leaf-hedge ;; *) fail handler-auto-truth-unmarked-leaf-hedge "got '$got'" ;; esac
stat_is handler-auto-truth-unmarked-leaf-resolved 's["alone"]["addmm"] == 0 and s["single_choice"]["addmm"] == 0'
{ cat "$TMP/trp/_MMRankingH200.py"; printf '
    truth = True
'; } >"$TMP/trg/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/trg/_MMRankingH200.py" --others
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
case $got in "aten aten::bias_addmm|triton $tid|other "*) ok handler-auto-truth-without-get-truth-hedge ;; *) fail handler-auto-truth-without-get-truth-hedge "got '$got'" ;; esac
run_case 1 addmm 1 "$TMP/trp/_MMRankingH200.py" --others
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
case $got in "aten aten::bias_addmm|triton $tid|other "*) ok handler-auto-no-truth-k1-hedge ;; *) fail handler-auto-no-truth-k1-hedge "got '$got'" ;; esac
stat_is handler-auto-no-truth-k1-resolved 's["aten"] == "auto" and s["unranked"] == "auto" and s["alone"]["addmm"] == 0'
run_case 1 addmm 2 "$TMP/trt/_MMRankingH200.py" --others
stat_is handler-auto-truth-k2-keeps 's["alone"]["addmm"] == 0 and s["single_choice"]["addmm"] == 0'
grep -qx 'aten aten::bias_addmm' "$TMP/out" && grep -q '^other ' "$TMP/out" && ok handler-auto-truth-k2-keeps-aten || fail handler-auto-truth-k2-keeps-aten "$(tr '\n' '|' <"$TMP/out" | head -c 300)"
# k="auto" is the leaf's get_top_k: where that is 1 at a marked leaf, the
# pick alone as at k=1; where it is 2, the hedge; borrowed, the hedge
mkdir -p "$TMP/tk1" "$TMP/tk2"
{ cat "$TMP/trt/_MMRankingH200.py"; printf '\n    def get_top_k(self, context):\n        return 1\n'; } >"$TMP/tk1/_MMRankingH200.py"
{ cat "$TMP/trt/_MMRankingH200.py"; printf '\n    def get_top_k(self, context):\n        return 2\n'; } >"$TMP/tk2/_MMRankingH200.py"
run_case 1 addmm auto "$TMP/tk1/_MMRankingH200.py" --others
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ -n "$tid" ] && [ "$got" = "triton $tid|" ] && ok handler-auto-k-top1-truth-pick-alone || fail handler-auto-k-top1-truth-pick-alone "got '$got', want 'triton $tid|'"
stat_is handler-auto-k-top1-truth-stats 's["k"] == "auto" and s["alone"]["addmm"] == 1 and s["single_choice"]["addmm"] == 1 and s["k_sum"]["addmm"] == 1'
run_case 1 addmm auto "$TMP/tk2/_MMRankingH200.py" --others
stat_is handler-auto-k-top2-truth-hedge 's["alone"]["addmm"] == 0 and s["single_choice"]["addmm"] == 0 and s["k_sum"]["addmm"] == 2'
run_case 1 addmm auto "$TMP/tk1/_MMRankingH200.py" --others --borrowed
stat_is handler-auto-k-top1-borrowed-hedge 's["alone"]["addmm"] == 0 and s["single_choice"]["addmm"] == 0'
# ... and gen/'s own H200 artifact (truth-marked since the H200 truth): input 1,
# a decode mm of the truth's shapes, at k="auto" is its C twin's pick alone
expect 1 1 mm
gp=$(sed -n 's/^topk_c: pick //p' "$TMP/want.err")
case $gp in extern_mm) want_line="aten aten::mm|" ;; *) want_line="triton $gp|" ;; esac
run_case 1 mm auto gen/_MMRankingH200.py --others
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
[ -n "$gp" ] && [ "$got" = "$want_line" ] && grep -q '"alone": {"addmm": 0, "mm": 1}' "$TMP/out" &&
	ok handler-auto-k-gen-h200-pick-alone || fail handler-auto-k-gen-h200-pick-alone "got '$got', want '$want_line'"
# a borrowed artifact (one of another GPU of this precondition): its truth
# marks are off, so k=1 keeps the hedge where the marked leaf ran the pick alone
run_case 1 addmm 1 "$TMP/trt/_MMRankingH200.py" --others --borrowed
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '
' '|')
case $got in "aten aten::bias_addmm|triton $tid|other "*) ok handler-borrowed-marks-off ;; *) fail handler-borrowed-marks-off "got '$got'" ;; esac
stat_is handler-borrowed-marks-off-stats 's["alone"]["addmm"] == 0 and s["single_choice"]["addmm"] == 0 and s["borrowed"] == "borrowed"'
run_case 1 addmm 1 "$TMP/trt/_MMRankingH200.py" --others --aten always --unranked keep
got=$(grep -E '^(triton|aten|other) ' "$TMP/out" | tr '\n' '|')
case $got in "aten aten::bias_addmm|triton $tid|other "*) ok handler-auto-explicit-wins ;; *) fail handler-auto-explicit-wins "got '$got'" ;; esac
# "alone" counts only GEMMs run as the pick alone: not where an explicit word
# kept the ATen hedge, not where the call fell back to Inductor's list
run_case 1 addmm 1 "$TMP/trt/_MMRankingH200.py" --others --aten always
stat_is handler-auto-alone-not-counted-with-hedge 's["alone"]["addmm"] == 0 and s["decisions"]["addmm"] == 1'
mkdir -p "$TMP/tre"
{ cat "$TMP/trt/_MMRankingH200.py"; printf '
    def get_best_choices(self, context):
        return []

    def get_pick(self, context):
        return None
'; } >"$TMP/tre/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/tre/_MMRankingH200.py" --others
stat_is handler-auto-alone-not-counted-on-fallback 's["alone"]["addmm"] == 0 and s["fallbacks"] == {"no ranked id offered": 1}'
# an artifact's SystemExit in a decision is a fallback too (Inductor's list)
mkdir -p "$TMP/trs"
{ cat "$TMP/trp/_MMRankingH200.py"; printf '
    truth = True

    def get_truth(self, context):
        raise SystemExit(3)
'; } >"$TMP/trs/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/trs/_MMRankingH200.py" --others
grep -qx same "$TMP/out" && stat_is handler-artifact-systemexit-falls-back 's["fallbacks"] == {"error SystemExit: 3": 1} and s["decisions"]["addmm"] == 0' ||
	fail handler-artifact-systemexit-falls-back "$(tail -3 "$TMP/out" | tr '\n' '|')"
# get_truth is the class's: an instance attribute cannot stand in for it
mkdir -p "$TMP/tri2"
{ cat "$TMP/trf/_MMRankingH200.py"; printf '
    def __init__(self):
        super().__init__()
        self.get_truth = lambda context: True
'; } >"$TMP/tri2/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/tri2/_MMRankingH200.py" --others
stat_is handler-auto-truth-instance-attr-inert 's["alone"]["addmm"] == 0 and s["single_choice"]["addmm"] == 0'
# truth is read from the class dict, never run: a property that raises, or an
# instance attribute, changes nothing (the hedge)
mkdir -p "$TMP/trx"
{ cat "$TMP/trp/_MMRankingH200.py"; printf '\n    @property\n    def truth(self):\n        raise ValueError("boom")\n'; } >"$TMP/trx/_MMRankingH200.py"
run_case 1 addmm 1 "$TMP/trx/_MMRankingH200.py" --others
stat_is handler-auto-truth-property-inert 's["alone"]["addmm"] == 0 and s["decisions"]["addmm"] == 1'
run_case 0 bmm 3 "$ART"
grep -qx same "$TMP/out" && ok handler-bmm-untouched || fail handler-bmm-untouched "$(head -5 "$TMP/out" | tr '\n' ' ')"
mkdir -p "$TMP/unsafe"
{ cat "$ART"; printf '\n    def get_best_choices(self, context):\n        return None\n'; } >"$TMP/unsafe/_MMRankingH200.py"
run_case 0 mm 3 "$TMP/unsafe/_MMRankingH200.py"
if grep -qx same "$TMP/out"; then stat_is handler-unsafe-leaf-falls-back 's["fallbacks"] == {"unsafe leaf": 1} and s["decisions"]["mm"] == 0'
else fail handler-unsafe-leaf-falls-back "list changed"; fi
run_case 0 mm 3 "$TMP/unsafe/_MMRankingH200.py" --extra
grep -qx same "$TMP/out" && ok handler-unsafe-leaf-extra-untouched || fail handler-unsafe-leaf-extra-untouched "the fallback list is not Inductor's"

# ---- install / refuse / uninstall / environment ---------------------------
ic() { stub_python "$H/install_case.py" "$@" >"$TMP/ic" 2>"$TMP/ic.err"; }
MMRANK_STUB_GPU="NVIDIA H200" ic "$ART" 3
if grep -qx 'installed k=3 artifact=MMRankingH200' "$TMP/ic" && grep -qx 'config-makes-ours True' "$TMP/ic" &&
   [ "$(grep '^state' "$TMP/ic" | tr '\n' '|')" = "state handler=MMRankChoices config=set|state handler=InductorChoices config=unset|" ] &&
   grep -qx 'uninstall-again False' "$TMP/ic"; then ok handler-install-uninstall
else fail handler-install-uninstall "$(tr '\n' '|' <"$TMP/ic" | head -c 300)"; fi
# the FX graph cache's view of the handler: artifact, its contents, k
key3=$(sed -n 's/^key //p' "$TMP/ic")
MMRANK_STUB_GPU="NVIDIA H200" ic "$ART" auto
keya=$(sed -n 's/^key //p' "$TMP/ic")
sha=$(sha256sum "$ART" | cut -c1-16)
if [ "$key3" = "mmrank:r2:MMRankingH200:$sha:3:0:auto:auto:mm,addmm" ] && [ "$keya" = "mmrank:r2:MMRankingH200:$sha:auto:0:auto:auto:mm,addmm" ]; then
	ok handler-cache-key; else fail handler-cache-key "'$key3' / '$keya'"; fi
refused() {   # NAME PATTERN: refused with PATTERN and nothing changed
	if grep -Eq "^refused: .*$2" "$TMP/ic" && grep -qx 'state handler=InductorChoices config=unset' "$TMP/ic" &&
	   ! grep -q '^installed' "$TMP/ic"; then ok "$1"; else fail "$1" "$(tr '\n' '|' <"$TMP/ic" | head -c 300)"; fi
}
MMRANK_STUB_GPU="NVIDIA A100-SXM4-80GB" MMRANK_STUB_CAPA=8.0 MMRANK_STUB_SMEM=166912 ic "$ART" auto
refused handler-refuses-a100 "not trained for this GPU \(NVIDIA A100.*check_precondition refuses it"
# an artifact of another GPU of this precondition is borrowed: installed,
# with a warning naming both GPUs, in its stats and its cache key;
# force=True keeps its marks (not borrowed)
borrowed_ok() {   # NAME PATTERN: installed as borrowed, warned with PATTERN
	if grep -qx 'installed k=auto artifact=[A-Za-z0-9]*' "$TMP/ic" && grep -q '^borrowed .*: borrowed (same precondition), its truth marks off' "$TMP/ic" &&
	   grep -Eq "UserWarning: mmrank.inductor: .*$2" "$TMP/ic.err" && grep -q '^key .*:borrowed$' "$TMP/ic"; then ok "$1"
	else fail "$1" "$(cat "$TMP/ic" "$TMP/ic.err" | tr '\n' '|' | head -c 300)"; fi
}
MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3" ic "$ART" auto
borrowed_ok handler-borrowed-h100-name "MMRankingH200 was trained on an H200, not on this GPU \(NVIDIA H100"
MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3" ic "$ART" auto --force
if grep -qx 'installed k=auto artifact=MMRankingH200' "$TMP/ic" && grep -qx 'borrowed None' "$TMP/ic" &&
   grep -qx "key mmrank:r2:MMRankingH200:$sha:auto:0:auto:auto:mm,addmm" "$TMP/ic" && ! grep -q Warning "$TMP/ic.err"; then
	ok handler-force-h100; else fail handler-force-h100 "$(cat "$TMP/ic" "$TMP/ic.err" | tr '\n' '|' | head -c 300)"; fi
MMRANK_STUB_GPU="" ic "$ART" auto
refused handler-refuses-no-cuda "no CUDA device"
ic "$ART" 0
if grep -q "^value-error: .*k=0" "$TMP/ic" && grep -qx 'state handler=InductorChoices config=unset' "$TMP/ic"; then
	ok handler-bad-k; else fail handler-bad-k "$(head -2 "$TMP/ic")"; fi
# a bad aten is refused before anything else (even without a GPU), naming it
MMRANK_STUB_GPU="" ic "$ART" 1 --aten Listed
if grep -qx "value-error: mmrank.inductor: aten='Listed': 'auto' or 'always' or 'listed'" "$TMP/ic" &&
   grep -qx 'state handler=InductorChoices config=unset' "$TMP/ic"; then
	ok handler-bad-aten; else fail handler-bad-aten "$(head -2 "$TMP/ic")"; fi
MMRANK_STUB_GPU="NVIDIA H200" ic "$ART" 1 --aten listed
[ "$(sed -n 's/^key //p' "$TMP/ic")" = "mmrank:r2:MMRankingH200:$sha:1:0:auto:listed:mm,addmm" ] && ok handler-cache-key-aten ||
	fail handler-cache-key-aten "$(sed -n 's/^key //p' "$TMP/ic")"
# the cache key names the words as given ("auto" resolves per GEMM, from
# the artifact, whose content hash the key holds)
MMRANK_STUB_GPU="NVIDIA H200" ic "$TMP/trt/_MMRankingH200.py" 1
tsha=$(sha256sum "$TMP/trt/_MMRankingH200.py" | cut -c1-16)
[ "$(sed -n 's/^key //p' "$TMP/ic")" = "mmrank:r2:MMRankingH200:$tsha:1:0:auto:auto:mm,addmm" ] && ok handler-cache-key-auto-words ||
	fail handler-cache-key-auto-words "$(sed -n 's/^key //p' "$TMP/ic")"
MMRANK_INDUCTOR=1 MMRANK_ARTIFACT=$TMP/trt/_MMRankingH200.py ic --import-only
grep -qx 'import installed=True k=1 aten=auto' "$TMP/ic" && ok handler-env-auto-truth-installs || fail handler-env-auto-truth-installs "$(head -2 "$TMP/ic")"
MMRANK_INDUCTOR=3 MMRANK_ARTIFACT=$ART ic --import-only
grep -qx 'import installed=True k=3 aten=auto' "$TMP/ic" && ok handler-env-installs || fail handler-env-installs "$(head -2 "$TMP/ic")"
MMRANK_INDUCTOR=1 MMRANK_INDUCTOR_ATEN=listed MMRANK_ARTIFACT=$ART ic --import-only
grep -qx 'import installed=True k=1 aten=listed' "$TMP/ic" && ok handler-env-aten-listed || fail handler-env-aten-listed "$(head -2 "$TMP/ic")"
MMRANK_INDUCTOR=1 MMRANK_INDUCTOR_ATEN=Listed MMRANK_ARTIFACT=$ART ic --import-only
if grep -qx 'import installed=False' "$TMP/ic" && grep -q "not installed: MMRANK_INDUCTOR_ATEN='Listed': expected auto or always or listed" "$TMP/ic.err"; then
	ok handler-env-aten-refused; else fail handler-env-aten-refused "$(cat "$TMP/ic" "$TMP/ic.err" | head -3 | tr '\n' '|')"; fi
MMRANK_INDUCTOR=auto MMRANK_ARTIFACT=$ART MMRANK_STUB_CAPA=8.0 ic --import-only
if grep -qx 'import installed=False' "$TMP/ic" && grep -q 'not installed: .*check_precondition' "$TMP/ic.err"; then
	ok handler-env-refuses-quietly; else fail handler-env-refuses-quietly "$(cat "$TMP/ic" "$TMP/ic.err" | head -3 | tr '\n' '|')"; fi

# ---- the GPU an artifact carries (emit --gpu; mmrank.artifact.trained_for) --
# A tree of gen/_MMRankingH200.py (import) emitted as class Foo with the GPU
# data of h200 (datasets/GPUS.tsv): HEURISTIC_NAME=Foo keeps the GPU check
# (an H100 of the same precondition borrows it, an H200 takes it); without
# GPU data a class name with a GPU (PyTorch's shipped artifacts, an older
# emit) falls back to its tag, one without a GPU is checked by its
# precondition only, as before; GPU data that break the rules are refused;
# in a folder the artifact is found by its GPU data, not its file name.
GD=$TMP/gpudata
mkdir -p "$GD/foo" "$GD/nogpu" "$GD/dir"
if "$BIN/import" -o "$GD/tree.tsv" "$ART" 2>"$GD/err" &&
	"$BIN/emit" --heuristic-name Foo --gpu-facts datasets/GPUS.tsv --gpu h200 --out-dir "$GD/foo" "$GD/tree.tsv" 2>>"$GD/err" &&
	"$BIN/emit" --heuristic-name Foo --out-dir "$GD/nogpu" "$GD/tree.tsv" 2>>"$GD/err"; then
	MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3" ic "$GD/foo/_Foo.py" auto
	borrowed_ok handler-gpu-data-any-name "Foo was trained on an H200, not on this GPU \(NVIDIA H100.*; its GPU data: h200 of datasets/GPUS.tsv"
	MMRANK_STUB_GPU="NVIDIA H200" ic "$GD/foo/_Foo.py" auto
	grep -qx 'installed k=auto artifact=Foo' "$TMP/ic" && ok handler-gpu-data-match || fail handler-gpu-data-match "$(head -2 "$TMP/ic" | tr '\n' '|')"
	MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3" ic "$GD/nogpu/_Foo.py" auto
	grep -qx 'installed k=auto artifact=Foo' "$TMP/ic" && ok handler-gpu-none-precondition-only ||
		fail handler-gpu-none-precondition-only "$(head -2 "$TMP/ic" | tr '\n' '|')"
	MMRANK_STUB_GPU="NVIDIA H200" stub_python -m mmrank.inductor --artifact "$GD/nogpu/_Foo.py" >"$GD/m.out" 2>&1
	grep -q 'trained on an unnamed GPU, from no GPU data and no GPU in its class name: only its precondition is checked' "$GD/m.out" &&
		ok handler-gpu-none-said || fail handler-gpu-none-said "$(grep artifact "$GD/m.out")"
else
	fail handler-gpu-data-any-name "$(head -c 300 "$GD/err")"
fi
sed '/^    gpu = /d' "$ART" >"$GD/_MMRankingH200.py"
MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3" ic "$GD/_MMRankingH200.py" auto
borrowed_ok handler-gpu-tag-fallback "trained on an H200, not on this GPU \(NVIDIA H100.*; its class name: the artifact carries no GPU data"
sed 's/"device_name": "H200"/"device_name": "h200"/' "$ART" >"$GD/bad.py"
MMRANK_STUB_GPU="NVIDIA H200" ic "$GD/bad.py" auto
refused handler-gpu-data-bad "MMRankingH200: its GPU data \(the class attribute gpu\) is not"
sed 's/MMRankingH200/MMRankingOne/g; s/"device_name": "H200"/"device_name": "H100"/' "$ART" >"$GD/dir/_MMRankingOne.py"
sed 's/MMRankingH200/MMRankingTwo/g' "$ART" >"$GD/dir/_MMRankingTwo.py"
got=$(python3 -c 'import sys; from mmrank import artifact as a
print(*(a.find(sys.argv[1], n).rsplit("/", 1)[1] for n in ("NVIDIA H200", "NVIDIA H100 80GB HBM3")))' "$GD/dir" 2>&1)
[ "$got" = "_MMRankingTwo.py _MMRankingOne.py" ] && ok handler-gpu-data-find || fail handler-gpu-data-find "$got"
# trained_for: the pattern starts at a word of the device name
got=$(python3 -c 'from mmrank.artifact import trained_for as t
print(*(int(t(p, n)) for p, n in (("H100", "NVIDIA H100 80GB HBM3"), ("H200", "NVIDIA H200"),
      ("A100", "NVIDIA A100-SXM4-80GB"), ("RTX4090", "NVIDIA GeForce RTX 4090"),
      ("H200", "NVIDIA GH200 480GB"), ("100", "NVIDIA H100"), ("H100", "NVIDIA H200"), ("", "NVIDIA H100"),
      ("H20", "NVIDIA H200"), ("A10", "NVIDIA A100-SXM4-80GB"), ("L4", "NVIDIA L40S"), ("H100-SXM", "NVIDIA H100 SXM5"),
      ("A100-SXM4", "NVIDIA A100-SXM4-40GB"), ("L4", "NVIDIA L4"))))' 2>&1)
[ "$got" = "1 1 1 1 0 0 0 0 0 0 0 0 1 1" ] && ok handler-trained-for-word || fail handler-trained-for-word "$got"
# GPU data that literal_eval cannot take, or that cannot be printed: Refused
# naming the file and line (find falls back to the file's tag), never a crash
got=$(python3 -c 'import sys; from mmrank import artifact as a
for line in (b"    gpu = {[1]: 2}\n", b"    gpu = {\"a\", (1, [2])}\n", b"    gpu = {\"name\": 0x" + b"f" * 4000 + b"}\n"):
    try:
        a.gpu_in(b"x = 1\n" + line, "f.py")
        print("read")
    except a.Refused as e:
        print(str(e)[:37])' 2>&1 | tr '\n' '|')
[ "$got" = "f.py:2: its GPU data (the class attri|f.py:2: its GPU data (the class attri|f.py:2: its GPU data (the class attri|" ] &&
	ok handler-gpu-data-unreadable-refused || fail handler-gpu-data-unreadable-refused "$got"
# no artifact trained on the GPU: the first, in name order, of its
# precondition is borrowed (One's H100 data for a GH200); none of it in a
# folder of two: refused; the only one is found (install checks it)
sed 's/MMRankingH200/MMRankingZed/g; s/"device_name": "H200"/"device_name": "A100"/; s/"capability": (9, 0)/"capability": (8, 0)/' \
	"$ART" >"$GD/dir/_MMRankingZed.py"
got=$(python3 -c 'import sys; from mmrank import artifact as a
for facts in (((9, 0), 232448), ((8, 0), 232448), ((8, 0), 166912)):
    try:
        print(a.find(sys.argv[1], "NVIDIA GH200 480GB", facts=facts).rsplit("/", 1)[1])
    except a.Refused as e:
        print("refused", str(e).split(" in /")[0])
print(a.find(sys.argv[1] + "/_MMRankingZed.py", "NVIDIA GH200 480GB", facts=((9, 0), 232448)).rsplit("/", 1)[1])' "$GD/dir" 2>&1 | tr '\n' '|')
[ "$got" = "_MMRankingOne.py|_MMRankingZed.py|refused no artifact for NVIDIA GH200 480GB|_MMRankingZed.py|" ] &&
	ok handler-borrowed-find || fail handler-borrowed-find "$got"

# ---- TORCH: the real torch 2.11 (CPU) --------------------------------------
test_require TORCH handler-torch
TP=$TORCH_PYTHON
if ! "$TP" -c 'import torch, sys; sys.exit(0 if torch.__version__.startswith("2.11") else 1)' 2>/dev/null; then
	skip handler-torch "[TORCH] $TP's torch is not 2.11"
	finish
fi
mkdir -p "$TMP/ind"
TORCHINDUCTOR_CACHE_DIR=$TMP/ind timeout 600 "$TP" "$H/torch_case.py" "$ART" 4 2048 768 2304 >"$TMP/tc" 2>"$TMP/tc.err"
grep -qx 'sig ok' "$TMP/tc" && ok handler-torch-signatures || fail handler-torch-signatures "$(grep '^sig' "$TMP/tc" || tail -c 300 "$TMP/tc.err")"
order 0 mm; expect 0 4 mm
for op in mm addmm; do
	awk -v o="$op" '$1 == "offered" && $2 == o { print $3 }' "$TMP/tc" >"$TMP/off.$op"
	if cmp -s "$TMP/off.$op" "$TMP/cand_order"; then ok "handler-torch-offered-$op"; else
		fail "handler-torch-offered-$op" "torch's ids differ from the C rule's: $(diff "$TMP/cand_order" "$TMP/off.$op" | head -3 | tr '\n' '|')"; fi
	awk -v o="$op" '$1 == "kept" && $2 == o { print "triton", $3 }' "$TMP/tc" >"$TMP/out"
	same_top "handler-torch-topk-$op"
done
if [ "$(awk '$1 == "aten" { printf "%s:%s ", $2, $3 }' "$TMP/tc")" = "addmm:aten::bias_addmm mm:aten::mm " ]; then
	ok handler-torch-aten-kept; else fail handler-torch-aten-kept "$(grep '^aten' "$TMP/tc" | tr '\n' ' ')"; fi
finish
