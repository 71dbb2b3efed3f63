#!/usr/bin/env bash
# t1170-rules.sh — one home per rule (stages/formats/rules.h): near-best (spec
# §5.2), the top-k list with the extern_mm fallback (§5.9, §7.3), regret.
#   - C (check/unit/rules_print.c) and Python (mmrank.rules, which
#     reads rules.h's #define lines; check/rules_print.py) give the same
#     answers on check/fixtures/rules/cases.txt, and the expected ones
#     (expected.txt: near-best up to t = best/0.98 = 1.0204 best, not the
#     1.02 best of a ratio test the other way round);
#   - fit's expansion (--dump-train) of check/fixtures/rules/boundary.txt
#     (times 1, 1.02, 1.0203, 1.0205, inf and 1/0.98 per input) holds the
#     rows, labels and weights rules.py's near_best gives: 1, 1.02, 1.0203
#     and 1/0.98 near-best, 1.0205 and inf not;
#   - the log rules mmrank.rules mirrors for Python writers (choice ids,
#     mm's categories and numbers) take and refuse what featurize does,
#     case by case.
. check/lib.sh
U=${BIN%/bin}/unit/rules_print
D=$FIX/rules
[ -x "$U" ] || { fail rules "no $U (make units)"; finish; }
"$U" <"$D/cases.txt" >"$TMP/c.out" 2>"$TMP/err" || fail rules-c "exit $?: $(head -1 "$TMP/err")"
test_cmp rules-c-expected "$D/expected.txt" "$TMP/c.out"
if python3 "$ROOT/check/rules_print.py" <"$D/cases.txt" >"$TMP/py.out" 2>"$TMP/err"; then
	test_cmp rules-python-expected "$D/expected.txt" "$TMP/py.out"
else
	fail rules-python "exit $?: $(tail -1 "$TMP/err")"
fi

"$BIN/featurize" -o "$TMP/b.feat.tsv" "$D/boundary.txt" 2>/dev/null &&
"$BIN/fit" "$TMP/b.feat.tsv" --split none --dump-train "$TMP/dump.tsv" -o "$TMP/t.tsv" \
	--metrics "$TMP/m.tsv" >/dev/null 2>&1 || { fail rules-fit "featurize/fit failed"; finish; }
awk -F'\t' 'NR > 1 { print $(NF - 1) "\t" $NF }' "$TMP/dump.tsv" >"$TMP/fit.rows"
python3 - "$TMP/b.feat.tsv" >"$TMP/py.rows" <<'PY'
import sys
from mmrank import rules
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])][1:]
h = rows[0]
ci, mi, ii = h.index('choice'), h.index('median_ms'), h.index('input')
by = {}
for r in rows[1:]:
    by.setdefault(r[ii], []).append((r[ci], float(r[mi])))
for i in by:
    best = min(t for _, t in by[i])
    for c, t in by[i]:
        if rules.near_best(t, best):
            print('%s\t%.17g' % (c, best / t))
PY
test_cmp rules-fit-expansion-is-python-near-best "$TMP/py.rows" "$TMP/fit.rows"
[ "$(cut -f1 "$TMP/fit.rows" | sort -u | tr '\n' ' ')" = "extern_mm type=a type=b type=e " ] &&
	ok rules-fit-boundary || fail rules-fit-boundary "labels $(cut -f1 "$TMP/fit.rows" | sort -u | tr '\n' ' ')"
# the log rules mmrank.rules states for the Python writers (choice ids,
# mm's categories and numbers) agree with featurize's, value by value: each
# case is one row of a one-input log; featurize takes it iff Python does
H='m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback'
M='{"shared_memory": 232448, "device_capa": [9, 0], "name": "mm", "numerical_features": ["m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"], "categorical_features": ["mat1_dtype", "mat2_dtype", "mat1_iscontig", "mat2_iscontig", "using_tf32"]}'
disagree=
# FIELD VALUE: choice ids, then the features featurize parses
while IFS='	' read -r field value; do
	row=(16 64 32 torch.bfloat16 torch.bfloat16 64 1 32 1 True True not_float_32 'type=triton_x' 0.01)
	case $field in choice) row[12]=$value ;; m) row[0]=$value ;; mat1_dtype) row[3]=$value ;;
	mat1_iscontig) row[9]=$value ;; using_tf32) row[11]=$value ;; esac
	ext=("${row[@]}"); ext[12]=extern_mm; ext[13]=0.02
	{ echo "$M"; echo "$H"; (IFS=,; echo "${ext[*]}"; echo "${row[*]}"); } >"$TMP/agree.txt"
	"$BIN/featurize" -o "$TMP/agree.tsv" "$TMP/agree.txt" >/dev/null 2>&1 && c=take || c=refuse
	p=$(python3 -c 'import sys
from mmrank import rules
f, v = sys.argv[1], sys.argv[2]
why = (rules.emittable_problem(v) if f == "choice" else
       rules.num_problem(f, v) if f in rules.MM_NUMERICAL else rules.cat_problem(f, v))
print("refuse" if why else "take")' "$field" "$value")
	[ "$c" = "$p" ] || disagree="$disagree [$field '$value': featurize $c, python $p]"
done <<'CASES'
choice	type=triton_BLOCK-M=16_BLOCK-K=128_BLOCK-N=32_numstages=5_numwarps=2
choice	decompose_k|k_split=4
choice	type=triton_"x
choice	a'b
choice	a\b
choice	a`b
choice	a[0]
choice	a$b
choice	a/*b
choice	a*/b
choice	a??b
choice	aé
m	2048
m	0
m	abc
m	99999999999999999999
mat1_dtype	torch.float16
mat1_dtype	torch."bf16
mat1_dtype	float16
mat1_iscontig	False
mat1_iscontig	yes
using_tf32	not_float_32
using_tf32	maybe
CASES
[ -z "$disagree" ] && ok rules-log-python-agrees-featurize || fail rules-log-python-agrees-featurize "$disagree"

finish
