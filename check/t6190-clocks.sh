#!/usr/bin/env bash
# perf/models/clocks.py, no GPU: the in-graph truth of check/truth/truth.jsonl
# (3 GEMM keys) against two clocks with hand-computed figures:
# check/clocks/records.jsonl (run.py records' "autotuned": addmm's two ATen
# choices merged as extern_mm, a null time dropped) and check/clocks/log.txt
# (an AutoHeuristic log: repeated rows by their median, a GEMM the truth
# lacks ignored).  Bad input names its file and line and writes nothing.
# perf/models/bench_clocks.sh with a stand-in bench (check/clocks/fake_bench.sh):
# the clock that logs the truth's own times is the best one.
# perf/models/head_truth.py: a known one-leaf tree's k = 1 and head-alone regret on the truth,
# and k = 1 with the hedge decided by known Inductor timings (--records).
# perf/models/truth_cv.py: a known two-model truth's leave-one-out regrets, with and without
# the others' truth reaching the held-out model's leaf (--inputs).
# perf/models/clock_probe.py: its input checks, and its exit without a GPU.
# Prerequisites: python3; shapes, triton_cands, featurize, fit and eval built (make check builds them).
. check/lib.sh
test_require PYTHON3 clocks-all
C=check/clocks
clocks() { PYTHONPATH="$ROOT/perf/models:$PYTHONPATH" python3 perf/models/clocks.py "$@"; }

if clocks check/truth/truth.jsonl --records inductor=$C/records.jsonl --log official=$C/log.txt \
	-o "$TMP/c.md" --json "$TMP/c.json" 2>"$TMP/err"; then
	ok clocks-runs
else
	fail clocks-runs "$(head -3 "$TMP/err")"
fi
# $(row CLOCK REGIME): keys|hit|regret|rho|aten of one table row
row() { awk -F' *\\| *' -v c="$1" -v r="$2" '$2 == c && $3 == r { print $4 "|" $5 "|" $6 "|" $7 "|" $8 "|" $9 "|" $10 }' "$TMP/c.md"; }
# inductor: addmm key picks TB (truth 0.045 vs best 0.040: regret 1.125, miss),
# the m=2048 mm key picks the truth's best, the m=16 key picks extern_mm
# (0.03 vs 0.02: 1.5); rho 0.5, 0.5, -1; aten bias 1.1, 2.0, 0.5
test "$(row inductor all)" = "3|33%|1.1906|0.500|1.100|3|1.100 [0.500, 2.000]" && ok clocks-inductor-all ||
	fail clocks-inductor-all "$(row inductor all)"
test "$(row inductor 'm<=16')" = "1|0%|1.5000|-1.000|0.500|1|0.500 [0.500, 0.500]" && ok clocks-inductor-decode ||
	fail clocks-inductor-decode "$(row inductor 'm<=16')"
test "$(row inductor 'm>1024')" = "2|50%|1.0607|0.500|1.550|2|1.550 [1.100, 2.000]" && ok clocks-inductor-prefill ||
	fail clocks-inductor-prefill "$(row inductor 'm>1024')"
test "$(row inductor 'op addmm')" = "1|0%|1.1250|0.500|1.100|1|1.100 [1.100, 1.100]" && ok clocks-addmm-aten-merged ||
	fail clocks-addmm-aten-merged "$(row inductor 'op addmm')"
# official: only the m=16 GEMM; TA's median 0.025 beats extern_mm 0.04
test "$(row official all)" = "1|100%|1.0000|1.000|1.067|1|1.333 [1.333, 1.333]" && ok clocks-log-median ||
	fail clocks-log-median "$(row official all)"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r["clocks"]["inductor"]["regimes"]["all"]
assert r["truth_keys"] == 3 and c["aten_keys"] == 3 and abs(c["aten_p10"] - 0.5) < 1e-9 and abs(c["aten_p90"] - 2.0) < 1e-9' \
	"$TMP/c.json" && ok clocks-json || fail clocks-json "$(head -c 300 "$TMP/c.json")"
# the regimes come in order: all, then m from small to large
test "$(awk -F' *\\| *' '$2 == "inductor" { print $3 }' "$TMP/c.md" | head -3 | paste -sd,)" = "all,m<=16,m>1024" &&
	ok clocks-regime-order || fail clocks-regime-order "$(awk -F' *\\| *' '$2 == "inductor" { print $3 }' "$TMP/c.md" | paste -sd,)"

# a GEMM whose only choice in common is extern_mm: no ranking figures, its ATen ratio
printf '%s\n' '{"model": "gpt2", "phase": "decode", "mode": "b", "rep": 1, "status": "ok", "compile_s": 1.0, "step_ms": 1.0, "autotuned": [{"op": "mm", "m": 16, "k": 768, "n": 50257, "dtype": "torch.bfloat16", "strides": [[768, 1], [1, 768]], "ms": {"extern_mm": 0.06}}]}' >"$TMP/aten.jsonl"
clocks check/truth/truth.jsonl --records aten="$TMP/aten.jsonl" -o "$TMP/c.md" 2>"$TMP/err"
test "$(row aten all)" = "0|-|-|-|-|1|2.000 [2.000, 2.000]" && ok clocks-aten-only ||
	fail clocks-aten-only "$(row aten all) $(head -2 "$TMP/err")"

# bad input: a record line that is not JSON, a log row short of fields, a bad NAME=FILE
{ head -1 $C/records.jsonl; echo '{not json'; } >"$TMP/bad.jsonl"
expect_error clocks-bad-record "bad\.jsonl:2: not JSON" "$TMP/o.md" \
	clocks check/truth/truth.jsonl --records b="$TMP/bad.jsonl" -o "$TMP/o.md"
{ head -2 $C/log.txt; echo '16,768'; } >"$TMP/bad.txt"
expect_error clocks-bad-log "bad\.txt:3: expected 11 comma-separated fields" "$TMP/o.md" \
	clocks check/truth/truth.jsonl --log o="$TMP/bad.txt" -o "$TMP/o.md"
expect_error clocks-bad-name "'\.\./x': expected NAME=FILE" "$TMP/o.md" \
	clocks check/truth/truth.jsonl --log ../x -o "$TMP/o.md"
expect_error clocks-no-clock "no clock" "$TMP/o.md" clocks check/truth/truth.jsonl -o "$TMP/o.md"
# an autotuned entry of a symbolic GEMM (null m, null stride: records.py allows
# them) cannot be keyed: skipped and counted, the rest compared
printf '%s\n' '{"model": "gpt2", "phase": "decode", "mode": "b", "rep": 1, "status": "ok", "compile_s": 1.0, "step_ms": 1.0, "autotuned": [{"op": "mm", "m": null, "k": 768, "n": 50257, "dtype": "torch.bfloat16", "strides": [[768, 1], [1, 768]], "ms": {"extern_mm": 0.06}}, {"op": "mm", "m": 16, "k": 768, "n": 50257, "dtype": null, "strides": [null, [1, 768]], "ms": {"extern_mm": 0.06}}, {"op": "mm", "m": 16, "k": 768, "n": 50257, "dtype": "torch.bfloat16", "strides": [[768, 1], [1, 768]], "ms": {"extern_mm": 0.06}}]}' >"$TMP/sym.jsonl"
if clocks check/truth/truth.jsonl --records sym="$TMP/sym.jsonl" -o "$TMP/sym.md" 2>"$TMP/err" &&
	grep -qx "clocks.py: sym: 2 autotuned entries skipped (a symbolic size, dtype or stride: no GEMM key)" "$TMP/err" &&
	grep -q '^| sym | all | 0 | - | - | - | - | 1 | 2.000' "$TMP/sym.md"; then ok clocks-symbolic-skipped
else fail clocks-symbolic-skipped "$(head -c 300 "$TMP/err")"; fi

# the truth as truth_log.py reads it (records.py's rules): no record, two GPUs,
# a zero time, sizes past 2**62 are errors
: >"$TMP/empty.jsonl"
expect_error clocks-empty-truth "^clocks\.py: no record with status ok or partial$" "$TMP/o.md" \
	clocks "$TMP/empty.jsonl" --records b=$C/records.jsonl -o "$TMP/o.md"
sed '3s/"capability": \[9, 0\]/"capability": [8, 0]/' check/truth/truth.jsonl >"$TMP/two.jsonl"
expect_error clocks-two-gpus "two\.jsonl:3: shared_memory/capability \(232448, \(8, 0\)\) differ from .*two\.jsonl:1's" "$TMP/o.md" \
	clocks "$TMP/two.jsonl" --records b=$C/records.jsonl -o "$TMP/o.md"
sed '1s/"status": "ok", "flags": \[\], "us": 50,/"status": "ok", "flags": [], "us": 0,/' check/truth/truth.jsonl >"$TMP/z.jsonl"
expect_error clocks-us-zero "z\.jsonl:1: field 'analysis\.slots\[0\]\.us': 0 is not a number > 0" "$TMP/o.md" \
	clocks "$TMP/z.jsonl" --records b=$C/records.jsonl -o "$TMP/o.md"
D5000=$(printf '9%.0s' $(seq 5000))
sed "1s/\"key\": \"addmm 2048x768x2304 /\"key\": \"addmm ${D5000}x768x2304 /" check/truth/truth.jsonl >"$TMP/k.jsonl"
expect_error clocks-key-5000-digits "k\.jsonl:1: field 'decisions\[0\]\.key': 'addmm 9999.*\(5043 characters\) is not a GEMM key" "$TMP/o.md" \
	clocks "$TMP/k.jsonl" --records b=$C/records.jsonl -o "$TMP/o.md"
{ head -2 $C/log.txt; sed -n 3p $C/log.txt | sed "s/^[0-9]*,/${D5000},/"; } >"$TMP/big.txt"
expect_error clocks-log-size-5000-digits "big\.txt:3: field 'm': '9999.*\(5000 characters\) is not a whole number in \[0, 2\*\*62\]" "$TMP/o.md" \
	clocks check/truth/truth.jsonl --log o="$TMP/big.txt" -o "$TMP/o.md"
# a time near the largest float: refused at its record, no Infinity in --json
sed 's/"extern_mm": 0.06/"extern_mm": 1.7e308/' "$TMP/aten.jsonl" >"$TMP/huge.jsonl"
expect_error clocks-ms-huge "huge\.jsonl:1: field 'autotuned\[0\]\.ms\.extern_mm': 1\.7e\+308 is not a number >= 0" "$TMP/o.json" \
	clocks check/truth/truth.jsonl --records b="$TMP/huge.jsonl" --json "$TMP/o.json"

# the outputs, all or none: a missing folder is one line; -o is not left
# behind when --json cannot be written
expect_error clocks-out-no-folder "^clocks\.py: .*nodir/o\.md: No such file or directory$" "$TMP/nodir/o.md" \
	clocks check/truth/truth.jsonl --records b=$C/records.jsonl -o "$TMP/nodir/o.md"
expect_error clocks-json-fails-no-out "^clocks\.py: .*nodir/o\.json: No such file or directory$" "$TMP/o.md" \
	clocks check/truth/truth.jsonl --records b=$C/records.jsonl -o "$TMP/o.md" --json "$TMP/nodir/o.json"

# --help tells the NAME=FILE forms, --near's default, the outputs and the units
clocks --help >"$TMP/help" 2>&1
miss=
for want in "--records NAME=FILE" "--log NAME=FILE" "within NEAR (default 2 %)" "Outputs:" "milliseconds"; do
	grep -qF -- "$want" "$TMP/help" || miss="$miss [$want]"
done
[ -z "$miss" ] && ok clocks-help-doc || fail clocks-help-doc "missing:$miss"
# --common: only the keys both clocks compare on (official has 1 of inductor's
# 3: inductor's figures on that one key, the m = 16 one: a miss at 1.5)
clocks check/truth/truth.jsonl --records inductor=$C/records.jsonl --log official=$C/log.txt --common \
	-o "$TMP/cc.md" 2>"$TMP/err"
crow() { awk -F' *\\| *' -v c="$1" '$2 == c && $3 == "all" { print $4 "|" $5 "|" $6 }' "$TMP/cc.md"; }
[ "$(crow inductor)" = "1|0%|1.5000" ] && [ "$(crow official)" = "1|100%|1.0000" ] && ok clocks-common-keys ||
	fail clocks-common-keys "$(crow inductor) / $(crow official)"
# a NAME twice, and records without a mode b record: errors, nothing written
clocks check/truth/truth.jsonl --records x=$C/records.jsonl --log x=$C/log.txt -o "$TMP/dup.md" 2>"$TMP/err"
[ $? = 1 ] && grep -q "clock name x given twice" "$TMP/err" && [ ! -e "$TMP/dup.md" ] && ok clocks-name-twice ||
	fail clocks-name-twice "$(cat "$TMP/err")"
sed 's/"mode": "b"/"mode": "e"/' $C/records.jsonl > "$TMP/rec_e.jsonl"
clocks check/truth/truth.jsonl --records e=$TMP/rec_e.jsonl -o "$TMP/nob.md" 2>"$TMP/err"
[ $? = 1 ] && grep -q "rec_e.jsonl: no mode b record" "$TMP/err" && [ ! -e "$TMP/nob.md" ] && ok clocks-no-mode-b ||
	fail clocks-no-mode-b "$(cat "$TMP/err")"
# perf/models/bench_clocks.sh with a stand-in bench (check/clocks/fake_bench.sh:
# rotate the truth's own times, inductor their reciprocals, warm Triton x 3): the
# truth's keys as the shape list, each clock's log scored, rotate the best
BC=$TMP/bc
if BIN=$BIN BENCH=$ROOT/$C/fake_bench.sh TRITON_CUBINS=unused bash perf/models/bench_clocks.sh "$BC" \
	check/truth/truth.jsonl > "$TMP/bc.out" 2>&1; then
	ok bench-clocks-runs
else
	fail bench-clocks-runs "$(tail -3 "$TMP/bc.out" | tr '\n' '|')"
fi
[ "$(($(wc -l < "$BC/keys.tsv") - 1))" = 3 ] && ok bench-clocks-keys || fail bench-clocks-keys "$(cat "$BC/keys.tsv" | tr '\n' '|')"
[ "$(cat "$BC/best_clock.txt")" = rotate ] && ok bench-clocks-best-is-truths ||
	fail bench-clocks-best-is-truths "best $(cat "$BC/best_clock.txt"): $(cat "$TMP/bc.out" | tr '\n' '|')"
bcrow() { awk -F' *\\| *' -v c="$1" '$2 == c && $3 == "all" { print $4 "|" $5 "|" $6 }' "$BC/clocks.md"; }
[ "$(bcrow bench_rotate)" = "3|100%|1.0000" ] && ok bench-clocks-rotate-agrees || fail bench-clocks-rotate-agrees "$(bcrow bench_rotate)"
[ "$(bcrow bench_warm)" = "3|0%|1.2772" ] && ok bench-clocks-warm-misses || fail bench-clocks-warm-misses "$(bcrow bench_warm)"
[ "$(bcrow bench_inductor | cut -d'|' -f1,2)" = "3|0%" ] && ok bench-clocks-reversed-misses || fail bench-clocks-reversed-misses "$(bcrow bench_inductor)"
# KEYS: the shape list made beforehand is used as it is (no shapes run)
KEYS=$BC/keys.tsv BIN=$BIN BENCH=$ROOT/$C/fake_bench.sh TRITON_CUBINS=unused bash perf/models/bench_clocks.sh "$TMP/bc3" \
	check/truth/truth.jsonl > "$TMP/bc3.out" 2>&1 && cmp -s "$BC/keys.tsv" "$TMP/bc3/keys.tsv" &&
	[ "$(cat "$TMP/bc3/best_clock.txt")" = rotate ] && ok bench-clocks-given-keys ||
	fail bench-clocks-given-keys "$(tail -3 "$TMP/bc3.out" | tr '\n' '|')"
# bad settings refused before any bench runs (a stand-in that leaves a marker),
# exit 2, nothing written: CLOCKS twice or on two lines, KEYS not a shape
# list, RECORDS that are not mode b records, OUTDIR a file
printf '#!/bin/sh\ntouch "%s"\nexit 1\n' "$TMP/ran" > "$TMP/markbench"; chmod +x "$TMP/markbench"
printf 'x\n' > "$TMP/notdir"
bcbad() { # NAME PATTERN OUT VAR=VALUE...
	local name=$1 pat=$2 out=$3; shift 3
	rm -f "$TMP/ran"
	env BIN="$BIN" BENCH="$TMP/markbench" TRITON_CUBINS=unused "$@" bash perf/models/bench_clocks.sh "$out" \
		check/truth/truth.jsonl > /dev/null 2>"$TMP/err"
	[ $? = 2 ] && grep -q -- "$pat" "$TMP/err" && [ ! -e "$TMP/ran" ] && ok "$name" || fail "$name" "$(cat "$TMP/err")"
}
bcbad bench-clocks-clock-twice "CLOCKS: 'rotate' given twice" "$TMP/bc4" CLOCKS="rotate rotate"
bcbad bench-clocks-clocks-two-lines "CLOCKS: one line of words" "$TMP/bc4" CLOCKS=$'rotate\nwarm'
bcbad bench-clocks-keys-not-a-list "KEYS=.*: not a shape list" "$TMP/bc4" KEYS=check/truth/truth.jsonl
bcbad bench-clocks-records-not-b "RECORDS: clocks.py refused them" "$TMP/bc4" RECORDS="x=$TMP/rec_e.jsonl"
bcbad bench-clocks-out-a-file "notdir: not a folder" "$TMP/notdir"
[ ! -e "$TMP/bc4" ] && ok bench-clocks-bad-writes-nothing || fail bench-clocks-bad-writes-nothing "$(ls "$TMP/bc4")"
# relative paths are the caller's; a failed rerun leaves none of the earlier outputs
(cd "$TMP" && BIN=$BIN BENCH=$ROOT/$C/fake_bench.sh TRITON_CUBINS=unused bash "$ROOT/perf/models/bench_clocks.sh" \
	rel "$ROOT/check/truth/truth.jsonl" > /dev/null 2>&1) && [ -s "$TMP/rel/best_clock.txt" ] && ok bench-clocks-relative-out ||
	fail bench-clocks-relative-out "$(ls "$TMP/rel" 2>&1)"
BIN=$BIN BENCH="$TMP/markbench" TRITON_CUBINS=unused bash perf/models/bench_clocks.sh "$TMP/rel" check/truth/truth.jsonl >/dev/null 2>&1
[ $? = 1 ] && [ ! -e "$TMP/rel/best_clock.txt" ] && [ ! -e "$TMP/rel/clocks.md" ] && ok bench-clocks-rerun-clears ||
	fail bench-clocks-rerun-clears "$(ls "$TMP/rel")"
CLOCKS="rotate cold" BENCH=$ROOT/$C/fake_bench.sh bash perf/models/bench_clocks.sh "$TMP/bc2" check/truth/truth.jsonl 2>"$TMP/err"
[ $? = 2 ] && grep -q "CLOCKS: 'cold' is not a bench --clock" "$TMP/err" && [ ! -e "$TMP/bc2" ] && ok bench-clocks-bad-clock ||
	fail bench-clocks-bad-clock "$(cat "$TMP/err")"
# perf/models/head_truth.py: each leaf's k = 1 (head + extern_mm) on the
# truth's 3 inputs (check/truth/truth.jsonl as a log: TA fastest on all, E
# 1.25, 1.111 and 1.5x it).  A one-leaf tree fit on the truth itself heads
# with TA: nothing lost.  One fit where extern_mm is fastest (and ties TA on
# the m = 16 input, so the leaf has two classes) heads with E, since no class
# lowers its top-1 + extern_mm regret and head-x's ties go to extern_mm: on
# the truth, regret geomean (1.25 x 1.1111 x 1.5)^(1/3) = 1.2772, all 3
# lose, --strict exits 1
PYTHONPATH="$ROOT/perf/models:$PYTHONPATH" python3 perf/models/truth_log.py "$TMP/tl.txt" check/truth/truth.jsonl 2>/dev/null
awk -F, -v OFS=, 'NR > 2 && $(NF - 1) == "extern_mm" { $NF = $1 == 16 ? 0.02 : 0.001 } { print }' "$TMP/tl.txt" > "$TMP/tl_e.txt"
"$BIN/featurize" -o "$TMP/tl.feat.tsv" "$TMP/tl.txt" 2>/dev/null && "$BIN/featurize" -o "$TMP/tl_e.feat.tsv" "$TMP/tl_e.txt" 2>/dev/null
for t in tl tl_e; do
	"$BIN/fit" "$TMP/$t.feat.tsv" --split none --grid "$FIX/rerank/grid_root.tsv" --leaf-rank head-x --leaf-fill all \
		-o "$TMP/$t.tree.tsv" --metrics "$TMP/$t.m.tsv" >/dev/null 2>&1
done
ht() { python3 perf/models/head_truth.py --bin "$BIN" "$@"; }
ht "$TMP/tl.tree.tsv" "$TMP/tl.txt" --strict > "$TMP/ht1.md" 2>&1 && grep -qx '3 inputs in 1 leaves: k = 1 regret geomean 1.0000; 0 lose.' "$TMP/ht1.md" &&
	ok head-truth-head-wins || fail head-truth-head-wins "$(tr '\n' '|' < "$TMP/ht1.md")"
# the TA-headed tree on the log where extern_mm is fastest: k = 1 loses
# nothing (extern_mm beside the head), the head alone (aten="listed") loses
# 0.04/0.001, 0.09/0.001 and 0.02/0.02: geomean 3600^(1/3) = 15.3262
ht "$TMP/tl.tree.tsv" "$TMP/tl_e.txt" > "$TMP/ht5.md" 2>&1
grep -qx '3 inputs in 1 leaves: k = 1 regret geomean 1.0000; 0 lose.' "$TMP/ht5.md" &&
	grep -qx 'The head alone (no extern_mm beside it: mmrank.inductor.s aten="listed"): regret geomean 15.3262.' "$TMP/ht5.md" &&
	grep -Eq '^\| 0 \| 3 \| type=triton_[^|]* \| 1\.0000 \| 1\.000 \| - \| 15\.3262 \| 1\.0000, 0 \|$' "$TMP/ht5.md" &&
	ok head-truth-head-alone || fail head-truth-head-alone "$(tr '\n' '|' < "$TMP/ht5.md")"
# --records: Inductor's clock decides the hedge (check/clocks/records.jsonl,
# mode b: addmm 2048x768x2304 bias_addmm 0.06 > TA 0.044, mm 2048x768x50257
# extern_mm 0.2 > TA 0.09: TA; mm 16x768x50257 extern_mm 0.015 < TA 0.02:
# extern_mm).  On the truth (TA fastest; E 1.5x it at m = 16): regret
# 1.5^(1/3) = 1.1447, where k = 1 assumed 1.0000.  Where extern_mm is
# fastest (tl_e): TA runs at m = 2048 (0.04/0.001, 0.09/0.001), E at m = 16:
# 3600^(1/3) = 15.3262, as the head alone
ht "$TMP/tl.tree.tsv" "$TMP/tl.txt" --records $C/records.jsonl > "$TMP/ht6.md" 2>&1 &&
	grep -qx "k = 1 with the hedge decided on Inductor's clock (--records; 3 of 3 inputs timed there or headed by extern_mm, the others as k = 1 above): regret geomean 1.1447." "$TMP/ht6.md" &&
	grep -Eq '^\| 0 \| 3 \| type=triton_[^|]* \| 1\.0000 \| 1\.000 \| - \| 1\.0000 \| 1\.1447, 3 \|$' "$TMP/ht6.md" &&
	ok head-truth-inductor-clock || fail head-truth-inductor-clock "$(tr '\n' '|' < "$TMP/ht6.md")"
ht "$TMP/tl.tree.tsv" "$TMP/tl_e.txt" --records $C/records.jsonl > "$TMP/ht7.md" 2>&1 &&
	grep -q "): regret geomean 15.3262.$" "$TMP/ht7.md" && ok head-truth-inductor-clock-keeps-head ||
	fail head-truth-inductor-clock-keeps-head "$(tr '\n' '|' < "$TMP/ht7.md")"
grep -v '"mode": "b"' $C/records.jsonl > "$TMP/nob.jsonl"
ht "$TMP/tl.tree.tsv" "$TMP/tl.txt" --records "$TMP/nob.jsonl" -o "$TMP/ht8.md" 2>"$TMP/err"
[ $? = 2 ] && grep -q "nob.jsonl: no mode b record" "$TMP/err" && [ ! -e "$TMP/ht8.md" ] && ok head-truth-records-need-b ||
	fail head-truth-records-need-b "$(cat "$TMP/err")"
ht "$TMP/tl_e.tree.tsv" "$TMP/tl.txt" --strict > "$TMP/ht2.md" 2>&1
[ $? = 1 ] && grep -qx '3 inputs in 1 leaves: k = 1 regret geomean 1.2772; 3 lose.' "$TMP/ht2.md" &&
	grep -q '| 0 | 3 | extern_mm | 1.2772 | 1.500 | ' "$TMP/ht2.md" && ok head-truth-extern-head-loses ||
	fail head-truth-extern-head-loses "$(tr '\n' '|' < "$TMP/ht2.md")"
# a leaf whose only class is extern_mm keeps it first, before the filled classes
awk -F, -v OFS=, 'NR > 2 && $(NF - 1) == "extern_mm" { $NF = 0.001 } { print }' "$TMP/tl.txt" > "$TMP/tl_e0.txt"
"$BIN/featurize" -o "$TMP/tl_e0.feat.tsv" "$TMP/tl_e0.txt" 2>/dev/null
"$BIN/fit" "$TMP/tl_e0.feat.tsv" --split none --grid "$FIX/rerank/grid_root.tsv" --leaf-rank head-x --leaf-fill all \
	-o "$TMP/tl_e0.tree.tsv" --metrics "$TMP/tl_e0.m.tsv" >/dev/null 2>&1
ht "$TMP/tl_e0.tree.tsv" "$TMP/tl.txt" > "$TMP/ht4.md" 2>&1
grep -q '| 0 | 3 | extern_mm | 1.2772 | 1.500 | ' "$TMP/ht4.md" && ok head-truth-extern-only-leaf-first ||
	fail head-truth-extern-only-leaf-first "$(tr '\n' '|' < "$TMP/ht4.md")"
ht "$TMP/tl_e.tree.tsv" "$TMP/nosuch.txt" -o "$TMP/ht3.md" 2>"$TMP/err"
[ $? = 2 ] && grep -q 'nosuch.txt: no such file' "$TMP/err" && [ ! -e "$TMP/ht3.md" ] && ok head-truth-missing-log ||
	fail head-truth-missing-log "$(cat "$TMP/err")"
ht "$TMP/tl.txt" "$TMP/tl.txt" 2>"$TMP/err" >/dev/null
[ $? = 2 ] && grep -q 'not a tree TSV\|eval failed' "$TMP/err" && ok head-truth-not-a-tree || fail head-truth-not-a-tree "$(cat "$TMP/err")"

# perf/models/truth_cv.py: leave one model out.  The truth split in two
# models (gpt2's prefill keys; its decode key renamed m2).  The one-leaf
# tree fit where extern_mm is fastest (tl_e) heads with E: without the
# truth k = 1 loses 1.25 and 1.1111 on gpt2 (geomean 1.1785), 1.5 on m2;
# with the other model's truth the leaf heads with TA, the truth's best on
# every input: 1.0000.  A depth-1 tree at ranking 1 fit on a log where
# extern_mm is fastest at m = 2048 only (tl_s) keeps two leaves: each
# model's truth reaches its own leaf alone, so the held-out one's leaf is
# unmarked and keeps its label's head (gpt2: extern_mm, 1.2500 and 1.1111;
# m2: TA, 1.0000), as --inputs shows
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("phase") == "decode":
        r["model"] = "m2"
    print(json.dumps(r))' check/truth/truth.jsonl > "$TMP/t2.jsonl"
awk -F, -v OFS=, 'NR > 2 && $(NF - 1) == "extern_mm" && $1 == 2048 { $NF = 0.001 } { print }' "$TMP/tl.txt" > "$TMP/tl_s.txt"
"$BIN/featurize" -o "$TMP/tl_s.feat.tsv" "$TMP/tl_s.txt" 2>/dev/null
"$BIN/fit" "$TMP/tl_s.feat.tsv" --split none --grid "$FIX/rerank/grid_depth1.tsv" --ranking 1 --leaf-rank head-x \
	-o "$TMP/tl_s.tree.tsv" --metrics "$TMP/tl_s.m.tsv" >/dev/null 2>&1
cv() { PYTHONPATH="$ROOT/python:$PYTHONPATH" python3 perf/models/truth_cv.py --bin "$BIN" "$@"; }
cv "$TMP/tl_e.tree.tsv" "$TMP/tl.txt" "$TMP/t2.jsonl" -o "$TMP/cv1.md" 2>"$TMP/err" &&
	grep -qx '| gpt2 | 2 | 1.1785 | 1.0000 | 1.1785 | 1.0000 |' "$TMP/cv1.md" &&
	grep -qx '| m2 | 1 | 1.5000 | 1.0000 | 1.5000 | 1.0000 |' "$TMP/cv1.md" &&
	grep -qx '| every held-out input | 3 | 1.2772 | 1.0000 | 1.2772 | 1.0000 |' "$TMP/cv1.md" &&
	! grep -q '| marked |' "$TMP/cv1.md" && ok truth-cv-others-truth-carries ||
	fail truth-cv-others-truth-carries "$(cat "$TMP/err" "$TMP/cv1.md" 2>/dev/null | tr '\n' '|')"
cv --inputs "$TMP/tl_s.tree.tsv" "$TMP/tl.txt" "$TMP/t2.jsonl" > "$TMP/cv2.md" 2>"$TMP/err" &&
	grep -qx '| gpt2 | 2 | 1.1785 | 1.1785 | 1.1785 | 1.1785 |' "$TMP/cv2.md" &&
	grep -qx '| gpt2 | 2048x768x2304 bfloat16 | 2 | 2 | no | extern_mm | extern_mm | 1.2500 | 1.2500 | 1.2500 | 1.2500 |' "$TMP/cv2.md" &&
	grep -qx '| gpt2 | 2048x768x50257 bfloat16 | 2 | 2 | no | extern_mm | extern_mm | 1.1111 | 1.1111 | 1.1111 | 1.1111 |' "$TMP/cv2.md" &&
	grep -Eqx '\| m2 \| 16x768x50257 bfloat16 \| 1 \| 1 \| no \| BM=64_BK=32_BN=64_s3_w4 \| BM=64_BK=32_BN=64_s3_w4 \| 1\.0000 \| 1\.0000 \| 1\.0000 \| 1\.0000 \|' "$TMP/cv2.md" &&
	ok truth-cv-inputs-unmarked-leaf || fail truth-cv-inputs-unmarked-leaf "$(cat "$TMP/err" "$TMP/cv2.md" | tr '\n' '|')"
cv --inputs "$TMP/tl_e.tree.tsv" "$TMP/tl.txt" "$TMP/t2.jsonl" > "$TMP/cv3.md" 2>/dev/null
grep -Eqx '\| m2 \| 16x768x50257 bfloat16 \| 0 \| 0 \| yes \| BM=64_BK=32_BN=64_s3_w4 \| [^|]* \| 1\.5000 \| 1\.0000 \| 1\.5000 \| 1\.0000 \|' "$TMP/cv3.md" &&
	ok truth-cv-inputs-marked-leaf || fail truth-cv-inputs-marked-leaf "$(tr '\n' '|' < "$TMP/cv3.md")"
cv "$TMP/tl_e.tree.tsv" "$TMP/tl.txt" check/truth/truth.jsonl -o "$TMP/cv4.md" 2>"$TMP/err"
[ $? = 2 ] && grep -q "of 1 model(s) (gpt2); leaving one out needs two" "$TMP/err" && [ ! -e "$TMP/cv4.md" ] &&
	ok truth-cv-one-model || fail truth-cv-one-model "$(cat "$TMP/err")"
# every key owned by both models (each record copied under a second name):
# holding one out leaves no truth to prune with, refused naming the model
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    print(l.strip()); r = json.loads(l); r["model"] = "twin"; print(json.dumps(r))' check/truth/truth.jsonl > "$TMP/twin.jsonl"
cv "$TMP/tl_e.tree.tsv" "$TMP/tl.txt" "$TMP/twin.jsonl" -o "$TMP/cv5.md" 2>"$TMP/err"
[ $? = 2 ] && grep -q "twin.jsonl: gpt2 owns every GEMM of the truth" "$TMP/err" && [ ! -e "$TMP/cv5.md" ] &&
	ok truth-cv-model-owns-all || fail truth-cv-model-owns-all "$(cat "$TMP/err")"

# perf/models/clock_probe.py: shapes are checked before torch is imported
# (a bad line names file, line and field; exit 1, nothing written); without a
# GPU (or torch) it exits 3 saying why; on a GPU one shape gives one row
printf 'op\tm\tk\tn\nmm\t16\t4096\t4096\naddmm\t16\t0\t768\n' > "$TMP/cp_bad.tsv"
python3 perf/models/clock_probe.py --shapes "$TMP/cp_bad.tsv" -o "$TMP/cp.md" 2>"$TMP/err" >/dev/null
[ $? = 1 ] && grep -q "cp_bad.tsv:3: field k: '0' is not a whole number" "$TMP/err" && [ ! -e "$TMP/cp.md" ] &&
	ok clock-probe-bad-field || fail clock-probe-bad-field "$(cat "$TMP/err")"
printf 'op\tm\tk\tn\nbmm\t16\t64\t64\n' > "$TMP/cp_op.tsv"
python3 perf/models/clock_probe.py --shapes "$TMP/cp_op.tsv" 2>"$TMP/err" >/dev/null
[ $? = 1 ] && grep -q "cp_op.tsv:2: field op: 'bmm' is not mm or addmm" "$TMP/err" && ok clock-probe-bad-op ||
	fail clock-probe-bad-op "$(cat "$TMP/err")"
# unreadable, a folder, a quote, an extra column, a blank line, too big, a bad -o
printf 'op\tm\tk\tn\nmm\t1"6\t64\t64\t\n' > "$TMP/cp_x.tsv"
printf 'op\tm\tk\tn\nmm\t"16"\t64\t64\n' > "$TMP/cp_q.tsv"
printf 'op\tm\tk\tn\nmm\t16\t64\t64\n\n' > "$TMP/cp_blank.tsv"
printf 'op\tm\tk\tn\nmm\t1048576\t1048576\t16\n' > "$TMP/cp_big.tsv"
printf 'op\tm\tk\tn\nmm\t16\t64\t\377\n' > "$TMP/cp_bin.tsv"
bad=
for c in "nosuch.tsv|nosuch.tsv: cannot read: No such file" "|: not a regular file of at most 1 MiB" \
	"cp_x.tsv|cp_x.tsv:2: expected 4 fields (op, m, k, n), got 5" "cp_blank.tsv|cp_blank.tsv:3: expected 4 fields (op, m, k, n), got 0" \
	"cp_big.tsv|cp_big.tsv:2: m\*k = 1099511627776 elements, over 1073741824" \
	"cp_q.tsv|cp_q.tsv:2: field m: '\"16\"' is not a whole number" "/dev/null/x|cannot read" "cp_bin.tsv|cp_bin.tsv: cannot read: "; do
	python3 perf/models/clock_probe.py --shapes "$TMP/${c%%|*}" 2>"$TMP/err" >/dev/null
	rc=$?
	if [ $rc != 1 ] || ! grep -q "${c#*|}" "$TMP/err" || grep -q Traceback "$TMP/err"; then bad="$c: rc $rc $(head -c 200 "$TMP/err")"; break; fi
done
[ -z "$bad" ] && ok clock-probe-bad-files || fail clock-probe-bad-files "$bad"
printf 'op\tm\tk\tn\nmm\t16\t64\t64\n' > "$TMP/cp_ok.tsv"
python3 perf/models/clock_probe.py --shapes "$TMP/cp_ok.tsv" -o "$TMP/nodir/x.md" 2>"$TMP/err" >/dev/null
[ $? = 1 ] && grep -q "nodir/x.md: not a file in a writable folder" "$TMP/err" && ok clock-probe-bad-out || fail clock-probe-bad-out "$(cat "$TMP/err")"
PY=${TORCH_PYTHON:-python3}
"$PY" perf/models/clock_probe.py --shapes "$TMP/cp_ok.tsv" --reps 1 -o "$TMP/cp.md" >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 3 ] && grep -Eq '^clock_probe.py: (no CUDA device|torch does not import)' "$TMP/err" && [ ! -e "$TMP/cp.md" ]; then
	ok clock-probe-no-gpu
elif [ $rc = 0 ] && [ "$(grep -c '^| mm | 16 | 64 | 64 | ' "$TMP/cp.md")" = 1 ]; then
	ok clock-probe-one-shape
else
	fail clock-probe-no-gpu "rc $rc: $(head -c 300 "$TMP/err")"
fi
finish
