#!/usr/bin/env bash
# perf/models (the whole-model judge), no GPU: the model list's checks
# (file:line:field), a phase a model lacks recorded as skipped without
# torch, report.py's table on a fixture with known figures (ratios,
# geomean, overhead, handler totals, goals; two runs pooled), gap.py's
# scores (one file and two), replay.py's --k check, an hf: arch of a bad
# form refused; records.py's record checks (a missing or wrong-typed field
# named by file:line and field in report.py and gap.py, with a little
# fuzzing; records.py done ignores a record whose key fields are not their
# words); every perf/ script with a #! line executable; run.sh's driver with a
# stand-in interpreter (check/models/fake_python.sh): the matrix order,
# cold then warm caches, resuming, TIME_LIMIT and PER_RUN_S.  TORCH
# prerequisite (TORCH_PYTHON with torch 2.11): replay.py reproduces the
# handler's logged lists of a GPU run and scores them (also one shape in
# two layouts, matched by the logged strides; entries it cannot replay left
# out); with transformers
# too, hf:<model_type> archs (an unknown one refused, two built and stepped
# in each phase) and one CPU dry run of run.py (gpt2, 1 layer, decode, mode b, GEMM-only max-autotune)
# writes a complete record.
. check/lib.sh
test_require PYTHON3 models-all
M=perf/models

# ---- the list ---------------------------------------------------------------
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 - "$M/models.tsv" <<'EOF'
import sys
import run
rows = run.read_models(sys.argv[1])
archs = {r["arch"] for r in rows.values()}
gemms = {r["gemms"] for r in rows.values()}
assert len(rows) >= 6 and {"gpt2", "bert", "vit", "llama"} <= archs, (len(rows), archs)
assert "addmm" in gemms and "mm" in gemms, gemms
assert run.phase_shape(rows["llama-3-8b"], "decode") == (16, 1)
assert run.phase_shape(rows["bert-base"], "decode") is None
more = run.read_models("perf/models/models-more.tsv")
assert len(more) == 5 and all(r["arch"].startswith("hf:") for r in more.values()), more
assert more["qwen3-8b"]["kv_heads"] == 8 and more["phi-3-mini"]["kv_heads"] is None
EOF
then ok models-list; else fail models-list "perf/models/models.tsv, models-more.tsv: see above"; fi
sed 's/^gpt2\tgpt2\t/gpt2\thf:gpt\/2\t/' "$M/models.tsv" >"$TMP/bad3.tsv"
expect_error models-bad-hf-arch "bad3.tsv:$(grep -n '^gpt2' "$TMP/bad3.tsv" | cut -d: -f1):arch: 'hf:gpt/2' is none of" "$TMP/bad.jsonl" \
	python3 "$M/run.py" --models "$TMP/bad3.tsv" --model gpt2 --phase prefill --mode a "$TMP/bad.jsonl"
sed 's/^gpt2\tgpt2\t2\t/gpt2\tgpt2\tx\t/' "$M/models.tsv" >"$TMP/bad.tsv"
line=$(grep -n '^gpt2' "$TMP/bad.tsv" | cut -d: -f1)
expect_error models-bad-field "bad.tsv:$line:layers: 'x' is not a positive integer" "$TMP/bad.jsonl" \
	python3 "$M/run.py" --models "$TMP/bad.tsv" --model gpt2 --phase prefill --mode a "$TMP/bad.jsonl"
sed 's/^gpt2\tgpt2\t/gpt2\tgpt3\t/' "$M/models.tsv" >"$TMP/bad2.tsv"
expect_error models-bad-arch "bad2.tsv:$line:arch: 'gpt3' is none of" "$TMP/bad.jsonl" \
	python3 "$M/run.py" --models "$TMP/bad2.tsv" --model gpt2 --phase prefill --mode a "$TMP/bad.jsonl"
expect_error models-unknown-model "--model gpt9: not in" "$TMP/bad.jsonl" \
	python3 "$M/run.py" --model gpt9 --phase prefill --mode a "$TMP/bad.jsonl"
python3 "$M/run.py" --model bert-base --phase decode --mode e "$TMP/skip.jsonl" 2>/dev/null
if python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read()); sys.exit(0 if (d["status"], d["mode"], d["rep"]) == ("skipped", "e", 1) else 1)' "$TMP/skip.jsonl" 2>/dev/null; then
	ok models-phase-skipped; else fail models-phase-skipped "$(head -c 200 "$TMP/skip.jsonl" 2>&1)"; fi

# ---- gap.py: e's lists scored on b's own timings (check/models/gap.jsonl:
# 3 GEMMs in b, 2 of them in e; b's winner kept in one; regrets 1.2 and 1)
if python3 "$M/gap.py" check/models/gap.jsonl >"$TMP/g.md"; then
	miss=
	for want in '| e | gpt2 | prefill | 1 | 2 | 1 | 1/2 | 1.0954 | 1.2000 | 1.0222 | 1.1183 | 2.0 |' \
		"e, all rows: 2 GEMMs, b's winner kept in 1, regret geomean 1.0954 (max 1.2000), time 1.0222, x/b geomean 1.1183" \
		"- gpt2 prefill addmm 2048x768x2304 torch.bfloat16: regret 1.2000 (b's winner type=triton_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4, 0.0500 ms; 2 of 4 kept)"; do
		grep -qF -- "$want" "$TMP/g.md" || miss="$miss [$want]"
	done
	[ "$(grep -c '^| [a-f] |' "$TMP/g.md")" = 1 ] || miss="$miss [one row only: rep 2 and a record without autotuned are not scored]"
	[ -z "$miss" ] && ok models-gap-figures || fail models-gap-figures "missing:$miss"
else
	fail models-gap-figures "gap.py failed"
fi
# two files (two runs of the matrix): paired within each, numbered, pooled
if python3 "$M/gap.py" check/models/gap.jsonl check/models/gap.jsonl >"$TMP/g2.md" &&
	grep -qF '| e | gpt2 | prefill | 2 | 2 | 1 | 1/2 | 1.0954 |' "$TMP/g2.md" &&
	grep -qF "e, all rows: 4 GEMMs, b's winner kept in 2, regret geomean 1.0954" "$TMP/g2.md"; then
	ok models-gap-runs; else fail models-gap-runs "$(head -c 600 "$TMP/g2.md")"; fi
{ head -1 check/models/gap.jsonl; echo '{"model": '; } >"$TMP/gbad.jsonl"
expect_error models-gap-bad-line "gbad.jsonl:2: not JSON" "$TMP/gbad.out" python3 "$M/gap.py" "$TMP/gbad.jsonl"

# ---- report.py on known figures ---------------------------------------------
if python3 "$M/report.py" check/models/records.jsonl --json "$TMP/r.json" >"$TMP/r.md"; then
	miss=
	for want in '| gpt2 | prefill | 10.0 | 30.0 | 22.0 | - | 14.0 | - | 1.0000 | 1.010 | 1.020 | - | - | 0.20 | 0.60 |' \
		'| 0.20 | 0.60 | - | - | 12.0/3.0 | 3/3 | 1/1 | 4.0%/0.0% | 49/49 | 980/147 | 1/48, 3.0 |' \
		'sum x / sum b: e 0.250 (precompile + benchmarking alone 0.200)' \
		'step e/b geomean 1.0150, worst 1.0200; c/b geomean 1.0100' \
		'sum(b - a) of cold compile seconds: e 0.200 (median 0.200), c 0.600' \
		'Handler (e): 15 mm and 48 addmm calls decided, mean k 2.78, mean Triton choices kept 1.78, 2 fallbacks' \
		'Step against the better of a and b, min(a, b): e geomean 1.0150 (worst 1.0200, 2 rows); f geomean - (worst -, 0 rows).' \
		'Goals: f (k = 1): step <= min(a, b) in geomean, no row over 1.02, overhead <= 0.10: not measured; e (auto): step <= 0.995 x min(a, b) in geomean, no row over 1.02, overhead <= 0.20: NOT met.' \
		'e against c, 2 rows where both ran: e ahead (lower compile, step within 0.5 %) in 1; sum of compile e/c 0.619, step e/c geomean 1.0050.' \
		'- llama-3-8b train b rep 1: timeout over PER_RUN_S=300 s'; do
		grep -qF -- "$want" "$TMP/r.md" || miss="$miss [$want]"
	done
	[ -z "$miss" ] && ok models-report-figures || fail models-report-figures "missing:$miss"
	grep -q 'bert-base' "$TMP/r.md" && fail models-report-skipped-quiet "a skipped phase is listed" || ok models-report-skipped-quiet
else
	fail models-report-figures "report.py failed"
fi

# min(a, b) where a is the faster: llama-3-8b decode's a at 0.45 ms, below b's
# 0.5: e/min = 0.51/0.45 = 1.1333, geomean with gpt2's 1.01 = 1.0699; f at
# 0.44 ms on that row (compile 9 s, a 8 s, b 28 s: overhead 1/20 = 0.05):
# 0.9778, the only f row, so f's goal is met
sed 's/\("model": "llama-3-8b", "phase": "decode", "mode": "a", .*"step_ms": \)0.6/\10.45/' \
	check/models/records.jsonl >"$TMP/rab.jsonl"
grep '"model": "llama-3-8b", "phase": "decode", "mode": "e", "rep": 1' check/models/records.jsonl |
	sed 's/"mode": "e"/"mode": "f"/; s/"step_ms": [0-9.]*/"step_ms": 0.44/; s/"compile_s": [0-9.]*/"compile_s": 9.0/' >>"$TMP/rab.jsonl"
if python3 "$M/report.py" "$TMP/rab.jsonl" >"$TMP/rab.md" &&
	grep -qF 'min(a, b): e geomean 1.0699 (worst 1.1333, 2 rows); f geomean 0.9778 (worst 0.9778, 1 rows).' "$TMP/rab.md" &&
	grep -qF 'overhead <= 0.10: met; e (auto)' "$TMP/rab.md"; then
	ok models-report-min-ab
else
	fail models-report-min-ab "$(grep -E 'min\(a, b\)' "$TMP/rab.md" | tr '\n' '|')"
fi

# two runs pooled (check/models/records-run2.jsonl: a second cold compile of
# gpt2 prefill a, b, e): medians over runs of compile seconds and of each
# run's step; c only in run 1; b's processes 3 + 2, its spread over all 5
if python3 "$M/report.py" check/models/records.jsonl check/models/records-run2.jsonl >"$TMP/r2.md" &&
	grep -qF '| gpt2 | prefill | 11.0 | 32.0 | 22.0 | - | 15.0 | - | 1.0550 | 0.953 | 0.967 | - | - | 0.19 | 0.52 | - | - | 13.0/4.0 | 5/4 | 2/2 | 13.7%/1.0% |' "$TMP/r2.md"; then
	ok models-report-pooled; else fail models-report-pooled "$(grep gpt2 "$TMP/r2.md" | head -c 400)"; fi

# b's fastest run: gpt2 prefill's b is 1.0 ms in run 1 and 1.11 in run 2 (each
# run's median), pooled 1.055; e is 1.005 pooled, so e/min(a, b) 0.9526 and
# e/min(a, fastest b) 1.005; llama-3-8b decode (b from run 1 alone) 1.02 in
# both: geomeans 0.9857 and 1.0125.  One run: the fastest is the pooled b.
if grep -qF 'min(a, b): e geomean 0.9857 (worst 1.0200, 2 rows)' "$TMP/r2.md" &&
	grep -qF "min(a, b's fastest run): e geomean 1.0125 (worst 1.0200, 2 rows, 1 with b from 2 or more runs)" "$TMP/r2.md" &&
	grep -qF "min(a, b's fastest run): e geomean 1.0150 (worst 1.0200, 2 rows, 0 with b from 2 or more runs)" "$TMP/r.md"; then
	ok models-report-fastest-b; else fail models-report-fastest-b "$(grep -F 'min(a' "$TMP/r2.md" "$TMP/r.md" | tr '\n' '|')"; fi

# ---- records: every field a reader uses is checked once (records.py) ---------
# a record of wrong field types is named by file:line and field, never a
# traceback: report.py stops there, --skip-bad-lines names it and goes on
GOOD='"model": "gpt2", "phase": "prefill", "mode": "b", "rep": 1'
bad_record() {   # NAME PATTERN RECORD-FIELDS: report.py stops at line 2, naming PATTERN
	printf '{%s, "status": "ok", "compile_s": 1.0, "step_ms": 2.0}\n{%s}\n' "$GOOD" "$3" >"$TMP/br.jsonl"
	expect_error "$1" "br\.jsonl:2: field $2" "$TMP/none.md" python3 "$M/report.py" "$TMP/br.jsonl"
}
bad_record models-report-no-phase "'phase': missing" '"model": "gpt2", "mode": "b", "rep": 1, "status": "ok"'
bad_record models-report-no-compile-s "'compile_s': missing" "$GOOD"', "status": "ok", "step_ms": 2.0'
bad_record models-report-string-step "'step_ms': '2\.0' is not a number > 0" "$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": "2.0"'
bad_record models-report-dict-why "'why': \{\"a\": 1\} is not a string" "$GOOD"', "status": "error", "why": {"a": 1}'
bad_record models-report-nan-step "'step_ms': NaN is not a number > 0" "$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": NaN'
bad_record models-report-autotuned-ms "'autotuned\[0\]\.ms\.extern_mm': 'x' is not a number >= 0" \
	"$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 2.0, "autotuned": [{"op": "mm", "ms": {"extern_mm": "x"}}]'
bad_record models-report-handler-decisions "'handler\.decisions': missing" \
	"$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 2.0, "handler": {"artifact": "A"}'
{ printf '{%s, "status": "ok", "compile_s": 1.0, "step_ms": 2.0}\n' "$GOOD"; printf '{"model": "gpt2", "phase": "prefill", "mode": "b", "rep": 2}\n'; printf '[%.0s' $(seq 3000); echo; printf '{"rep": %s}\n' "$(printf '%05000d' 1)"; } >"$TMP/skip.jsonl"
if python3 "$M/report.py" --skip-bad-lines "$TMP/skip.jsonl" >"$TMP/skip.md" 2>"$TMP/skip.err" &&
	grep -q "skip.jsonl:2: field 'status': missing: left out" "$TMP/skip.err" &&
	grep -q "skip.jsonl:3: not JSON" "$TMP/skip.err" && grep -q "skip.jsonl:4: not JSON" "$TMP/skip.err" &&
	! grep -q Traceback "$TMP/skip.err" && grep -q '^| gpt2 | prefill |' "$TMP/skip.md"; then
	ok models-report-skip-bad-records; else fail models-report-skip-bad-records "$(head -c 400 "$TMP/skip.err")"; fi
printf '{%s, "status": "ok", "compile_s": 1.0, "step_ms": 2.0, "autotuned": [{"op": "mm"}]}\n' "$GOOD" >"$TMP/ga.jsonl"
expect_error models-gap-bad-record "^gap\.py: .*ga\.jsonl:1: field 'autotuned\[0\]\.ms': missing" "$TMP/none.md" \
	python3 "$M/gap.py" "$TMP/ga.jsonl"
# physical bounds (records.py TIME_MAX, TIME_MIN, SIZE_MAX): a whole number
# of 400 digits, a float near the largest, a time below 1 ns, a control
# character in a text of the table, each named, never an overflow's traceback
BIG=$(printf '1%0400d' 0)
bad_record models-report-bigint-compile "'compile_s': 10000000000.*\\(401 characters\\) is not a number >= 0 \\(at most 1e9\\)" \
	"$GOOD"', "status": "ok", "compile_s": '"$BIG"', "step_ms": 2.0'
bad_record models-report-huge-step "'step_ms': 1\\.7e\\+308 is not a number > 0 \\(a time in \\[1e-06, 1e9\\]\\)" \
	"$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 1.7e308'
bad_record models-report-tiny-step "'step_ms': 5e-324 is not a number > 0" "$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 5e-324'
bad_record models-report-huge-autotuned-ms "'autotuned\\[0\\]\\.ms\\.extern_mm': 1\\.7e\\+308 is not a number >= 0" \
	"$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 2.0, "autotuned": [{"op": "mm", "ms": {"extern_mm": 1.7e308}}]'
bad_record models-report-bigint-handler "'handler\\.decisions\\.mm': 1000.* is not a whole number in \\[0, 2\\*\\*62\\]" \
	"$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 2.0, "handler": {"decisions": {"mm": '"$BIG"'}, "k_sum": {}, "kept_triton_sum": {}, "fallbacks": {}}'
bad_record models-report-device-newline "'device': 'x\\|y\\\\n# z' is not a text of at most 200 printable characters" \
	"$GOOD"', "status": "ok", "compile_s": 1.0, "step_ms": 2.0, "device": "x|y\n# z"'
# run.sh's resume (records.py done) names such a record and goes on
printf '{%s, "status": "ok", "compile_s": %s, "step_ms": 2.0}\n{"model": "gpt2", "phase": "decode", "mode": "b", "rep": 1, "status": "error"}\n' \
	"$GOOD" "$BIG" >"$TMP/big.jsonl"
got=$(python3 "$M/records.py" done "$TMP/big.jsonl" 2>"$TMP/big.err")
if [ "$got" = "gpt2 decode b 1" ] && grep -q "big.jsonl:1: field 'compile_s': 1000.*(401 characters) is not a number >= 0 (at most 1e9): ignored" "$TMP/big.err" &&
	! grep -q Traceback "$TMP/big.err"; then
	ok models-records-done-bigint; else fail models-records-done-bigint "[$got] $(head -c 400 "$TMP/big.err")"; fi
# --json is written whole or not at all, and before the table: a missing
# folder is one line naming it
expect_error models-report-json-no-folder "^report\.py: .*nodir/r\.json: No such file or directory$" "$TMP/nodir/r.json" \
	python3 "$M/report.py" check/models/records.jsonl --json "$TMP/nodir/r.json"
if [ ! -s "$TMP/stdout" ] && ! grep -q Traceback "$TMP/stderr"; then ok models-report-json-no-folder-no-table
else fail models-report-json-no-folder-no-table "$(head -c 300 "$TMP/stdout")"; fi
# records.py done: a key field that is not its word cannot forge another key
printf '%s\n' '{"model": "gpt2", "phase": "prefill b 1\ngpt2 prefill", "mode": "a", "rep": 1, "status": "ok"}' \
	'{"model": "gpt2", "phase": "prefill", "mode": "b c", "rep": 1, "status": "error"}' \
	'{"model": "gpt2", "phase": "prefill", "mode": "b", "rep": "1", "status": "error"}' \
	'{"model": "gpt2", "phase": "prefill", "mode": "b", "rep": 0, "status": "error"}' \
	'{"model": "gpt2", "phase": "prefill", "mode": "b", "rep": true, "status": "error"}' \
	'{"model": "gpt2", "phase": "prefill", "mode": "b", "rep": 1, "status": "done"}' \
	'{"model": "gpt2", "phase": "decode", "mode": "b", "rep": 2, "status": "error"}' >"$TMP/forge.jsonl"
got=$(python3 "$M/records.py" done "$TMP/forge.jsonl" 2>"$TMP/forge.err")
if [ "$got" = "gpt2 decode b 2" ] && [ "$(grep -c ': ignored (its run, if any, is redone)$' "$TMP/forge.err")" = 6 ] &&
	grep -q "forge.jsonl:1: field 'phase': 'prefill b 1\\\\ngpt2 prefill' is not one of prefill, decode, train" "$TMP/forge.err" &&
	grep -q "forge.jsonl:2: field 'mode': 'b c' is not one of a, b, c, d, e, f" "$TMP/forge.err" &&
	grep -q "forge.jsonl:3: field 'rep': '1' is not a whole number" "$TMP/forge.err" &&
	grep -q "forge.jsonl:5: field 'rep': true is not" "$TMP/forge.err" &&
	grep -q "forge.jsonl:6: field 'status': 'done' is not one of" "$TMP/forge.err"; then
	ok models-records-done-key-fields; else fail models-records-done-key-fields "[$got] $(head -c 500 "$TMP/forge.err")"; fi
# a little fuzzing: each field of fixture records, wrong-typed or removed
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 check/models/fuzz_fields.py report check/models/records-run2.jsonl \
	{} --json "$TMP/fz.json" >"$TMP/fz.out" 2>&1; then ok models-report-fuzz-fields
else fail models-report-fuzz-fields "$(head -c 600 "$TMP/fz.out")"; fi
head -2 check/models/gap.jsonl >"$TMP/gap2.jsonl"
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" python3 check/models/fuzz_fields.py gap "$TMP/gap2.jsonl" {} >"$TMP/fz.out" 2>&1; then
	ok models-gap-fuzz-fields; else fail models-gap-fuzz-fields "$(head -c 600 "$TMP/fz.out")"; fi
# the perf drivers run as programs: a file under perf/ with a #! line is executable
bad=
while IFS= read -r -d '' f; do
	[ "$(head -c 2 "$f")" = '#!' ] && [ ! -x "$f" ] && bad="$bad $f"
done < <(find perf -type f \( -name '*.sh' -o -name '*.py' \) -print0)
[ -z "$bad" ] && ok models-perf-scripts-executable || fail models-perf-scripts-executable "not executable:$bad"

# ---- run.sh's driver, with the stand-in interpreter -------------------------
FAKE=$ROOT/check/models/fake_python.sh
drive() {   # OUT, environment from the caller
	PYTHON=$FAKE CACHE_ROOT=$TMP/cache MODELS="gpt2 bert-base" PHASES=${PHASES:-prefill decode} \
		MODES_FIRST="b a" MODES_LATER=${MODES_LATER-f} bash "$M/run.sh" "$1" >"$TMP/drive.out" 2>&1
}
keys() { python3 -c 'import json,sys; [print(d["model"], d["phase"], d["mode"], d["rep"], d.get("cache", "-"), d["status"]) for d in map(json.loads, open(sys.argv[1]))]' "$1"; }
REPS=2 drive "$TMP/d1"
keys "$TMP/d1/records.jsonl" >"$TMP/got"
cat >"$TMP/want" <<'EOF'
gpt2 prefill b 1 cold ok
gpt2 prefill a 1 cold ok
bert-base prefill b 1 cold ok
bert-base prefill a 1 cold ok
gpt2 decode b 1 cold ok
gpt2 decode a 1 cold ok
bert-base decode b 1 cold ok
bert-base decode a 1 cold ok
gpt2 prefill f 1 cold ok
bert-base prefill f 1 cold ok
gpt2 decode f 1 cold ok
bert-base decode f 1 cold ok
gpt2 prefill b 2 warm ok
gpt2 prefill a 2 warm ok
bert-base prefill b 2 warm ok
bert-base prefill a 2 warm ok
gpt2 decode b 2 warm ok
gpt2 decode a 2 warm ok
bert-base decode b 2 warm ok
bert-base decode a 2 warm ok
gpt2 prefill f 2 warm ok
bert-base prefill f 2 warm ok
gpt2 decode f 2 warm ok
bert-base decode f 2 warm ok
EOF
test_cmp models-run-order "$TMP/want" "$TMP/got"
[ -s "$TMP/d1/report.md" ] && ok models-run-report || fail models-run-report "no report.md"
REPS=2 drive "$TMP/d1"
n=$(wc -l <"$TMP/d1/records.jsonl")
[ "$n" -eq 24 ] && ! grep -q '^== ' "$TMP/drive.out" && ok models-run-resume || fail models-run-resume "$n records after a second call"
REPS=3 drive "$TMP/d1"
n=$(wc -l <"$TMP/d1/records.jsonl")
[ "$n" -eq 36 ] && ok models-run-more-reps || fail models-run-more-reps "$n records"
# TIME_LIMIT: bert-base sleeps past the call's limit: no record for it, the
# call stops there and says so; the next call does it
FAKE_SLEEP_bert_base=8 TIME_LIMIT=5 MIN_START=1 REPS=1 drive "$TMP/d2"
keys "$TMP/d2/records.jsonl" >"$TMP/got"
printf 'gpt2 prefill b 1 cold ok\ngpt2 prefill a 1 cold ok\n' >"$TMP/want"
if cmp -s "$TMP/want" "$TMP/got" && grep -q 'stopped by TIME_LIMIT=5s' "$TMP/drive.out"; then ok models-run-time-limit
else fail models-run-time-limit "$(tr '\n' '|' <"$TMP/got") $(grep -c stopped "$TMP/drive.out")"; fi
REPS=1 drive "$TMP/d2"
n=$(wc -l <"$TMP/d2/records.jsonl")
[ "$n" -eq 12 ] && ok models-run-time-limit-resumed || fail models-run-time-limit-resumed "$n records"
# PER_RUN_S: a run over it gets a timeout record and is not retried
FAKE_SLEEP_gpt2=5 PER_RUN_S=2 REPS=1 MODES_LATER= PHASES=prefill drive "$TMP/d3"
if python3 -c 'import json,sys; d=[json.loads(l) for l in open(sys.argv[1])]; t=[x for x in d if x["status"] == "timeout"]; sys.exit(0 if len(t) == 2 and all(x["model"] == "gpt2" for x in t) and len(d) == 4 else 1)' "$TMP/d3/records.jsonl"; then
	ok models-run-per-run-timeout; else fail models-run-per-run-timeout "$(keys "$TMP/d3/records.jsonl" | tr '\n' '|')"; fi

# ---- judge.sh: per model, a f e b in run1, then b cold again in run2 ----------
judge() {   # OUT, environment from the caller
	PYTHON=$FAKE CACHE_ROOT=$TMP/jcache MODELS="gpt2 bert-base" PHASES=prefill MIN_START=1 \
		bash "$M/judge.sh" "$1" >"$TMP/judge.out" 2>&1
}
jkeys() { for r in "$1"/run*; do keys "$r/records.jsonl" | sed "s|^|${r##*/} |"; done; }
judge "$TMP/j1"
jkeys "$TMP/j1" >"$TMP/got"
cat >"$TMP/want" <<'EOF2'
run1 gpt2 prefill a 1 cold ok
run1 gpt2 prefill f 1 cold ok
run1 gpt2 prefill e 1 cold ok
run1 gpt2 prefill b 1 cold ok
run1 bert-base prefill a 1 cold ok
run1 bert-base prefill f 1 cold ok
run1 bert-base prefill e 1 cold ok
run1 bert-base prefill b 1 cold ok
run2 gpt2 prefill b 1 cold ok
run2 bert-base prefill b 1 cold ok
EOF2
test_cmp models-judge-runs "$TMP/want" "$TMP/got"
# a row's second b right after its first (not after every row's)
grep -o '^judge.sh: [a-z0-9-]*, run [0-9]' "$TMP/judge.out" | tr '\n' '|' >"$TMP/got"
printf 'judge.sh: gpt2, run 1|judge.sh: gpt2, run 2|judge.sh: bert-base, run 1|judge.sh: bert-base, run 2|' >"$TMP/want"
test_cmp models-judge-order "$TMP/want" "$TMP/got"
grep -qF "f geomean 1.0000 (worst 1.0000, 2 rows, 2 with b from 2 or more runs)" "$TMP/j1/report.md" && ok models-judge-report ||
	fail models-judge-report "$(grep -F 'fastest' "$TMP/j1/report.md")"
# out of time inside bert-base's run1: the next call finishes it, and its run2
FAKE_SLEEP_bert_base=4 TIME_LIMIT=6 judge "$TMP/j2"
n1=$(cat "$TMP"/j2/run*/records.jsonl | wc -l)
judge "$TMP/j2"
jkeys "$TMP/j2" >"$TMP/got"
jkeys "$TMP/j1" >"$TMP/want"
[ "$n1" -lt 10 ] && cmp -s "$TMP/want" "$TMP/got" && ok models-judge-resume ||
	fail models-judge-resume "$n1 records after call 1; $(tr '\n' '|' <"$TMP/got")"
# the first call said it stopped, and started no second b for the row it
# stopped in (run1's b is b's first cold compile)
FAKE_SLEEP_bert_base=4 TIME_LIMIT=6 judge "$TMP/j3"
if grep -q '^judge.sh: stopped by TIME_LIMIT=6s; call again' "$TMP/judge.out" &&
	! grep -q 'bert-base, run 2' "$TMP/judge.out" && ! grep -q '"bert-base"' "$TMP/j3/run2/records.jsonl"; then
	ok models-judge-stopped; else fail models-judge-stopped "$(tr '\n' '|' <"$TMP/judge.out")"; fi
# OUTDIR is the caller's (run.sh's are the repository root's)
(cd "$TMP" && PYTHON=$FAKE CACHE_ROOT=$TMP/jcache MODELS=gpt2 PHASES=prefill MIN_START=1 B_COMPILES=1 \
	bash "$ROOT/$M/judge.sh" jrel >/dev/null 2>&1)
[ -s "$TMP/jrel/run1/records.jsonl" ] && [ ! -e "$ROOT/jrel" ] && ok models-judge-outdir-caller ||
	fail models-judge-outdir-caller "$(ls -d "$TMP/jrel" "$ROOT/jrel" 2>&1 | tr '\n' '|')"
for v in B_COMPILES=0 B_COMPILES=10 B_COMPILES=01; do
	expect_error "models-judge-bad-${v%%=*}-${v#*=}" "${v%%=*}='${v#*=}': expected 1 to 9" "$TMP/jb" \
		env "$v" bash "$M/judge.sh" "$TMP/jb"
done
# MIN_START 0 would hand run.sh TIME_LIMIT 0, which timeout reads as none
expect_error models-judge-bad-min-start "MIN_START='0': expected a number >= 1" "$TMP/jb" \
	env MIN_START=0 bash "$M/judge.sh" "$TMP/jb"
# a setting run.sh checks: its reason reaches the user, nothing is written
expect_error models-judge-run-refusal "run.sh: PHASES: 'bogus' is none of prefill decode train" "$TMP/jb" \
	env PYTHON="$FAKE" PHASES=bogus MODELS=gpt2 bash "$M/judge.sh" "$TMP/jb"
expect_error models-judge-no-b "MODES='a f' has no b: B_COMPILES must be 1" "$TMP/jb" \
	env MODES="a f" bash "$M/judge.sh" "$TMP/jb"

expect_error models-run-mode-twice "MODES_FIRST/MODES_LATER: 'b' given twice" "$TMP/rt" \
	env PYTHON="$FAKE" MODES_FIRST="b a" MODES_LATER="b" bash "$M/run.sh" "$TMP/rt"
expect_error models-run-phase-twice "PHASES: 'decode' given twice" "$TMP/rt" \
	env PYTHON="$FAKE" PHASES="decode prefill decode" bash "$M/run.sh" "$TMP/rt"
# MODELS split on newlines too: both models run, not the first line's alone
PYTHON=$FAKE CACHE_ROOT=$TMP/cache MODELS=$'gpt2\nbert-base' PHASES=prefill MODES_FIRST=a MODES_LATER= \
	REPS=1 bash "$M/run.sh" "$TMP/rnl" >/dev/null 2>&1
[ "$(keys "$TMP/rnl/records.jsonl" | cut -d' ' -f1 | tr '\n' ' ')" = "gpt2 bert-base " ] &&
	ok models-run-models-newline || fail models-run-models-newline "$(keys "$TMP/rnl/records.jsonl" | tr '\n' '|')"

# SIGKILL from outside (the OOM killer) before the limit: no record, not a
# timeout, and the next call runs it again
FAKE_KILL_gpt2=1 PER_RUN_S=300 REPS=1 MODES_LATER= PHASES=prefill drive "$TMP/d4"
keys "$TMP/d4/records.jsonl" >"$TMP/got"
PER_RUN_S=300 REPS=1 MODES_LATER= PHASES=prefill drive "$TMP/d4"
keys "$TMP/d4/records.jsonl" >"$TMP/got2"
if printf 'bert-base prefill b 1 cold ok\nbert-base prefill a 1 cold ok\n' | cmp -s - "$TMP/got" &&
	grep -q 'killed by SIGKILL after' "$TMP/d4/console.txt" &&
	[ "$(grep -c 'gpt2 prefill [ab] 1 cold ok' "$TMP/got2")" = 2 ]; then ok models-run-killed-redone
else fail models-run-killed-redone "$(tr '\n' '|' <"$TMP/got") / $(tr '\n' '|' <"$TMP/got2")"; fi

# SIGTERM to run.sh (as Ctrl-C or a kill of its process group would reach
# it) stops the run under timeout too, which sits in its own process
# group: exit 130, no record, no run.py left behind
# one run of the stand-in: gpt2, prefill, mode a, rep 1 (env execs: $! is run.sh)
one=(env PYTHON="$FAKE" CACHE_ROOT="$TMP/cache" MODELS=gpt2 PHASES=prefill MODES_FIRST=a MODES_LATER= REPS=1)
"${one[@]}" FAKE_SLEEP_gpt2=41.7 bash "$M/run.sh" "$TMP/d5" >"$TMP/d5.out" 2>&1 &
rpid=$!
sleepers() { for p in /proc/[0-9]*; do tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q '^sleep 41.7 ' && echo "${p#/proc/}"; done; }
for _ in $(seq 100); do grep -q '^== gpt2 prefill a' "$TMP/d5.out" 2>/dev/null && break; sleep 0.1; done
sleep 0.3; kill -TERM "$rpid"; wait "$rpid"; rc=$?
sleep 0.3
if [ "$rc" = 130 ] && [ -z "$(sleepers)" ] && [ ! -s "$TMP/d5/records.jsonl" ] &&
	grep -q 'run.sh: interrupted during gpt2 prefill a rep 1: no record' "$TMP/d5.out"; then
	ok models-run-interrupted
else
	fail models-run-interrupted "rc=$rc, left: $(sleepers | tr '\n' ' '); $(tail -2 "$TMP/d5.out" | tr '\n' '|')"
	for p in $(sleepers); do kill "$p"; done
fi

# SIGTERM to run.sh's whole process group, as a Ctrl-C sends SIGINT to it:
# the same, and the message still reaches console.txt (its tee outlives
# the signal); the next call redoes the run
( set -m; "${one[@]}" FAKE_SLEEP_gpt2=41.7 bash "$M/run.sh" "$TMP/d6" >/dev/null 2>&1 & echo $! >"$TMP/d6.pid"; wait $!; echo $? >"$TMP/d6.rc" ) &
opid=$!
for _ in $(seq 100); do grep -q '^== gpt2 prefill a' "$TMP/d6/console.txt" 2>/dev/null && break; sleep 0.1; done
sleep 0.3; kill -TERM -- "-$(cat "$TMP/d6.pid")"; wait "$opid"
sleep 0.3
"${one[@]}" bash "$M/run.sh" "$TMP/d6" >/dev/null 2>&1
if [ "$(cat "$TMP/d6.rc")" = 130 ] && [ -z "$(sleepers)" ] &&
	grep -q 'run.sh: interrupted during gpt2 prefill a rep 1: no record' "$TMP/d6/console.txt" &&
	[ "$(keys "$TMP/d6/records.jsonl")" = "gpt2 prefill a 1 cold ok" ]; then
	ok models-run-interrupted-group
else
	fail models-run-interrupted-group "rc=$(cat "$TMP/d6.rc"), left: $(sleepers | tr '\n' ' '); $(tail -2 "$TMP/d6/console.txt" | tr '\n' '|')"
	for p in $(sleepers); do kill "$p"; done
fi

# the same SIGTERM to judge.sh alone reaches the run.sh it runs: exit 130,
# nothing left running, no record; a second call continues the row
PYTHON=$FAKE CACHE_ROOT=$TMP/cache MODELS=gpt2 FAKE_SLEEP_gpt2=41.7 bash "$M/judge.sh" "$TMP/j5" >"$TMP/j5.out" 2>&1 &
jpid=$!
for _ in $(seq 100); do grep -q '^== gpt2 decode a' "$TMP/j5/run1/console.txt" 2>/dev/null && break; sleep 0.1; done
sleep 0.3; kill -TERM "$jpid"; wait "$jpid"; rc=$?
sleep 0.3
if [ "$rc" = 130 ] && [ -z "$(sleepers)" ] && [ ! -s "$TMP/j5/run1/records.jsonl" ] &&
	grep -q '^judge.sh: interrupted during gpt2, run 1; call again' "$TMP/j5.out" &&
	PYTHON=$FAKE CACHE_ROOT=$TMP/cache MODELS=gpt2 bash "$M/judge.sh" "$TMP/j5" >/dev/null 2>&1 &&
	[ "$(keys "$TMP/j5/run1/records.jsonl" | cut -d' ' -f3 | tr '\n' ' ')" = "a f e b " ]; then
	ok models-judge-interrupted
else
	fail models-judge-interrupted "rc=$rc, left: $(sleepers | tr '\n' ' '); $(tail -2 "$TMP/j5.out" | tr '\n' '|')"
	for p in $(sleepers); do kill "$p"; done
fi

# a SIGTERM outside a run (here in the torch check) lets the command in the
# foreground end; then run.sh says so and exits 130 (not 143), no record
"${one[@]}" FAKE_CHECK_SLEEP=1.37 bash "$M/run.sh" "$TMP/d7" >"$TMP/d7.out" 2>&1 &
rpid=$!
checkers() { for p in /proc/[0-9]*; do tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q '^sleep 1.37 ' && echo "${p#/proc/}"; done; }
for _ in $(seq 100); do [ -n "$(checkers)" ] && break; sleep 0.1; done
kill -TERM "$rpid"; wait "$rpid"; rc=$?
if [ "$rc" = 130 ] && [ ! -s "$TMP/d7/records.jsonl" ] &&
	grep -q '^run.sh: interrupted outside a run; call again with the same OUTDIR' "$TMP/d7.out"; then
	ok models-run-interrupted-outside
else
	fail models-run-interrupted-outside "rc=$rc; $(tail -2 "$TMP/d7.out" | tr '\n' '|')"
fi

# a SIGKILL to run.sh leaves its run behind (timeout's own process group):
# while it runs, a second call is refused (OUTDIR locked) and writes
# nothing; once it has written its record, a third call finds the record
# and adds none (one record, not two); FLOCK (util-linux)
if test_skip_unless FLOCK models-run-left-behind; then
	"${one[@]}" FAKE_SLEEP_gpt2=2.41 bash "$M/run.sh" "$TMP/d8" >/dev/null 2>&1 &
	rpid=$!
	behind() { for p in /proc/[0-9]*; do tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q '^sleep 2.41 ' && echo "${p#/proc/}"; done; }
	for _ in $(seq 100); do [ -n "$(behind)" ] && break; sleep 0.1; done
	kill -KILL "$rpid"; wait "$rpid" 2>/dev/null
	"${one[@]}" bash "$M/run.sh" "$TMP/d8" >"$TMP/d8.out" 2>&1; rc=$?
	busy=$(keys "$TMP/d8/records.jsonl" 2>/dev/null)
	for _ in $(seq 100); do [ -z "$(behind)" ] && break; sleep 0.1; done
	sleep 0.3
	"${one[@]}" bash "$M/run.sh" "$TMP/d8" >/dev/null 2>&1; rc3=$?
	if [ "$rc" = 1 ] && [ -z "$busy" ] && [ "$rc3" = 0 ] &&
		grep -q "^run.sh: $TMP/d8 is in use by another run.sh, or by a run one left behind (SIGKILL or SIGQUIT; \`fuser -v $TMP/d8\` names it)" "$TMP/d8.out" &&
		[ "$(keys "$TMP/d8/records.jsonl")" = "gpt2 prefill a 1 cold ok" ]; then
		ok models-run-left-behind
	else
		fail models-run-left-behind "rc=$rc rc3=$rc3 busy='$busy'; $(tail -1 "$TMP/d8.out"); $(keys "$TMP/d8/records.jsonl" | tr '\n' '|')"
		for p in $(behind); do kill "$p"; done
	fi
	# judge.sh passes run.sh's refusal on: a locked OUTDIR/run1 (held here by
	# flock(1) itself) is named on judge.sh's stderr, exit 1, no record
	mkdir -p "$TMP/j6/run1"
	hold_lock "$TMP/j6/run1" 2
	PYTHON=$FAKE CACHE_ROOT=$TMP/jcache MODELS=gpt2 bash "$M/judge.sh" "$TMP/j6" >/dev/null 2>"$TMP/j6.err"; rc=$?
	wait "$held_pid"
	if [ "$rc" = 1 ] && [ ! -s "$TMP/j6/run1/records.jsonl" ] &&
		grep -q "^run.sh: $TMP/j6/run1 is in use by another run.sh" "$TMP/j6.err"; then
		ok models-judge-locked-run
	else fail models-judge-locked-run "rc=$rc; $(head -c 300 "$TMP/j6.err")"; fi
fi

expect_error models-replay-bad-k "--k auto,0: 'auto' or integers >= 1" "$TMP/rk.out" \
	python3 "$M/replay.py" check/models/replay.jsonl --k auto,0

# ---- TORCH: replay.py on known lists, one CPU dry run of run.py ---------------
test_require TORCH models-torch
# check/models/replay.jsonl: gpt2 decode on the H200 (RESULTS 9.4), b's 5
# GEMMs and e's handler log; e's lists came from Inductor's own handler call,
# with the H200 artifact before its truth: make heuristic GPU=h200 TRUTH=
# (the committed H200 data; gen/'s until the eleventh session)
env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -s -C "$ROOT" BUILD="${BIN%/bin}" OUT="$TMP/nt" \
	heuristic GPU=h200 TRUTH= >"$TMP/nt.out" 2>&1 || fail models-replay-artifact "$(tail -3 "$TMP/nt.out")"
if "$TORCH_PYTHON" "$M/replay.py" check/models/replay.jsonl --k auto,1,10 \
	--artifact "$TMP/nt/h200/_MMRankingH200.py" >"$TMP/rp.md" 2>"$TMP/rp.err" &&
	grep -qF '| auto | 5 | 3 | 1.0254 | 1.1326 | 1.0181 | 3.00 | 3.80 | 5/5 |' "$TMP/rp.md" &&
	grep -qF '| 10 | 5 | 5 | 1.0000 | 1.0000 | 1.0000 | 9.20 | 10.00 | - |' "$TMP/rp.md"; then
	ok models-replay-known-lists; else fail models-replay-known-lists "$(cat "$TMP/rp.md" "$TMP/rp.err" | head -c 600)"; fi
# check/models/replay-layouts.jsonl: mistral-7b train on the H200 (RESULTS
# 9.5), one shape (1024x1024x4096) autotuned in two layouts, e's two lists
# logged with their strides, the other layout's first: each GEMM is held
# against its own layout's list (by shape alone, one of the two differs)
if "$TORCH_PYTHON" "$M/replay.py" check/models/replay-layouts.jsonl --k auto >"$TMP/rl.md" 2>"$TMP/rl.err" &&
	grep -qF '| auto | 2 | 2 | 1.0000 | 1.0000 | 1.0000 | 3.50 | 4.50 | 2/2 |' "$TMP/rl.md"; then
	ok models-replay-layouts; else fail models-replay-layouts "$(cat "$TMP/rl.md" "$TMP/rl.err" | head -c 600)"; fi
# an autotuned entry records.py lets through but that cannot be replayed
# (strides of another rank, a dtype torch lacks, a symbolic size) is left
# out; a kept list without a timed choice scores inf; never a traceback
python3 - check/models/replay.jsonl "$TMP/odd.jsonl" <<'EOF'
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
t = rs[0]["autotuned"]
t[0]["strides"] = [[768, 1, 1], [3072, 1]]
t[1]["dtype"] = "torch.cuda"
t[2]["m"] = None
t[3]["ms"] = {c: (v if c.startswith("type=") else None) for c, v in t[3]["ms"].items()}
with open(sys.argv[2], "w") as fh:
    fh.writelines(json.dumps(r) + "\n" for r in rs)
EOF
if "$TORCH_PYTHON" "$M/replay.py" "$TMP/odd.jsonl" --k 1,10 >"$TMP/odd.md" 2>"$TMP/odd.err" &&
	grep -q '^2 GEMMs (mm, addmm) of 1 cold mode-b records' "$TMP/odd.md" &&
	grep -qF '| 1 | 2 | 0 | inf | inf | inf |' "$TMP/odd.md" &&
	grep -qF '| 10 | 2 | 2 | 1.0000 | 1.0000 | 1.0000 |' "$TMP/odd.md"; then
	ok models-replay-odd-entries; else fail models-replay-odd-entries "$(cat "$TMP/odd.md" "$TMP/odd.err" | tail -c 600)"; fi
if ! "$TORCH_PYTHON" -c 'import transformers' 2>/dev/null; then
	skip models-torch "[TORCH] $TORCH_PYTHON cannot import transformers"; finish
fi
# hf:<model_type>: an unknown type is refused by name; two known ones build
# (tiny sizes) with the list's sizes and run a step of each phase on the CPU
sed 's/^gpt2\tgpt2\t/gpt2\thf:nonesuch\t/' "$M/models.tsv" >"$TMP/bad4.tsv"
expect_error models-hf-unknown "transformers has no causal LM of model_type 'nonesuch'" "$TMP/bad.jsonl" \
	"$TORCH_PYTHON" "$M/run.py" --models "$TMP/bad4.tsv" --model gpt2 --phase prefill --mode a "$TMP/bad.jsonl"
if PYTHONPATH="$ROOT/$M:$PYTHONPATH" "$TORCH_PYTHON" - >"$TMP/hf.out" 2>&1 <<'EOF'
import torch
import run
base = dict(layers=1, hidden=64, heads=4, ffn=256, vocab=1000, max_pos=128, prefill_batch=1,
            prefill_seq=8, decode_batch=2, train_batch=1, train_seq=8, gemms="-")
want = {  # arch -> (kv_heads, its Linear layers (in, out, bias): one decoder layer and the head)
    # qwen3 keeps its config's head_dim 128: q 4 x 128, k and v 2 x 128
    "hf:qwen3": (2, {(64, 512, False), (64, 256, False), (512, 64, False), (256, 64, False),
                     (64, 1000, False)}),
    "hf:gpt_neox": (None, {(64, 192, True), (64, 64, True), (64, 256, True), (256, 64, True),
                           (64, 1000, False)})}
for arch, (kv, lin) in want.items():
    r = dict(base, name=arch, arch=arch, kv_heads=kv)
    assert run.arch_error(arch) is None, arch
    for ph in run.PHASES:
        m, inp, lab = run.build(r, ph, device="cpu")
        out = run.make_step(m, ph, inp, lab, device="cpu")()
        b, s = run.phase_shape(r, ph)
        if ph == "train":
            assert out.dim() == 0 and m.get_output_embeddings().weight.grad is not None, arch
        else:
            assert tuple(out.logits.shape) == (b, s, 1000), (arch, ph, out.logits.shape)
    got = {(x.in_features, x.out_features, x.bias is not None) for x in m.modules()
           if isinstance(x, torch.nn.Linear)}
    assert got == lin and m.config.num_hidden_layers == 1, (arch, got)
EOF
then ok models-hf-build; else fail models-hf-build "$(tail -c 400 "$TMP/hf.out")"; fi
mkdir -p "$TMP/ind"
TORCHINDUCTOR_CACHE_DIR=$TMP/ind timeout 600 "$TORCH_PYTHON" "$M/run.py" --device cpu --model gpt2 --layers 1 \
	--batch 1 --phase decode --mode b --autotune gemm --steps 50 "$TMP/cpu.jsonl" >"$TMP/cpu.err" 2>&1
if python3 - "$TMP/cpu.jsonl" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["status"] == "ok", d.get("error")
assert d["compile_mode"] == "max-autotune-no-cudagraphs" and d["n_steps"] == 50 and d["step_ms"] > 0
assert d["aten_mm_info"] == {"aten.addmm_1_2304_768": 1, "aten.addmm_1_768_768": 1,
                             "aten.addmm_1_3072_768": 1, "aten.addmm_1_768_3072": 1,
                             "aten.mm_1_50257_768": 1}, d["aten_mm_info"]
s = d["selections"]["by_name"]
assert s["addmm"]["calls"] == 4 and s["mm"]["calls"] == 1, s
assert s["addmm"]["autotune_s"] > 0 and d["gemm_autotune_s"] == round(s["addmm"]["autotune_s"], 3), s
assert set(d["phases_s"]) == {"import", "setup", "build", "timing"}, d["phases_s"]
t = {(a["op"], a["m"], a["k"], a["n"]) for a in d["autotuned"]}
assert ("addmm", 1, 768, 2304) in t and all(a["ms"] for a in d["autotuned"]), d["autotuned"]
s23 = [a["strides"] for a in d["autotuned"] if (a["m"], a["k"], a["n"]) == (1, 768, 2304)]
assert s23 and s23[0][1] == [2304, 1] and len(s23[0]) == 2, s23
assert d["autotune"] == "gemm" and d["compile_options"] == {"max_autotune_gemm": True,
                                                            "coordinate_descent_tuning": False}
EOF
then ok models-torch-cpu-record; else fail models-torch-cpu-record "$(tail -c 300 "$TMP/cpu.err")"; fi
finish
