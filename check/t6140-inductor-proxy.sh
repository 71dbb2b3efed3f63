#!/usr/bin/env bash
# check/t6140-inductor-proxy.sh — perf/inductor/proxy.py, the GPU-free replay
# of Inductor's use of a ranking artifact, on the committed In-Inductor run
# (perf/results/gpu/inductor_unseen: 32 shapes x 3 modes x 3 rounds, H200).
#   1. the replay of the artifact that run measured reproduces, for all 96
#      records of mode ours, exactly the ids Inductor benchmarked;
#   2. its figures: 8 shapes with fewer than min(10, offered) candidates,
#      299 candidates benchmarked, min 1, 86 of full autotune's 96 round
#      winners in the set (read off the records: rows 20, 28, 29 benchmarked
#      extern_mm alone, row 10 missed one round's winner);
#   3. the replay of another artifact (our H100 tree) differs from the
#      records: exit 1 naming the row;
#   4. an artifact Inductor does not consult on an H200 (our A100 tree:
#      check_precondition false) replays as tuned_mm without a ranking, its
#      candidates without the mm-ah configs: exactly what every full-mode
#      record benchmarked (624 ids over the 32 shapes, min 12); so does one
#      whose get_best_choices returns None;
#   5. mat1/mat2_iscontig as Inductor's layout.is_contiguous() (a size-1
#      dimension's stride ignored);
#   6. bad input: a record without a field or of the wrong type, not an
#      object, rows that disagree (file:line: field), a --check-mode MODE
#      without records, a recorded fallback the replay contradicts, a missing
#      or unimportable artifact, two artifacts of one name, an unknown option.
#   7. the later run of the filled artifact (perf/results/gpu/inductor_filled):
#      its 96 ours records reproduced; 3 short, 342 candidates (min 5), 88/96;
#   8. the run of the tree of 1 818 sampled inputs (perf/results/gpu/
#      inductor_final): its 96 ours records reproduced; 1 short, 323
#      candidates (min 5), 88/96.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
R=perf/results/gpu/inductor_unseen
P=(stub_python perf/inductor/proxy.py --triton-cands "$BIN/triton_cands")
xz -dc "$R/inductor.jsonl.xz" >"$TMP/u.jsonl"
if "${P[@]}" "$TMP/u.jsonl" ours="$R/_MMRankingH200.measured.py" --check-mode ours=ours \
	>"$TMP/out" 2>"$TMP/err"; then ok proxy_runs; else fail proxy_runs "$(head -c 300 "$TMP/err")"; fi
if grep -qx "check: every ours record (96) benchmarked exactly ours's replayed set" "$TMP/out"; then
	ok proxy_reproduces_inductor
else fail proxy_reproduces_inductor "$(head -c 300 "$TMP/out")"; fi
want="ours: 32 shapes; fewer than min(10, offered) candidates on 8; candidates benchmarked 299 (min 1); full autotune's winners in the set 86/96"
if grep -qxF "$want" "$TMP/out"; then ok proxy_figures; else fail proxy_figures "$(tail -1 "$TMP/out")"; fi
"${P[@]}" "$TMP/u.jsonl" ours="$R/_MMRankingH200.measured.py" --per-shape >"$TMP/ps" 2>&1
if grep -qP '^  28\t55424x16x16\ttorch.bfloat16\toffered 19\tbenchmarked 1\tfull winners in set 0/3$' "$TMP/ps"; then
	ok proxy_per_shape
else fail proxy_per_shape "$(grep '^  28' "$TMP/ps")"; fi
"${P[@]}" "$TMP/u.jsonl" ours=gen/_MMRankingH100.py --check-mode ours=ours >/dev/null 2>"$TMP/err2"
rc=$?
if [ $rc -eq 1 ] && grep -q "row 0 .*mode ours benchmarked" "$TMP/err2"; then ok proxy_check_fails
else fail proxy_check_fails "rc $rc: $(head -c 200 "$TMP/err2")"; fi
head -3 "$TMP/u.jsonl" >"$TMP/bad.jsonl"
python3 -c 'import json; r=json.loads(open("'"$TMP/u.jsonl"'").readline()); del r["strides"]; print(json.dumps(r))' >>"$TMP/bad.jsonl"
expect_error proxy_missing_field "bad.jsonl:4: record without field 'strides'" "$TMP/none" \
	"${P[@]}" "$TMP/bad.jsonl" ours="$R/_MMRankingH200.measured.py"
expect_error proxy_missing_artifact "no-such.py: no such artifact" "$TMP/none" \
	"${P[@]}" "$TMP/u.jsonl" ours="$TMP/no-such.py"

# 4. not consulted: the full-mode records are what Inductor autotunes then
"${P[@]}" "$TMP/u.jsonl" a100=gen/_MMRankingA100.py --check-mode full=a100 >"$TMP/nc" 2>&1
want="a100: 32 shapes; fewer than min(10, offered) candidates on 0; candidates benchmarked 624 (min 12); full autotune's winners in the set 96/96; Inductor does not consult it on 32 (check_precondition false for shared memory 232448, capability (9, 0), or get_best_choices None: autotuned without the mm-ah configs)"
if grep -qx "check: every full record (96) benchmarked exactly a100's replayed set" "$TMP/nc" &&
	grep -qxF "$want" "$TMP/nc"; then ok proxy_not_consulted
else fail proxy_not_consulted "$(head -c 300 "$TMP/nc")"; fi
# the same where get_best_choices returns None (an unsafe leaf everywhere)
sed 's/^\(    def get_best_choices.*\)$/\1\n        return None/' "$R/_MMRankingH200.measured.py" >"$TMP/_MMRankingH200.py"
if "${P[@]}" "$TMP/u.jsonl" ours="$TMP/_MMRankingH200.py" --check-mode full=ours >"$TMP/unsafe" 2>&1 &&
	grep -q "^ours: .*candidates benchmarked 624 (min 12); .*Inductor does not consult it on 32 " "$TMP/unsafe"; then
	ok proxy_unsafe_leaf; else fail proxy_unsafe_leaf "$(head -c 300 "$TMP/unsafe")"; fi
# ... and the recorded fallback (false: Inductor ranked) is checked too
python3 -c 'import json, sys
first = True
for l in open(sys.argv[1]):
    r = json.loads(l)
    if first and r["mode"] == "ours": r["fallback"], first = True, False
    print(json.dumps(r))' "$TMP/u.jsonl" >"$TMP/fb.jsonl"
expect_error proxy_fallback_checked "fb.jsonl: row 0 .* mode ours: fallback true, but ours ranks" "$TMP/none" \
	"${P[@]}" "$TMP/fb.jsonl" ours="$R/_MMRankingH200.measured.py" --check-mode ours=ours

# 5. contiguity as torch's is_contiguous_strides_for_shape: k = 1 with
# mat1 strides (1, m) and n = 1 with mat2 strides (1, k) are contiguous
if PYTHONPATH="$ROOT/perf/inductor:$PYTHONPATH" stub_python -c 'import sys; sys.argv = ["proxy"]; import proxy
a = proxy.context({"m": 64, "k": 1, "n": 32, "dtype": "torch.float16", "tf32": False, "strides": [1, 64, 32, 1]})
b = proxy.context({"m": 64, "k": 48, "n": 1, "dtype": "torch.float16", "tf32": False, "strides": [48, 1, 1, 48]})
c = proxy.context({"m": 64, "k": 48, "n": 32, "dtype": "torch.float16", "tf32": False, "strides": [1, 64, 32, 1]})
got = [x.get_value(k) for x in (a, b, c) for k in ("mat1_iscontig", "mat2_iscontig")]
sys.exit(got != ["True", "True", "True", "True", "False", "True"])'; then ok proxy_iscontig
else fail proxy_iscontig "size-1 dimensions not ignored"; fi

# 6. bad input
bad_record() { # NAME PYTHON-EDIT-OF-r PATTERN: record 1 (0-based) edited
	python3 -c 'import json, sys
for i, l in enumerate(open(sys.argv[1])):
    r = json.loads(l)
    if i == 1: exec(sys.argv[2])
    print(json.dumps(r))' "$TMP/u.jsonl" "$2" >"$TMP/e.jsonl"
	expect_error "$1" "$3" "$TMP/none" "${P[@]}" "$TMP/e.jsonl" ours="$R/_MMRankingH200.measured.py"
}
bad_record proxy_bad_strides 'r["strides"] = [1, 2, 3]' "e.jsonl:2: field 'strides': \[1, 2, 3\] is not 4 integers >= 0"
bad_record proxy_bad_m 'r["m"] = "2"' "e.jsonl:2: field 'm': \"2\" is not an integer >= 1"
bad_record proxy_bad_tf32 'r["tf32"] = "no"' "e.jsonl:2: field 'tf32': \"no\" is not true or false"
bad_record proxy_bad_dtype 'r["dtype"] = "torch.float64"' "e.jsonl:2: field 'dtype': \"torch.float64\" is not one of"
bad_record proxy_row_disagrees 'r["n"] += 1' "e.jsonl:2: field 'n': row 0 has 4609 here, 4608 on line 1"
printf '[1, 2]\n' >"$TMP/arr.jsonl"
expect_error proxy_not_object "arr.jsonl:1: not a JSON object" "$TMP/none" \
	"${P[@]}" "$TMP/arr.jsonl" ours="$R/_MMRankingH200.measured.py"
: >"$TMP/null.jsonl"
expect_error proxy_no_records "null.jsonl: no records" "$TMP/none" \
	"${P[@]}" "$TMP/null.jsonl" ours="$R/_MMRankingH200.measured.py"
expect_error proxy_check_mode_absent "check-mode typo=ours: .*has no record of mode 'typo' \(modes: full, ours, shipped\)" \
	"$TMP/none" "${P[@]}" "$TMP/u.jsonl" ours="$R/_MMRankingH200.measured.py" --check-mode typo=ours
printf 'def (\n' >"$TMP/syntax.py"
expect_error proxy_import_error "syntax.py: does not import: SyntaxError" "$TMP/none" \
	"${P[@]}" "$TMP/u.jsonl" a="$TMP/syntax.py"
expect_error proxy_two_names "a second artifact named a" "$TMP/none" \
	"${P[@]}" "$TMP/u.jsonl" a=gen/_MMRankingH200.py a=gen/_MMRankingH100.py
expect_error proxy_unknown_option "unknown option '--topk=3'" "$TMP/none" \
	"${P[@]}" "$TMP/u.jsonl" --topk=3 ours="$R/_MMRankingH200.measured.py"
# replayed_run NAME DIR WANT: DIR's 96 ours records reproduced by the artifact
# it measured, and the summary line WANT
replayed_run() {
	xz -dc "$2/inductor.jsonl.xz" >"$TMP/$1.jsonl"
	"${P[@]}" "$TMP/$1.jsonl" ours="$2/_MMRankingH200.measured.py" --check-mode ours=ours >"$TMP/$1.out" 2>&1
	if grep -qx "check: every ours record (96) benchmarked exactly ours's replayed set" "$TMP/$1.out" &&
		grep -qxF "$3" "$TMP/$1.out"; then ok "$1"
	else fail "$1" "$(head -c 300 "$TMP/$1.out")"; fi
}
# 7. the run of the filled artifact (perf/results/gpu/inductor_filled: the
# same 32 shapes, LEAF_FILL=all): the replay predicted it before it ran and
# reproduces its 96 ours records; 3 shapes short, 342
# candidates (min 5), 88 of that run's 96 full winners in the set
replayed_run proxy_filled_run perf/results/gpu/inductor_filled \
	"ours: 32 shapes; fewer than min(10, offered) candidates on 3; candidates benchmarked 342 (min 5); full autotune's winners in the set 88/96"
# 8. the run of the tree of 1 818 sampled inputs (perf/results/gpu/inductor_final)
replayed_run proxy_final_run perf/results/gpu/inductor_final \
	"ours: 32 shapes; fewer than min(10, offered) candidates on 1; candidates benchmarked 323 (min 5); full autotune's winners in the set 88/96"

finish
