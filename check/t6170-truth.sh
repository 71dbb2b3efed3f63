#!/usr/bin/env bash
# In-graph truth (perf/models/truth.py and its parts), no GPU:
# mmrank.force's forcing handler (python/mmrank/force.py) on the torch stand-in
# check/stub (a known call gets a known forced choice, by rank and by
# id map, in the documented candidate order; every fallback flagged; bmm
# pinned to ATen); perf/models/truth_trace.py's kernel-to-GEMM mapping and
# replay alignment on synthetic profiler traces (check/truth/eager.json,
# replay.json: known kernels sum to known per-GEMM times; renamed, missing,
# extra and mismatched kernels flagged); truth_model.py's prediction on
# check/truth/truth.jsonl; truth_log.py's AutoHeuristic log of it, which
# featurize takes with the known winners; a truth record's wrong-typed
# field named by file:line and field (truth_log.py, clocks.py; a little
# fuzzing); truth.py's argument checks and truth.sh's driver with a stand-in
# interpreter (check/truth/fake_python.sh): MODELS checked and looked up
# like run.sh's, nothing globbed; an interrupt stops the run (exit 130).
# The package comes from PYTHONPATH (check/lib.sh: python/); the case scripts
# get perf/models and check/handler there too (models_python, force_python).
# Prerequisites: python3; featurize built (make check builds it).  TORCH
# (TORCH_PYTHON, torch 2.11 with transformers): the handler in a real CPU
# compile (the forced ATen choice is the one the generated code calls; a
# probe forces a real triton::mm choice object of torch's CUDA heuristic),
# and a CPU dry run of truth.py on a tiny GPT-2 (variants, resume,
# --time-limit, mixed variants and their prediction, the log).
. check/lib.sh
test_require PYTHON3 truth-all
T=check/truth
M=perf/models
TA="type=triton_BLOCK-M=64_BLOCK-K=32_BLOCK-N=64_numstages=3_numwarps=4"
TB="type=triton_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=8"
TC="type=triton_BLOCK-M=32_BLOCK-K=128_BLOCK-N=64_numstages=5_numwarps=4"
TMA="triton::mm_persistent_tma|BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=8"
KEY="mm 2048x768x2304 torch.bfloat16 768,1 2304,1"
models_python() { PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 "$@"; }
force_python() { PYTHONPATH="$ROOT/check/handler:$PYTHONPATH" stub_python "$@"; }

# ---- the forcing handler on the stub -------------------------------------------
# one GEMM's triton::mm configs in Inductor's order, TA twice (one id, one entry)
{
	printf 'input\tm\tk\tn\tdtype\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\tlist\tbm\tbn\tbk\tstages\twarps\n'
	for c in "64 64 32 3 4" "128 128 64 3 8" "64 64 32 3 4" "32 64 128 5 4"; do
		printf '0\t2048\t768\t2304\ttorch.bfloat16\t768\t1\t2304\t1\tmm\t%s\n' "$(echo "$c" | tr ' ' '\t')"
	done
} >"$TMP/cands.tsv"
fc() { force_python "$T/force_case.py" "$TMP/cands.tsv" 0 "$@" >"$TMP/fc" 2>"$TMP/fc.err"; }
# decision NAME PYEXPR: PYEXPR holds for the decision d, the returned ids r
decision() {
	if python3 - "$TMP/fc" "$2" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
r = [x.split(" ", 1)[1] for x in lines if x.startswith("returned ")]
d = json.loads(next(x[4:] for x in lines if x.startswith("log ")))
p = json.loads(next(x[7:] for x in lines if x.startswith("pinned ")))
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
	then ok "$1"; else fail "$1" "$(head -c 600 "$TMP/fc" "$TMP/fc.err" | tr '\n' '|')"; fi
}
fc mm --rank 0
decision truth-force-rank0-extern "r == ['extern_mm'] and d['forced'] == 'extern_mm' and d['rank'] == 0 and d['fallback'] is None and d['offered'] == ['extern_mm', '$TA', '$TB', '$TC'] and d['key'] == '$KEY' and d['kind'] == 'aten'"
fc mm --rank 2
decision truth-force-rank-triton "r == ['$TB'] and d['forced'] == '$TB' and d['kind'] == 'template' and d['fallback'] is None"
fc addmm --rank 1
decision truth-force-addmm-aten-order "r == ['extern_addmm'] and d['offered'][:2] == ['extern_bias_addmm', 'extern_addmm'] and d['rank'] == 1 and d['key'].startswith('addmm 2048x768x2304 ')"
fc addmm --rank 9
decision truth-force-rank-fallback-flagged "r == ['extern_bias_addmm'] and d['fallback'] == 'rank 9 >= 5 candidates' and d['rank'] == 0"
fc addmm --rank 6 --others
decision truth-force-other-templates "r == ['$TMA'] and d['offered'][5:] == ['decompose_k|k_split=4', '$TMA'] and d['kind'] == 'template'"
fc addmm --rank 5 --others
decision truth-force-subgraph-kind "r == ['decompose_k|k_split=4'] and d['kind'] == 'subgraph'"
printf '{"%s": "%s"}\n' "$KEY" "$TC" >"$TMP/map.json"
fc mm --map "$TMP/map.json"
decision truth-force-map "r == ['$TC'] and d['forced'] == '$TC' and d['fallback'] is None and d['rank'] == 3"
printf '{"%s": "type=triton_BLOCK-M=1_BLOCK-K=1_BLOCK-N=1_numstages=1_numwarps=1"}\n' "$KEY" >"$TMP/map2.json"
fc mm --map "$TMP/map2.json"
decision truth-force-map-not-offered "r == ['extern_mm'] and d['fallback'].startswith('id not offered: type=triton_BLOCK-M=1_')"
printf '{"mm 1x2x3 torch.bfloat16 2,1 3,1": "extern_mm"}\n' >"$TMP/map3.json"
fc mm --map "$TMP/map3.json"
decision truth-force-map-missing-key "r == ['extern_mm'] and d['fallback'] == 'key not in the map'"
fc mm --map "$TMP/map3.json" --rank 1
decision truth-force-map-default-rank "r == ['$TA'] and d['fallback'] is None"
# the handler never asks for a choice's code: Inductor generates it after the
# output layout is fixed (a choice that fails then is dropped by Inductor)
fc mm --rank 1 --fail "$TA"
decision truth-force-no-choice-falls-back "r == ['$TA'] and d['fallback'] is None and 'error' not in d"
fc mm --rank 1 --flexible
decision truth-force-flexible-layout "r == ['$TA'] and d['kind'] == 'template' and 'error' not in d"
fc addmm --rank 2 --flexible
decision truth-force-flexible-layout-addmm "r == ['$TA'] and d['rank'] == 2 and 'error' not in d"
fc mm --rank 0
decision truth-force-log-features "[f[0] for f in d['features']] == ['m', 'k', 'n', 'mat1_dtype', 'mat2_dtype', 'mat1_stride_0', 'mat1_stride_1', 'mat2_stride_0', 'mat2_stride_1', 'mat1_iscontig', 'mat2_iscontig', 'using_tf32'] and d['features'][3] == ['mat1_dtype', 'torch.bfloat16', True] and d['strides'] == [[768, 1], [2304, 1]]"
fc bmm --rank 3
decision truth-force-bmm-pinned "r == ['extern_bmm'] and d is None and p == [{'op': 'bmm', 'kept': 'extern_bmm', 'offered': 5}]"
fc bmm --rank 3 --pin none
decision truth-force-bmm-unpinned "len(r) == 5 and p == []"
expect_error truth-force-bad-map-key "GEMM key 'mm 2x3': expected 'OP MxKxN DTYPE S10,S11 S20,S21'" "$TMP/none" \
	stub_python -c 'from mmrank import force as mf; mf.ForceChoices().configure(id_map={"mm 2x3": "extern_mm"})'
if stub_python - >"$TMP/ins" 2>&1 <<'EOF'
from torch._inductor import config
from torch._inductor.virtualized import V
from mmrank import force as mf
h = mf.ForceChoices()
mf.install(h, "rank:3")
assert V.choices is h and config.inductor_choices_class() is h, "not installed"
assert config.inductor_choices_class.args == ("mmrank-force:rank:3",)
assert mf.uninstall() and not h.active and type(V.choices).__name__ == "InductorChoices"
assert config.inductor_choices_class is None and not mf.uninstall()
EOF
then ok truth-force-install; else fail truth-force-install "$(tail -c 300 "$TMP/ins")"; fi

# ---- kernel-to-GEMM mapping and alignment on synthetic traces --------------------
tc() { models_python "$T/trace_case.py" "$@" >"$TMP/tc.json" 2>"$TMP/tc.err"; }
# analysis NAME PYEXPR: PYEXPR holds for the analysis a, its slots s, flags f
analysis() {
	if python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); s = a["slots"]; f = " | ".join(a["flags"]); sys.exit(0 if eval(sys.argv[2]) else 1)' \
		"$TMP/tc.json" "$2" 2>>"$TMP/tc.err"; then ok "$1"; else fail "$1" "$(head -c 700 "$TMP/tc.json" "$TMP/tc.err" | tr '\n' '|')"; fi
}
tc base
# slot 0: nvjet 30+r and splitKreduce 3 under aten::addmm -> 33, 34, 35; slot 1: the
# template (its source: 2048x3072x768, the forced config) 40+r; slot 2: 60 + 7 (the
# second kernel linked by External id only); slot 3: a GEMM no decision has
analysis truth-map-known-times "a['status'] == 'ok' and a['split'] == 'graph-launch' and a['activities_per_replay'] == 7 and a['gemm_ms'] == 0.142 and a['busy_ms'] == 0.149 and [x['us'] for x in s] == [34.0, 41.0, 67.0, 2.0] and (s[0]['p10_us'], s[0]['p90_us']) == (33.2, 34.8)"
analysis truth-map-aten-two-kernels "[k['name'] for k in s[0]['kernels']] == ['nvjet_tst_128x16_h_bz_TNT', 'cublasLt::splitKreduce_kernel'] and [k['median_us'] for k in s[0]['kernels']] == [31.0, 3.0] and s[0]['key'] == 'addmm 2048x768x2304 torch.bfloat16 768,1 2304,1' and s[0]['forced'] == 'extern_bias_addmm'"
analysis truth-map-template-source "s[1]['kind'] == 'template' and s[1]['key'] == 'addmm 2048x3072x768 torch.bfloat16 3072,1 768,1' and s[1]['config'] == '$TB' and s[1]['check'] is None and s[1]['fused'] == ['mul']"
analysis truth-map-external-id-link "[k['name'] for k in s[2]['kernels']] == ['nvjet_tst_256x128_h_bz_TNN', 'nvjet_tst_epilogue'] and s[2]['key'].startswith('mm 2048x768x50257 ')"
analysis truth-map-foreign-gemm "s[3].get('foreign') and s[3]['key'] is None and 'slot 3 (aten::mm 8x8x8): no forced decision' in f"
tc renamed
analysis truth-map-renamed-flagged "a['status'] == 'ok' and s[0]['flags'] == ['renamed'] and s[0]['us'] == 34.0 and s[0]['kernels'][0]['name'] == 'nvjet_tst_64x8_capture' and s[0]['kernels'][0]['eager_name'] == 'nvjet_tst_128x16_h_bz_TNT' and \"names differ: replace eager[0:1] ['nvjet_tst_128x16_h_bz_TNT'] -> replay[0:1] ['nvjet_tst_64x8_capture']\" in f"
tc nongemm
analysis truth-map-name-mismatch-flagged "a['gemm_ms'] == 0.142 and all(x['flags'] == [] for x in s) and \"names differ: replace eager[2:3] ['triton_poi_fused_gelu_0'] -> replay[2:3] ['triton_poi_fused_gelu_other']\" in f"
tc count
analysis truth-map-split-by-count "a['split'] == 'count' and a['gemm_ms'] == 0.142 and [x['us'] for x in s] == [34.0, 41.0, 67.0, 2.0]"
tc missing
analysis truth-map-missing-kernel "a['status'] == 'partial' and s[0]['status'] == 'partial' and s[0]['flags'] == ['missing'] and s[0]['us'] == 31.0"
tc extra
analysis truth-map-extra-kernel "a['status'] == 'ok' and s[0]['flags'] == ['extra'] and s[0]['us'] == 34.5 and a['activities_per_replay'] == 8"
tc subgraph
analysis truth-map-subgraph-unclaimed "a['status'] == 'partial' and 'mm 16x8192x64 torch.bfloat16 8192,1 64,1: 1 decisions, 0 slots (forced decompose_k|k_split=4: a subgraph choice)' in f"
tc wrongkind
analysis truth-map-forced-mismatch "a['status'] == 'partial' and s[1]['check'] == 'forced extern_addmm but a template kernel ran'"
tc nofile
analysis truth-map-template-source-in-output-code "a['status'] == 'ok' and s[1]['kind'] == 'template' and s[1]['key'] == 'addmm 2048x3072x768 torch.bfloat16 3072,1 768,1' and s[1]['config'] == '$TB' and [x['us'] for x in s] == [34.0, 41.0, 67.0, 2.0]"
tc twofiles
analysis truth-map-template-source-ambiguous "a['status'] == 'partial' and s[1]['key'] is None and 'triton_tem_fused_addmm_mul_1: 2 different kernels of this name in the output code' in f"
tc base 4
analysis truth-map-split-fails "a['status'] == 'failed' and 'replays: 21 activities do not split into 4 replays' in f"

# ---- the prediction model ----------------------------------------------------------
if models_python "$T/model_case.py" >"$TMP/mc" 2>&1 && grep -qx ok "$TMP/mc"; then ok truth-model-predict
else fail truth-model-predict "$(tail -c 400 "$TMP/mc")"; fi

# ---- the AutoHeuristic log ------------------------------------------------------------
if python3 "$M/truth_log.py" "$TMP/log.txt" "$T/truth.jsonl" --summary "$TMP/sum.md" --json "$TMP/sum.json" 2>"$TMP/tl.err"; then
	cat >"$TMP/want" <<EOF
{"shared_memory": 232448, "device_capa": [9, 0], "name": "mm", "numerical_features": ["m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"], "categorical_features": ["mat1_dtype", "mat2_dtype", "mat1_iscontig", "mat2_iscontig", "using_tf32"]}
m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback
2048,768,2304,torch.bfloat16,torch.bfloat16,768,1,2304,1,True,True,not_float_32,extern_mm,0.05
2048,768,2304,torch.bfloat16,torch.bfloat16,768,1,2304,1,True,True,not_float_32,$TA,0.04
2048,768,2304,torch.bfloat16,torch.bfloat16,768,1,2304,1,True,True,not_float_32,$TB,0.045
2048,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32,extern_mm,0.1
2048,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32,$TA,0.09
2048,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32,$TC,0.12
16,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32,extern_mm,0.03
16,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32,$TA,0.02
EOF
	test_cmp truth-log-rows "$TMP/want" "$TMP/log.txt"
	miss=
	for want in "| addmm 2048x768x2304 torch.bfloat16 768,1 2304,1 | 1 | 4/4 | $TA | 0.0400 | 0.0500 | 3 | 1.2500 | same |" \
		"| mm 2048x768x50257 torch.bfloat16 768,1 1,768 | 1 | 3/3 | $TA | 0.0900 | 0.1000 | 2 | 1.1111 | same |" \
		"| mm 16x768x50257 torch.bfloat16 768,1 1,768 | 1 | 2/2 | $TA | 0.0200 | 0.0300 | 2 | 1.5000 | same |" \
		"| mix:best | 0.3700 | pattern | 0.3720 | 1.0054 | 0.9920 |" \
		"## gpt2 prefill (layers 1, batch 4, seq 512, cuda): 6 variants, 5 usable"; do
		grep -qF -- "$want" "$TMP/sum.md" || miss="$miss [$want]"
	done
	[ -z "$miss" ] && ok truth-log-summary || fail truth-log-summary "missing:$miss"
else
	fail truth-log-rows "$(head -c 300 "$TMP/tl.err")"
fi
if test_have_bins truth-log-featurize featurize; then
	if "$BIN/featurize" -o "$TMP/log.feat.tsv" "$TMP/log.txt" 2>"$TMP/fz.err" &&
		[ "$(awk -F'\t' 'NR == 2 { for (i = 1; i <= NF; i++) col[$i] = i } NR > 2 && $col["winner"] == 1 { print $col["input"], $col["choice"] }' "$TMP/log.feat.tsv" | tr '\n' '|')" = "0 $TA|1 $TA|2 $TA|" ]; then
		ok truth-log-featurize-winners
	else fail truth-log-featurize-winners "$(head -c 300 "$TMP/fz.err") $(cut -f1,24- "$TMP/log.feat.tsv" 2>/dev/null | head -c 500)"; fi
fi
# --epilogue attribute: K1's ATen choice carries what its template's fusion saves:
# the line through non-GEMM 0.250, 0.250 (no K1 template), 0.240, 0.240, 0.242
# (mix:best): 0.0093333 ms; K2 fuses nothing
if python3 "$M/truth_log.py" "$TMP/loge.txt" "$T/truth.jsonl" --epilogue attribute 2>/dev/null &&
	grep -qx "2048,768,2304,torch.bfloat16,torch.bfloat16,768,1,2304,1,True,True,not_float_32,extern_mm,0.059333333" "$TMP/loge.txt" &&
	grep -qx "2048,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32,extern_mm,0.1" "$TMP/loge.txt"; then
	ok truth-log-epilogue-attribute; else fail truth-log-epilogue-attribute "$(grep extern "$TMP/loge.txt" | head -3 | tr '\n' '|')"; fi
python3 "$M/truth_log.py" "$TMP/logo.txt" "$T/truth.jsonl" --ops mm 2>/dev/null
[ "$(grep -c ',extern_mm,' "$TMP/logo.txt" 2>/dev/null)" = 2 ] && ok truth-log-ops || fail truth-log-ops "$(head -c 300 "$TMP/logo.txt")"
{ head -1 "$T/truth.jsonl"; echo '{"model": '; } >"$TMP/bad.jsonl"
expect_error truth-log-bad-line "bad.jsonl:2: not JSON" "$TMP/bad.txt" python3 "$M/truth_log.py" "$TMP/bad.txt" "$TMP/bad.jsonl"
sed '3s/"shared_memory": 232448/"shared_memory": 166912/' "$T/truth.jsonl" >"$TMP/two.jsonl"
expect_error truth-log-two-gpus "two.jsonl:3: shared_memory/capability \(166912, \(9, 0\)\) differ from .*two.jsonl:1's" "$TMP/two.txt" \
	python3 "$M/truth_log.py" "$TMP/two.txt" "$TMP/two.jsonl"
sed 's/"capability": \[9, 0\], "shared_memory": 232448/"capability": null, "shared_memory": null/' "$T/truth.jsonl" >"$TMP/cpu.jsonl"
expect_error truth-log-no-device "cpu.jsonl:1: no shared_memory/capability \(a --device cpu dry run\?\)" "$TMP/cpu.txt" \
	python3 "$M/truth_log.py" "$TMP/cpu.txt" "$TMP/cpu.jsonl"

# every field truth_log.py, truth_model.py and clocks.py read is checked
# (records.truth_error): a wrong type is named by file:line and field
tbad() {   # NAME PATTERN SED-EXPRESSION (on line 1 of check/truth/truth.jsonl)
	sed "1$3" "$T/truth.jsonl" >"$TMP/tb.jsonl"
	expect_error "$1" "tb\.jsonl:1: field $2" "$TMP/tb.txt" python3 "$M/truth_log.py" "$TMP/tb.txt" "$TMP/tb.jsonl"
}
tbad truth-log-capability-int "'capability': 5 is not a list of 2" 's/"capability": \[9, 0\]/"capability": 5/'
tbad truth-log-shared-memory-string "'shared_memory': '232448' is not a whole number" 's/"shared_memory": 232448/"shared_memory": "232448"/'
tbad truth-log-decisions-object "'decisions': \{\"a\": 1\} is not a list" 's/"decisions": \[{"call": 0/"decisions": {"a": 1}, "x": [{"call": 0/'
tbad truth-log-analysis-list "'analysis': \[1\] is not an object" 's/"analysis": {"status": "ok", "flags": \[\], "slots": \[/"analysis": [1], "x": {"slots": [/'
tbad truth-log-feature-comma "'decisions\[0\]\.features\[0\]\[1\]': '2048,1' is not a feature value" 's/\["m", "2048", false\]/["m", "2048,1", false]/'
tbad truth-log-forced-newline "'analysis\.slots\[0\]\.forced': 'extern_bias_addmm\\\\nx' is not a choice id" 's/"forced": "extern_bias_addmm", "ordinal"/"forced": "extern_bias_addmm\\nx", "ordinal"/'
tbad truth-log-slot-key "'analysis\.slots\[0\]\.key': 'addmm 2048' is not a GEMM key" 's/"key": "addmm 2048x768x2304 torch.bfloat16 768,1 2304,1", "forced": "extern_bias_addmm", "ordinal"/"key": "addmm 2048", "forced": "extern_bias_addmm", "ordinal"/'
tbad truth-log-slot-us-string "'analysis\.slots\[0\]\.us': '50' is not a number" 's/"status": "ok", "flags": \[\], "us": 50,/"status": "ok", "flags": [], "us": "50",/'
tbad truth-log-step-zero "'step_ms': 0 is not a number > 0" 's/"step_ms": 0.4,/"step_ms": 0,/'
tbad truth-log-variant "'variant': 'rank:x' is not a variant" 's/"variant": "rank:0"/"variant": "rank:x"/'
# physical bounds (records.py): a whole number of 400 digits, a float near
# the largest, a time below 1 ns (the log writes ms to 1e-9), sizes past 2**62
BIG=$(printf '1%0400d' 0)
tbad truth-log-bigint-step "'step_ms': 1000.*\(401 characters\) is not a number > 0" "s/\"step_ms\": 0.4,/\"step_ms\": $BIG,/"
tbad truth-log-us-huge "'analysis\.slots\[0\]\.us': 1e\+308 is not a number > 0 \(a time in \[1e-06, 1e9\]\)" 's/"status": "ok", "flags": \[\], "us": 50,/"status": "ok", "flags": [], "us": 1e308,/'
tbad truth-log-us-bigint "'analysis\.slots\[0\]\.us': 1000.* is not a number > 0" "s/\"status\": \"ok\", \"flags\": \[\], \"us\": 50,/\"status\": \"ok\", \"flags\": [], \"us\": $BIG,/"
tbad truth-log-us-below-1ns "'analysis\.slots\[0\]\.us': 1e-07 is not a number > 0 \(a time in \[1e-06, 1e9\]\)" 's/"status": "ok", "flags": \[\], "us": 50,/"status": "ok", "flags": [], "us": 1e-7,/'
tbad truth-log-nongemm-extreme "'nongemm_ms': -1\.7e\+308 is not a number in \[-1e9, 1e9\]" 's/"nongemm_ms": 0.25,/"nongemm_ms": -1.7e308,/'
tbad truth-log-slot-m-bigint "'analysis\.slots\[0\]\.m': 1000.* is not a whole number in \[0, 2\*\*62\]" "s/\"slot\": 0, \"kind\": \"aten\", \"op\": \"addmm\", \"m\": 2048,/\"slot\": 0, \"kind\": \"aten\", \"op\": \"addmm\", \"m\": $BIG,/"
# what featurize refuses is refused at the record (mmrank.rules: the log
# reader's rules), never written to a log that exits 0: choice ids emit
# cannot write, mm's features each once with values the reader takes, a
# feature that contradicts the key, a line that is not UTF-8
tbad truth-log-choice-quote "'decisions\[0\]\.offered\[2\]': 'type=triton_\"x' is not a choice id: contains a quote" 's/"type=triton_BLOCK-M=64_BLOCK-K=32_BLOCK-N=64_numstages=3_numwarps=4", "type=triton_BLOCK-M=128/"type=triton_\\"x", "type=triton_BLOCK-M=128/'
tbad truth-log-choice-nonascii "'decisions\[0\]\.offered\[0\]': 'extern_b.+' is not a choice id: contains a character outside printable ASCII" 's/"offered": \["extern_bias_addmm"/"offered": ["extern_b\\u00e9"/'
tbad truth-log-feature-quote "'decisions\[0\]\.features\[3\]': feature 'mat1_dtype': unknown dtype" 's/\["mat1_dtype", "torch.bfloat16", true\]/["mat1_dtype", "torch.\\"bf16", true]/'
tbad truth-log-feature-nul "'decisions\[0\]\.features\[3\]': feature 'mat1_dtype': contains white space or a control character" 's/\["mat1_dtype", "torch.bfloat16", true\]/["mat1_dtype", "torch.bf\\u000016", true]/'
tbad truth-log-feature-zero-width "'decisions\[0\]\.features\[3\]': feature 'mat1_dtype': unknown dtype" 's/\["mat1_dtype", "torch.bfloat16", true\]/["mat1_dtype", "torch.bfloat16\\u200b", true]/'
tbad truth-log-feature-not-number "'decisions\[0\]\.features\[0\]': feature 'm': not a whole number >= 0 within a 64-bit integer" 's/\["m", "2048", false\]/["m", "abc", false]/'
tbad truth-log-feature-400-digits "'decisions\[0\]\.features\[0\]': feature 'm': not a whole number >= 0 within a 64-bit integer" "s/\[\"m\", \"2048\", false\]/[\"m\", \"$BIG\", false]/"
tbad truth-log-feature-twice "'decisions\[0\]\.features\[1\]': feature 'm' named twice" 's/\["k", "768", false\]/["m", "2048", false]/'
tbad truth-log-feature-feedback "'decisions\[0\]\.features\[11\]': 'feedback' is not one of mm's categorical features" 's/\["using_tf32", "not_float_32", true\]\], "offered": \["extern_bias/["feedback", "x", true]], "offered": ["extern_bias/'
tbad truth-log-feature-not-mm "'decisions\[0\]\.features\[0\]': 'x' is not one of mm's numerical features" 's/\["m", "2048", false\]/["x", "2048", false]/'
tbad truth-log-feature-vs-key "'decisions\[0\]\.features\[0\]': feature 'm' '7' differs from the key's 2048" 's/\["m", "2048", false\]/["m", "7", false]/'
tbad truth-log-decision-m-vs-key "'decisions\[0\]\.m': 1 differs from the key's 2048" 's/"call": 0, "op": "addmm", "m": 2048,/"call": 0, "op": "addmm", "m": 1,/'
sed '1s/"forced": "extern_bias_addmm", "rank"/"forced": "extern_bias_addmm\xff", "rank"/' "$T/truth.jsonl" >"$TMP/tb.jsonl"
expect_error truth-log-bad-utf8 "tb\.jsonl:1: not JSON \('utf-8' codec can't decode byte 0xff" "$TMP/tb.txt" python3 "$M/truth_log.py" "$TMP/tb.txt" "$TMP/tb.jsonl"
# a text of a table cell: a control character is refused at the record, a
# '|' escaped in the summary
tbad truth-log-device-newline "'device': 'cuda\\\\n# x' is not a text of at most 200 printable characters" 's/"device": "cuda"/"device": "cuda\\n# x"/'
sed 's/"method": "pattern"/"method": "pat|tern"/' "$T/truth.jsonl" >"$TMP/pipe.jsonl"
if python3 "$M/truth_log.py" "$TMP/pipe.txt" "$TMP/pipe.jsonl" --summary "$TMP/pipe.md" 2>/dev/null &&
	grep -qF '| mix:best | 0.3700 | pat\|tern | 0.3720 |' "$TMP/pipe.md"; then ok truth-log-cell-pipe
else fail truth-log-cell-pipe "$(grep mix: "$TMP/pipe.md" | head -2)"; fi
# a profiler trace of the wrong shape is a TraceError naming the event
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 - >"$TMP/tt.out" 2>&1 <<'EOF'
import truth_trace as tt
ev = {"ph": "X", "cat": "kernel", "name": "k", "ts": 1.0, "dur": 2.0, "args": {"correlation": 1}}
cases = [(dict(ev, args=[1]), "traceEvents[0].args: not an object"),
         (dict(ev, args="x"), "traceEvents[0].args: not an object"),
         (dict(ev, args={"correlation": [1]}), "traceEvents[0].args.correlation: not a number or string"),
         (dict(ev, dur=float("nan")), "traceEvents[0]: ts or dur is not a finite number")]
for e, want in cases:
    try:
        tt.load({"traceEvents": [e]})
        print("no error:", e)
    except tt.TraceError as x:
        if str(x) != "trace: " + want:
            print("got", x)
print("done")
EOF
[ "$(cat "$TMP/tt.out")" = done ]; then ok truth-trace-bad-shapes; else fail truth-trace-bad-shapes "$(head -c 400 "$TMP/tt.out")"; fi
# mmrank.rules' mm features are the C reader's (stages/formats/mmfeatures.c)
c_names=$(sed -n '/^const char \*const mm_raw_\(num\|cat\)_name/,/^};/p' stages/formats/mmfeatures.c | grep -o '"[a-z0-9_]*"' | tr -d '"' | paste -sd,)
py_names=$(python3 -c 'from mmrank import rules; print(",".join(rules.MM_NUMERICAL + rules.MM_CATEGORICAL))')
[ -n "$c_names" ] && [ "$c_names" = "$py_names" ] && ok truth-log-rules-mm-features ||
	fail truth-log-rules-mm-features "C [$c_names] Python [$py_names]"
# a little fuzzing: each field of two records (a rank and a mixed variant),
# wrong-typed or removed, through truth_log.py and clocks.py
sed -n '1p;7p' "$T/truth.jsonl" >"$TMP/t2.jsonl"
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 check/models/fuzz_fields.py truth_log "$TMP/t2.jsonl" "$TMP/fz.txt" {} \
	--summary "$TMP/fz.md" --json "$TMP/fz.json" --epilogue attribute >"$TMP/fz.out" 2>&1; then
	ok truth-log-fuzz-fields; else fail truth-log-fuzz-fields "$(head -c 600 "$TMP/fz.out")"; fi
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 check/models/fuzz_fields.py clocks "$TMP/t2.jsonl" {} \
	--records "b=check/clocks/records.jsonl" -o "$TMP/fz.md" >"$TMP/fz.out" 2>&1; then
	ok truth-clocks-fuzz-fields; else fail truth-clocks-fuzz-fields "$(head -c 600 "$TMP/fz.out")"; fi

# ---- truth.py's arguments, truth.sh's driver -----------------------------------------------
expect_error truth-cli-bad-variant "variant 'rank:x': rank:J or rank:A-B" "$TMP/cli.jsonl" \
	python3 "$M/truth.py" "$TMP/cli.jsonl" --model gpt2 --phase prefill --variants rank:x
expect_error truth-cli-unknown-model "--model gpt9: not in" "$TMP/cli.jsonl" \
	python3 "$M/truth.py" "$TMP/cli.jsonl" --model gpt9 --phase prefill
if python3 "$M/truth.py" "$TMP/cli.jsonl" --model bert-base --phase decode >"$TMP/cli.out" 2>&1 &&
	grep -q 'bert-base has no decode phase: nothing to do' "$TMP/cli.out" && [ ! -e "$TMP/cli.jsonl" ]; then
	ok truth-cli-no-phase; else fail truth-cli-no-phase "$(head -c 300 "$TMP/cli.out")"; fi
# the plan: ranks up to the largest candidate count, mixed variants last; a
# failed rank:J isolates each key whose J-th candidate is a template
if models_python - >"$TMP/plan.out" 2>&1 <<'EOF'
import truth
assert truth.parse_variants("rank:2-4,ranks,mix", "best,random:7") == [
    "rank:2", "rank:3", "rank:4", "ranks", "mix:best", "mix:random:7"]
recs = [{"variant": "rank:0", "status": "ok", "n_candidates_max": 3},
        {"variant": "rank:1", "status": "error", "decisions": [
            {"key": "A", "offered": ["extern_mm", "t1", "t2"]},
            {"key": "B", "offered": ["extern_bias_addmm", "extern_addmm", "t3"]},
            {"key": "C", "offered": ["extern_mm", "t4"]}]}]
assert truth.plan(["mix:best", "ranks"], recs, False) == (
    ["rank:2", "rank:1@0", "rank:1@1", "mix:best"], False)
assert truth.isolated_assign(recs, "rank:1@0") == {"A": "t1"}
assert truth.isolated_assign(recs, "rank:1@1") == {"C": "t4"}
assert truth.plan(["ranks"], recs, False, isolate=False) == (["rank:2"], False)
assert truth.plan(["ranks"], recs, True, isolate=False) == (["rank:1", "rank:2"], False)
assert truth.plan(["ranks", "mix:best"], [], False) == (["rank:0", "mix:best"], True)
EOF
then ok truth-plan; else fail truth-plan "$(tail -c 400 "$TMP/plan.out")"; fi
# a rank that failed for shared memory isolates only the keys whose config
# fits: Triton's own figures on an H100 (gpt2 prefill, rank 20): 128x128x128
# with 4 stages in bf16 needs 262144 bytes > 232448, 128x64x128 with 5 stages
# 163840; a float32 key counts 4 bytes an element; an unknown need is kept
if models_python - >"$TMP/plan.out" 2>&1 <<'EOF'
import truth
big = "type=triton_BLOCK-M=128_BLOCK-K=128_BLOCK-N=128_numstages=4_numwarps=8"
fits = "type=triton_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=5_numwarps=8"
assert truth.smem_bytes(big, "torch.bfloat16") == 262144
assert truth.smem_bytes(fits, "torch.bfloat16") == 163840
assert truth.smem_bytes(fits, "torch.float32") == 327680
assert truth.smem_bytes("decompose_k_k=4", "torch.bfloat16") is None
err = ("InductorError: RuntimeError: No valid triton configs. OutOfMemoryError: out of resource: "
       "triton_tem_fused_mm_t_view_11 Required: 262144 Hardware limit:232448 Reducing block sizes")
dec = [{"key": "mm 2048x768x50264 torch.bfloat16 768,1 50264,1", "offered": ["extern_mm", big]},
       {"key": "addmm 2048x768x768 torch.bfloat16 768,1 768,1", "offered": ["extern_addmm", fits]},
       {"key": "mm 64x1x512 torch.float32 1,0 0,1", "offered": ["extern_mm", fits]},
       {"key": "mm 2048x768x3072 torch.bfloat16 768,1 3072,1", "offered": ["extern_mm", "decompose_k_k=4"]}]
rec = {"variant": "rank:1", "status": "error", "error": err, "decisions": dec}
assert truth.isolated_keys(rec, 1) == ["addmm 2048x768x768 torch.bfloat16 768,1 768,1",
                                       "mm 2048x768x3072 torch.bfloat16 768,1 3072,1"], truth.isolated_keys(rec, 1)
rec["error"] = "InductorError: CompilationError: at 12:4"
assert len(truth.isolated_keys(rec, 1)) == 4
EOF
then ok truth-plan-smem; else fail truth-plan-smem "$(tail -c 400 "$TMP/plan.out")"; fi
FAKE=$ROOT/$T/fake_python.sh
drive() {   # OUT, environment from the caller
	PYTHON=$FAKE CACHE_ROOT=$TMP/cache MODELS=${MODELS:-"gpt2 bert-base"} PHASES=${PHASES:-prefill decode} \
		bash "$M/truth.sh" "$1" >"$TMP/drive.out" 2>&1
}
calls() { cut -d' ' -f1,2 "$1/truth.jsonl.calls" | tr '\n' '|'; }
FAKE_RCS_gpt2="3 3 0" drive "$TMP/d1"
[ "$(calls "$TMP/d1")" = "gpt2 prefill|gpt2 prefill|gpt2 prefill|bert-base prefill|gpt2 decode|bert-base decode|" ] &&
	[ "$(wc -l <"$TMP/d1/truth.jsonl")" = 4 ] && [ "$(awk '{ print ($3 <= 525) }' "$TMP/d1/truth.jsonl.calls" | sort -u)" = 1 ] &&
	ok truth-sh-rows-and-restarts || fail truth-sh-rows-and-restarts "$(calls "$TMP/d1")"
RESTARTS=1 FAKE_RCS_gpt2="3 3 0" FAKE_RCS_bert_base="4" drive "$TMP/d2"
[ "$(calls "$TMP/d2")" = "gpt2 prefill|gpt2 prefill|bert-base prefill|gpt2 decode|bert-base decode|" ] &&
	grep -q 'gpt2 prefill: the CUDA context broke 2 times; next row' "$TMP/drive.out" &&
	grep -q 'bert-base prefill: the model could not be set up' "$TMP/drive.out" &&
	ok truth-sh-gives-up || fail truth-sh-gives-up "$(calls "$TMP/d2") $(grep '^   ' "$TMP/drive.out" | tr '\n' '|')"
FAKE_RCS_bert_base="2" drive "$TMP/d3"
[ "$(calls "$TMP/d3")" = "gpt2 prefill|bert-base prefill|" ] && grep -q 'stopped by TIME_LIMIT=540s' "$TMP/drive.out" &&
	ok truth-sh-row-stops-the-call || fail truth-sh-row-stops-the-call "$(calls "$TMP/d3")"
FAKE_SLEEP_gpt2=8 TIME_LIMIT=4 MIN_START=1 drive "$TMP/d4"
[ "$(calls "$TMP/d4")" = "gpt2 prefill|" ] && grep -q 'killed at TIME_LIMIT' "$TMP/drive.out" &&
	grep -q 'stopped by TIME_LIMIT=4s' "$TMP/drive.out" && ok truth-sh-time-limit-kill ||
	fail truth-sh-time-limit-kill "$(calls "$TMP/d4") $(tail -c 300 "$TMP/drive.out")"
# SIGTERM to truth.sh's whole process group, as a Ctrl-C sends SIGINT to it:
# truth.py (under timeout, in its own group) is stopped too, no record,
# exit 130, and the message reaches console.txt
sleepers() { for p in /proc/[0-9]*; do tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q '^sleep 41.9 ' && echo "${p#/proc/}"; done; }
( set -m; PYTHON=$FAKE CACHE_ROOT=$TMP/cache MODELS=gpt2 PHASES=prefill FAKE_SLEEP_gpt2=41.9 \
	bash "$M/truth.sh" "$TMP/d10" >/dev/null 2>&1 & echo $! >"$TMP/d10.pid"; wait $!; echo $? >"$TMP/d10.rc" ) &
opid=$!
for _ in $(seq 100); do [ -s "$TMP/d10/truth.jsonl.calls" ] && break; sleep 0.1; done
sleep 0.3; kill -TERM -- "-$(cat "$TMP/d10.pid")"; wait "$opid"
sleep 0.3
if [ "$(cat "$TMP/d10.rc")" = 130 ] && [ -z "$(sleepers)" ] && [ ! -s "$TMP/d10/truth.jsonl" ] &&
	grep -q 'truth.sh: interrupted during gpt2 prefill: the variant in flight has no record' "$TMP/d10/console.txt"; then
	ok truth-sh-interrupted
else
	fail truth-sh-interrupted "rc=$(cat "$TMP/d10.rc"), left: $(sleepers | tr '\n' ' '); $(tail -2 "$TMP/d10/console.txt" | tr '\n' '|')"
	for p in $(sleepers); do kill "$p"; done
fi
MODELS="gpt2 ../x" drive "$TMP/d5"
[ $? -ne 0 ] && [ ! -e "$TMP/d5" ] && grep -q "truth.sh: MODELS: '../x' is not a model name" "$TMP/drive.out" &&
	ok truth-sh-bad-name || fail truth-sh-bad-name "$(head -c 300 "$TMP/drive.out")"
# MODELS and PHASES are words, never globbed: '*' runs nothing (it once ran
# truth.py on every file of the checkout); a name is looked up in MODELS_FILE
MODELS='*' PHASES=prefill DEVICE=cpu drive "$TMP/d7"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/d7" ] && grep -q "truth.sh: MODELS: '\*' is not a model name" "$TMP/drive.out" &&
	ok truth-sh-models-not-globbed || fail truth-sh-models-not-globbed "rc=$rc $(ls "$TMP/d7" 2>&1 | head -3) $(head -c 300 "$TMP/drive.out")"
MODELS='gpt2 gpt9' drive "$TMP/d8"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/d8" ] && grep -q "truth.sh: MODELS: 'gpt9': not in perf/models/models.tsv" "$TMP/drive.out" &&
	ok truth-sh-model-looked-up || fail truth-sh-model-looked-up "rc=$rc $(head -c 300 "$TMP/drive.out")"
PHASES='prefill *' MODELS=gpt2 drive "$TMP/d9"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/d9" ] && grep -q "truth.sh: PHASES: '\*' is none of prefill decode train" "$TMP/drive.out" &&
	ok truth-sh-phases-not-globbed || fail truth-sh-phases-not-globbed "rc=$rc $(head -c 300 "$TMP/drive.out")"
# an OUTDIR whose lock another writer holds (here flock(1) itself, as a
# truth.py that a SIGKILL to truth.sh left behind would): refused, exit 1,
# no variant run (FLOCK: util-linux)
if test_skip_unless FLOCK truth-sh-outdir-locked; then
	mkdir -p "$TMP/d11"
	hold_lock "$TMP/d11" 2
	MODELS=gpt2 PHASES=prefill drive "$TMP/d11"; rc=$?
	wait "$held_pid"
	[ $rc -eq 1 ] && [ ! -e "$TMP/d11/truth.jsonl.calls" ] &&
		grep -q "^truth.sh: $TMP/d11 is in use by another truth.sh, or by a run one left behind" "$TMP/drive.out" &&
		ok truth-sh-outdir-locked || fail truth-sh-outdir-locked "rc=$rc $(tail -c 300 "$TMP/drive.out")"
fi
# the package: truth.sh puts this checkout's python/ first on PYTHONPATH itself
MODELS=gpt2 PHASES=prefill PYTHONPATH= drive "$TMP/d6"
[ "$(cut -d' ' -f4 "$TMP/d6/truth.jsonl.calls")" = "$ROOT/python" ] && ok truth-sh-package-path ||
	fail truth-sh-package-path "$(cat "$TMP/d6/truth.jsonl.calls" 2>&1)"

# ---- TORCH: the handler in a real compile, a CPU dry run of truth.py ----------------------
test_require TORCH truth-torch
TP=$TORCH_PYTHON
if ! "$TP" -c 'import torch, sys; sys.exit(0 if torch.__version__.startswith("2.11") else 1)' 2>/dev/null; then
	skip truth-torch "[TORCH] $TP's torch is not 2.11"; finish
fi
mkdir -p "$TMP/ind"
PYTHONPATH="$ROOT/$M:$PYTHONPATH" TORCHINDUCTOR_CACHE_DIR=$TMP/ind timeout 600 "$TP" "$T/force_torch_case.py" >"$TMP/ft" 2>"$TMP/ft.err"
block() { awk -v v="$1" '$1 == "variant" { on = ($2 == v) } on && $1 != "variant"' "$TMP/ft" | grep -v '^probe' | sed 's/ features=.*//' | tr '\n' '|'; }
FEAT="m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32"
[ "$(block rank:0)" = "decision addmm offered=extern_bias_addmm,extern_addmm forced=extern_bias_addmm fallback=None|decision mm offered=extern_mm forced=extern_mm fallback=None|code extern_kernels.bias_addmm|code extern_kernels.mm|choices addmm 1|choices mm 1|" ] &&
	[ "$(grep -c "features=$FEAT\$" "$TMP/ft")" = 6 ] &&
	ok truth-torch-rank0-used || fail truth-torch-rank0-used "$(block rank:0) $(tail -c 300 "$TMP/ft.err")"
[ "$(block rank:1)" = "decision addmm offered=extern_bias_addmm,extern_addmm forced=extern_addmm fallback=None|decision mm offered=extern_mm forced=extern_mm fallback=rank 1 >= 1 candidates|code extern_kernels.addmm|code extern_kernels.mm|choices addmm 1|choices mm 1|" ] &&
	ok truth-torch-rank1-used || fail truth-torch-rank1-used "$(block rank:1)"
[ "$(block map)" = "decision addmm offered=extern_bias_addmm,extern_addmm forced=extern_addmm fallback=None|decision mm offered=extern_mm forced=extern_mm fallback=key not in the map|code extern_kernels.addmm|code extern_kernels.mm|choices addmm 1|choices mm 1|" ] &&
	ok truth-torch-map-used || fail truth-torch-map-used "$(block map)"
if python3 - "$TMP/ft" <<'EOF'
import sys
got = dict(x.split(" ", 2)[1:] for x in open(sys.argv[1]).read().splitlines() if x.startswith("probe "))
off = got["offered"].split(",")
assert off[0] == "extern_mm" and len(off) > 4 and all(x.startswith("type=triton_") for x in off[1:]), off
assert len(set(off)) == len(off) and got["forced"] == off[3] == got["triton_id"], got
EOF
then ok truth-torch-probe-triton; else fail truth-torch-probe-triton "$(grep '^probe' "$TMP/ft" | head -c 400)"; fi
if ! "$TP" -c 'import transformers' 2>/dev/null; then
	skip truth-torch-dry-run "[TORCH] $TP cannot import transformers"; finish
fi
# a tiny GPT-2 (check/truth/tiny.tsv), decode: addmm offers 2 ATen choices, mm 1,
# so "ranks" is rank:0 and rank:1, then mix:best and mix:random:1
dry() { TORCHINDUCTOR_CACHE_DIR=$TMP/ind timeout 900 "$TP" "$M/truth.py" "$TMP/dry.jsonl" --models "$T/tiny.tsv" \
	--model tiny-gpt2 --phase decode --device cpu --steps 50 --replays 3 --trace-dir "$TMP/traces" "$@" \
	>>"$TMP/dry.out" 2>&1; }
dry --variants rank:0
rc1=$?
dry --time-limit 1
rc2=$?
dry
rc3=$?
if [ "$rc1$rc2$rc3" = 020 ] && python3 - "$TMP/dry.jsonl" <<'EOF'
import json, sys
R = [json.loads(x) for x in open(sys.argv[1])]
assert [r["variant"] for r in R] == ["rank:0", "rank:1", "mix:best", "mix:random:1"], [r["variant"] for r in R]
for r in R:
    assert r["status"] == "ok" and r["multi_choice_gemm_calls"] == 0, (r["variant"], r.get("error"))
    a = r["analysis"]
    assert a["status"] == "ok" and a["split"] == "count", a
    keys = [s["key"] for s in a["slots"]]
    assert len(keys) == 5 and keys[4] == "mm 2x64x512 torch.bfloat16 64,1 1,64", keys
    assert keys[0] == "addmm 2x64x192 torch.bfloat16 64,1 192,1", keys
    assert r["nongemm_ms"] == round(r["step_ms"] - a["gemm_ms"], 6)
    assert [d["forced"] for d in r["decisions"]] == [s["forced"] for s in a["slots"]]
r0, r1 = R[0], R[1]
assert {d["forced"] for d in r0["decisions"]} == {"extern_bias_addmm", "extern_mm"}
assert [d["forced"] for d in r1["decisions"]] == ["extern_addmm"] * 4 + ["extern_mm"]
assert r1["decisions"][4]["fallback"] == "rank 1 >= 1 candidates" and r0["n_candidates_max"] == 2
best = R[2]
assert best["mode"] == "map" and len(best["map"]) == 5 and best["prediction"]["method"] == "pattern"
p = best["prediction"]     # CPU wall clocks are noise: the arithmetic is what is checked
assert p["missing"] == [] and abs(p["step_ms"] - p["gemm_ms"] - p["nongemm_ms"]) < 2e-6, p
assert best["measured_over_predicted"] == round(best["step_ms"] / p["step_ms"], 6)
assert best["prediction"]["variants_used"] == 2 and R[3]["prediction"]["variants_used"] == 3
EOF
then ok truth-torch-dry-run; else fail truth-torch-dry-run "rc $rc1$rc2$rc3: $(grep -v Warn "$TMP/dry.out" | tail -c 500)"; fi
grep -q 'stopped by --time-limit 1 s' "$TMP/dry.out" && ok truth-torch-dry-time-limit ||
	fail truth-torch-dry-time-limit "$(grep truth: "$TMP/dry.out" | tail -c 300)"
# --keep-traces first: the first variant of each process (rank:0, then rank:1)
[ -s "$TMP/traces/tiny-gpt2_decode_rank-0_eager.json.gz" ] && [ -s "$TMP/traces/tiny-gpt2_decode_rank-1_replay.json.gz" ] &&
	[ ! -e "$TMP/traces/tiny-gpt2_decode_mix-best_eager.json.gz" ] &&
	ok truth-torch-dry-traces || fail truth-torch-dry-traces "$(ls "$TMP/traces" 2>&1 | tr '\n' ' ')"
dry
grep -q 'tiny-gpt2 decode: complete (4 records)' "$TMP/dry.out" && [ "$(wc -l <"$TMP/dry.jsonl")" = 4 ] &&
	ok truth-torch-dry-resume || fail truth-torch-dry-resume "$(tail -c 300 "$TMP/dry.out")"
if python3 "$M/truth_log.py" "$TMP/dry.txt" "$TMP/dry.jsonl" --shared-memory 232448 --device-capa 9.0 2>"$TMP/dl.err" &&
	[ "$(tail -n +3 "$TMP/dry.txt" | cut -d, -f1-3,13 | sort | tr '\n' '|')" = "2,256,64,extern_mm|2,64,192,extern_mm|2,64,256,extern_mm|2,64,512,extern_mm|2,64,64,extern_mm|" ]; then
	ok truth-torch-dry-log; else fail truth-torch-dry-log "$(cat "$TMP/dl.err" "$TMP/dry.txt" | head -c 400)"; fi
finish
