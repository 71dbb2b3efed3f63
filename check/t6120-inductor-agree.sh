#!/usr/bin/env bash
# check/t6120-inductor-agree.sh — perf/experiments/inductor_agree.py (the agreement
# of the fast back end with Inductor) on two hand-made logs, check/fixtures/inductor/
# agree_{a,x}.log, whose figures were computed by hand:
#   input F1 (64x4096x4096): A extern 1.0, c1 2, c2 3, c3 4, c5 inf;
#     X extern 1.1, c1 2, c2 3.3, c3 3.6, c5 5.0.  Ids equal; X's winner
#     extern_mm is A's best; rho over {extern,c1,c2,c3} = 1; ratios 1.1, 1.0,
#     1.1, 0.9; c5 is inf in A only (1 inf mismatch).
#   input F2 (2048x512x32000): A extern 2, c1 1.0, c2 1.01, c3 inf; X extern 2,
#     c1 1.05, c2 1.0, c3 inf.  Ids equal; X's winner c2 = 1.01 in A <= 1.02 x
#     A's best 1.0: within; ranks A (3,1,2), X (3,2,1): rho = 1 - 6*2/(3*8) =
#     0.5; ratios 1.0, 1.05, 1/1.01.
#   input F3 (8x768x50257 f32): A extern 1.0, c1 median(1.4, 1.6) = 1.5, c2 2.0;
#     X extern 1.5, c1 1.2, c4 0.9.  Ids differ; X's winner c4 is not in A:
#     not within; 2 common choices: no rho; ratios 1.5, 0.8.
#   input F4 is in A only.
# So: common 3, ids equal 2/3, within 2 % 2/3, rho median (1 + 0.5)/2 = 0.75,
# ratios sorted 0.8 0.9 0.990 1.0 1.0 1.05 1.1 1.1 1.5: median 1.0, p10 =
# 0.8 + 0.8 * 0.1 = 0.88, p90 = 1.1 + 0.2 * 0.4 = 1.18; extern ratios 1.1, 1.0,
# 1.5: median 1.1, largest move 1.5x at F3; throughput 4 in 120 s = 120/h,
# 3 in 36 s = 300/h.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
AG="python3 $ROOT/perf/experiments/inductor_agree.py"
F=$FIX/inductor
$AG "$F/agree_a.log" "$F/agree_x.log" --a-stats "$F/agree_a.stats.tsv" --x-stats "$F/agree_x.stats.tsv" \
	--name-x B --json "$TMP/s.json" --per-input "$TMP/p.tsv" >"$TMP/out.txt" 2>"$TMP/err.txt"
rc=$?
[ $rc -eq 0 ] && ok runs || fail runs "rc=$rc $(head -c 300 "$TMP/err.txt")"
# key=expected pairs checked against the JSON summary (to 1e-9)
check_json() {
	python3 - "$TMP/s.json" "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
bad = []
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    cur = s
    for part in k.split("."):
        cur = cur[part]
    if isinstance(cur, str) or v in ("True", "False"):
        if str(cur) != v:
            bad.append(f"{k}={cur} (want {v})")
    elif abs(cur - float(v)) > 1e-9:
        bad.append(f"{k}={cur} (want {v})")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
}
for kv in common=3 ids_equal=0.6666666666666666 winner_within_2pct=0.6666666666666666 \
	spearman_inputs=2 spearman_median=0.75 spearman_min=0.5 ratio_pairs=9 ratio_median=1.0 \
	ratio_p10=0.88 ratio_p90=1.18 inf_mismatches=1 extern_median=1.1 extern_min=1.0 extern_max=1.5 \
	extern_largest_move=1.5 throughput_a.inputs_per_hour=120 throughput_x.inputs_per_hour=300 \
	"extern_largest_move_input=8,768,50257,torch.float32,torch.float32,768,1,1,768,True,False,True"; do
	if msg=$(check_json "$kv"); then ok "figure-${kv%%=*}"; else fail "figure-${kv%%=*}" "$msg"; fi
done
# the per-input table: F2's X winner c2 is 1.01 x A's best
if grep -q $'^2048,512,32000,[^\t]*\t4\t4\tTrue\tc1\t1\tc2\t1.01\tTrue\t0.5\t1$' "$TMP/p.tsv"; then
	ok per-input-row; else fail per-input-row "$(sed -n 3p "$TMP/p.tsv")"; fi
grep -q 'candidate id sets equal     66.7 %' "$TMP/out.txt" && grep -q 'throughput B .*300 inputs/hour' "$TMP/out.txt" \
	&& ok summary-text || fail summary-text "$(head -3 "$TMP/out.txt")"
# a log against itself agrees perfectly
$AG "$F/agree_a.log" "$F/agree_a.log" --json "$TMP/self.json" >/dev/null 2>&1
if python3 -c "import json,sys; s=json.load(open('$TMP/self.json')); sys.exit(not (s['ids_equal']==1 and s['winner_within_2pct']==1 and s['spearman_median']==1 and s['ratio_p10']==1 and s['ratio_p90']==1 and s['inf_mismatches']==0))"; then
	ok self-agreement; else fail self-agreement "$(cat "$TMP/self.json" | tr '\n' ' ' | head -c 300)"; fi
# errors name file:line
{ head -3 "$F/agree_a.log"; echo '1,2,3,torch.float16,torch.float16,2,1,3,1,True,True,not_float_32,c1,abc'; } >"$TMP/bad.log"
expect_error bad-feedback "bad.log:4: field 'feedback': not a number" "$TMP/none" $AG "$TMP/bad.log" "$F/agree_x.log"
{ head -1 "$F/agree_a.log"; echo 'm,k,n,choice,feedback'; } >"$TMP/hdr.log"
expect_error headers-differ 'the CSV headers differ' "$TMP/none" $AG "$F/agree_a.log" "$TMP/hdr.log"
# shard logs as a comma list read as merged: the same figures
{ head -2 "$F/agree_a.log"; sed -n '3,9p' "$F/agree_a.log"; } >"$TMP/a0.log"
{ head -2 "$F/agree_a.log"; sed -n '10,$p' "$F/agree_a.log"; } >"$TMP/a1.log"
$AG "$TMP/a0.log,$TMP/a1.log" "$F/agree_x.log" --name-x B --json "$TMP/s2.json" >/dev/null 2>&1
if python3 -c "import json,sys; a=json.load(open('$TMP/s.json')); b=json.load(open('$TMP/s2.json')); a.pop('throughput_a'); a.pop('throughput_x'); b.pop('throughput_a'); b.pop('throughput_x'); sys.exit(a != b)"; then
	ok shard-list-as-merged; else fail shard-list-as-merged "figures differ"; fi
{ echo '{"shared_memory": 166912}'; sed -n '2,$p' "$TMP/a1.log"; } >"$TMP/a2.log"
expect_error shard-metadata-differ 'a2.log:1-2: metadata or header differ' "$TMP/none" $AG "$TMP/a0.log,$TMP/a2.log" "$F/agree_x.log"
# Triton choices alone (extern_mm left out): F1 winner c1 = A's best, rho over
# c1 c2 c3 = 1; F2 X's c2 is 1.01 x A's best c1: within, 2 choices: no rho;
# F3 X's c4 is not in A: miss.  So within 2/3, rho median 1 (one input)
for kv in triton_winner_within_2pct=0.6666666666666666 triton_spearman_median=1.0; do
	if msg=$(check_json "$kv"); then ok "figure-${kv%%=*}"; else fail "figure-${kv%%=*}" "$msg"; fi
done
# --a-rep / --x-rep: a log of two reps (rep 2 = rep 1's times x 1.25) against
# itself, rep 2 vs rep 1: every ratio 1.25, ids equal, rho 1; --rep-times
# throughput: rep 1 of input 1 was redone (the last record, 30 s, counts)
{ head -2 "$F/agree_a.log"; tail -n +3 "$F/agree_a.log"
  tail -n +3 "$F/agree_a.log" | awk -F, -v OFS=, '{ if ($NF != "inf") $NF = $NF * 1.25; print }'; } >"$TMP/r2.log"
printf 'input\trep\tseconds\n0\t1\t10\n0\t2\t2\n1\t1\t20\n1\t1\t30\n1\t2\t3\n' >"$TMP/reps.tsv"
$AG "$TMP/r2.log" "$TMP/r2.log" --a-rep 1/2 --x-rep 2/2 --a-stats "$TMP/reps.tsv" --json "$TMP/r.json" >"$TMP/r.txt" 2>&1
if python3 -c "import json,sys; s=json.load(open('$TMP/r.json')); sys.exit(not (s['ids_equal']==1 and abs(s['ratio_p10']-1.25)<1e-9 and abs(s['ratio_p90']-1.25)<1e-9 and s['spearman_median']==1 and s['throughput_a']['inputs']==2 and s['throughput_a']['wall_s']==40))"; then
	ok reps-select; else fail reps-select "$(head -c 400 "$TMP/r.json" | tr '\n' ' ')"; fi
expect_error reps-not-multiple 'no input has a multiple of 3 reps' "$TMP/none" $AG "$TMP/r2.log" "$TMP/r2.log" --a-rep 1/3
# an input one of whose reps logged nothing (F2's rows once only) is left out
{ cat "$TMP/r2.log"; grep '^2048,512,32000' "$F/agree_a.log"; } >"$TMP/r3.log"
$AG "$TMP/r3.log" "$TMP/r3.log" --a-rep 1/2 --x-rep 2/2 --json "$TMP/r3.json" >"$TMP/r3.txt" 2>"$TMP/r3.err"
if grep -q 'input 2048,512,32000,.* left out: choice .* has 3 rows, not a multiple of 2 reps' "$TMP/r3.err" \
	&& grep -q 'left out (a rep logged nothing): A 1, X 1 inputs' "$TMP/r3.txt" \
	&& python3 -c "import json,sys; s=json.load(open('$TMP/r3.json')); sys.exit(not (s['common']==3 and s['rep_left_out_a']==1))"; then
	ok reps-uneven-left-out; else fail reps-uneven-left-out "$(cat "$TMP/r3.err" "$TMP/r3.txt" | head -5 | tr '\n' '|')"; fi
expect_error reps-bad-spec 'expected R/N with 1 <= R <= N' "$TMP/none" $AG "$TMP/r2.log" "$TMP/r2.log" --x-rep 3/2
expect_error rep-times-needs-rep 'needs --a-rep/--x-rep' "$TMP/none" $AG "$TMP/r2.log" "$TMP/r2.log" --a-stats "$TMP/reps.tsv"
# a rep-times file of another N, or without rep R: refused (not "0 inputs in 0 s")
expect_error rep-times-other-n 'reps.tsv:3: rep 2: expected 1 to 1 \(the N of R/N\)' "$TMP/none" \
	$AG "$TMP/r2.log" "$TMP/r2.log" --a-rep 1/1 --x-rep 1/1 --a-stats "$TMP/reps.tsv"
printf 'input\trep\tseconds\n0\t1\t10\n' >"$TMP/reps1.tsv"
expect_error rep-times-no-rep "reps1.tsv: no line of rep 2" "$TMP/none" \
	$AG "$TMP/r2.log" "$TMP/r2.log" --a-rep 1/2 --x-rep 2/2 --x-stats "$TMP/reps1.tsv"
printf 'input\trep\tseconds\n0\t1\n' >"$TMP/reps1.tsv"
expect_error rep-times-short-line "reps1.tsv:2: expected input, rep, seconds" "$TMP/none" \
	$AG "$TMP/r2.log" "$TMP/r2.log" --a-rep 1/2 --x-rep 2/2 --a-stats "$TMP/reps1.tsv"
# perf/experiments/inductor_agree.sh end to end on the CPU (inductor_collect.py
# run by the stand-in check/inductor/fake_python.py, 2 "GPUs"): run A
# stops by its time limit, run B measures exactly A's inputs per shard
# (--max-inputs), the fake fast back end all; identical fakes agree fully
FAKE_PY="python3 $ROOT/check/inductor/fake_python.py"
OUT=$TMP/dev GPUS=2 A_S=1 B_S=30 PYTHON="$FAKE_PY" COLLECT_EXTRA="--fake-delay-ms 100" \
	FAST_CMD="$FAKE_PY -m mmrank.bench.inductor_collect --shard {i}/{n} --stats {stats} {shapes} {log}" \
	bash "$ROOT/perf/experiments/inductor_agree.sh" >"$TMP/dev.txt" 2>&1
na=$(($(cat "$TMP"/dev/A/data_*.part.done | grep -c '^[0-9]')))
nb=$(($(cat "$TMP"/dev/B/data_*.part.done | grep -c '^[0-9]')))
if [ "$na" -ge 2 ] && [ "$na" -lt 48 ] && [ "$na" -eq "$nb" ] \
	&& grep -q "^B vs A: inputs A $na, B $na, common $na$" "$TMP/dev/summary.txt" \
	&& grep -q "^fast vs A: inputs A $na, fast 48, common $na$" "$TMP/dev/summary.txt" \
	&& [ "$(grep -c 'winner within 2 % of A.s    100.0 %' "$TMP/dev/summary.txt")" -eq 2 ] \
	&& grep -q '^torch	fake$' "$TMP/dev/summary.txt"; then
	ok agree-script-dry-run
else fail agree-script-dry-run "A $na B $nb: $(tail -5 "$TMP/dev.txt" | tr '\n' '|')"; fi
# PAIRED=1, in two "device calls" with the same OUT: A and B are the two reps
# of one run (the fake's rep 2 is 1 % slower: B/A 1.01 on every choice), the
# fast back end runs in the first call only, the second call resumes A+B
pair() {
	OUT=$TMP/devp GPUS=2 PAIRED=1 A_S=1 PYTHON="$FAKE_PY" COLLECT_EXTRA="--fake-delay-ms 150" \
		FAST_CMD="$FAKE_PY -m mmrank.bench.inductor_collect --shard {i}/{n} --stats {stats} {shapes} {log}" \
		bash "$ROOT/perf/experiments/inductor_agree.sh" >"$TMP/devp$1.txt" 2>&1
}
pair 1
n1=$(cat "$TMP"/devp/A/data_*.part.done | grep -c '^[0-9]')
pair 2
n2=$(cat "$TMP"/devp/A/data_*.part.done "$TMP"/devp/A/data_*.inputs.tsv 2>/dev/null | grep -c '^[0-9]')
nr=$(awk -F'\t' 'NR > 1 && $2 == 2' "$TMP/devp/A/reps.tsv" | sort -u | wc -l)
if [ "$n1" -ge 2 ] && [ "$n2" -gt "$n1" ] && [ "$nr" -eq "$n2" ] \
	&& grep -q "^B vs A: inputs A $n2, B $n2, common $n2$" "$TMP/devp/summary.txt" \
	&& grep -q 'time ratio B/A per choice median 1.01, p10 1.01, p90 1.01' "$TMP/devp/summary.txt" \
	&& grep -q "^fast vs A: inputs A $n2, fast 48, common $n2$" "$TMP/devp/summary.txt" \
	&& grep -q 'fast back end: complete, not rerun' "$TMP/devp2.txt" \
	&& grep -q "throughput A .* ($n2 inputs in" "$TMP/devp/summary.txt"; then
	ok agree-script-paired-resumed
else fail agree-script-paired-resumed "n1 $n1 n2 $n2 reps $nr: $(grep -E 'vs A|ratio|throughput' "$TMP/devp/summary.txt" | tr '\n' '|')"; fi
# perf/experiments/agree_lease.sh refuses a missing carry or an unusable STATE
# before it creates, unpacks or runs anything
CARRY="$TMP/nocarry" OUT="$TMP/lo" STATE="$TMP/ls" bash "$ROOT/perf/experiments/agree_lease.sh" >"$TMP/l.txt" 2>&1
[ $? = 1 ] && grep -q "missing $TMP/nocarry/triton.tar.xz" "$TMP/l.txt" && [ ! -e "$TMP/lo" ] && [ ! -e "$TMP/ls" ] &&
	ok agree-lease-missing-carry || fail agree-lease-missing-carry "$(head -2 "$TMP/l.txt")"
if [ -x "$BIN/bench" ]; then
	mkdir -p "$TMP/carry" && : | xz > "$TMP/carry/triton.tar.xz" && : > "$TMP/state"
	BENCH="$BIN/bench" CARRY="$TMP/carry" OUT="$TMP/lo" STATE="$TMP/state/x" bash "$ROOT/perf/experiments/agree_lease.sh" >"$TMP/l.txt" 2>&1
	[ $? = 1 ] && grep -q "agree_lease: $TMP/state/x: cannot create or write to it" "$TMP/l.txt" &&
		ok agree-lease-bad-state || fail agree-lease-bad-state "$(head -2 "$TMP/l.txt")"
else skip agree-lease-bad-state "[CUDA] no $BIN/bench (needs the CUDA toolkit)"; fi
finish
