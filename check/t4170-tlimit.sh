#!/usr/bin/env bash
# bench --time-limit's rule for starting an input (stages/gpu/policy/tlimit.h):
#   * the rule itself, through build/unit/tlimit_print, on
#     check/fixtures/tlimit/cases.txt against the hand-derived expected.txt:
#     the kinds, the work, no rate yet, the H100's fp32 giant predicted past
#     the limit and not started, time up, a rate per kind, the 2 % floor, the
#     highest rate kept, the window of work, exactly at the limit, no limit,
#     a limit of 0;
#   * bench-fake with --fake-delay-ms 400 on four inputs of one shape: at
#     --time-limit 1.0 the run stops before an input it predicts would end
#     past 1.0 s (the old rule started every input before 1.0 s and ran to
#     1.2 s), says so, ends before its limit, writes stopped_before_s to
#     --stats, and the rerun completes it to the uninterrupted run's log byte
#     for byte; at --time-limit 2.5 nothing is predicted past it (no stop);
#     an fp32 input after two bf16 ones of its m, k, n starts (rates are per
#     dtype), and a giant after a tiny input of its dtype starts (the window);
#   * perf/collect/tlimit_replay.py on made-up progress lines: a step of two
#     inputs taught by its giant, --done, a log lacking a measured input,
#     the unmeasured input weighed by --cands.
# Prerequisites: build/unit/tlimit_print and build/bin/bench-fake (make
# check-bins), python3 for the replay; no GPU.
. check/lib.sh
U=${BIN%/bin}/unit/tlimit_print
[ -x "$U" ] || { fail tlimit "no $U (make units)"; finish; }
"$U" <"$FIX/tlimit/cases.txt" >"$TMP/t.out" 2>"$TMP/err" || fail tlimit-run "exit $?: $(head -1 "$TMP/err")"
test_cmp tlimit-expected "$FIX/tlimit/expected.txt" "$TMP/t.out"
echo "frob 1" | "$U" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc = 1 ] && grep -q '^tlimit_print: stdin:1: expected limit S' "$TMP/err" && ok tlimit-bad-command ||
	fail tlimit-bad-command "exit $rc: $(head -1 "$TMP/err")"

F=$BIN/bench-fake
test_have_bins tlimit-bench bench-fake || finish
cd "$TMP" || exit 1
"$BIN/sample" --seed 3 --samples 6 -o all.tsv 2>/dev/null || { fail tlimit-shapes "sample failed"; finish; }
{ head -1 all.tsv; for i in 0 1 2 3; do awk -F'\t' -v OFS='\t' -v i=$i 'NR == 2 { $1 = i; print }' all.tsv; done; } > s.tsv
K=(--kernels "$ROOT/kernels" --fake-delay-ms 400)
"$F" "${K[@]}" s.tsv full.txt 2>/dev/null || fail tlimit-full "exit $?"
"$F" "${K[@]}" --time-limit 1.0 --stats st.tsv s.tsv t.txt 2>t.err; rc=$?
wall=$(awk -F'\t' '$1 == "wall_s" { print $2 }' st.tsv 2>/dev/null)
n=$(awk -F'\t' '$1 == "inputs_measured" { print $2 }' st.tsv 2>/dev/null)
if [ $rc = 2 ] && grep -q "^bench: input [12] (s.tsv:[34], .* predicted 0\.[0-9] s by this run's timings, 0\.[0-9] s of --time-limit left: not started$" t.err &&
	grep -q '^stopped_before_s	0\.[0-9]$' st.tsv && [ "${n:-0}" -ge 1 ] && [ "$n" -le 2 ] &&
	awk -v w="$wall" 'BEGIN { exit !(w != "" && w < 1.0) }'; then
	ok tlimit-bench-stops-before-predicted-overrun
else
	fail tlimit-bench-stops-before-predicted-overrun "exit $rc, $n inputs in ${wall:-?} s: $(grep -v '^bench\[' t.err | tail -2 | tr '\n' '|')"
fi
"$F" "${K[@]}" s.tsv t.txt 2>/dev/null && cmp -s full.txt t.txt && ok tlimit-bench-resume-identical ||
	fail tlimit-bench-resume-identical "the resumed log differs from the uninterrupted one"
"$F" "${K[@]}" --time-limit 2.5 --stats st2.tsv s.tsv f.txt 2>f.err; rc=$?
[ $rc = 0 ] && cmp -s full.txt f.txt && ! grep -q 'not started' f.err && ! grep -q stopped_before_s st2.tsv &&
	ok tlimit-bench-fits-no-stop || fail tlimit-bench-fits-no-stop "exit $rc: $(grep -v '^bench\[' f.err | tail -2 | tr '\n' '|')"
# rates are per dtype: two bf16 inputs, then an fp32 one of the same m, k, n
# (its work within a power of two): no fp32 rate, so it starts at 0.8 s
{ head -1 all.tsv; awk -F'\t' -v OFS='\t' 'NR == 2 { $1 = 0; print; $1 = 1; print
	$1 = 2; $6 = "torch.float32"; $16 = "False"; print }' all.tsv; } > k.tsv
"$F" "${K[@]}" --time-limit 1.1 k.tsv k.txt 2>k.err; rc=$?
[ $rc = 0 ] && ! grep -q 'not started' k.err && ok tlimit-bench-rates-per-dtype ||
	fail tlimit-bench-rates-per-dtype "exit $rc: $(grep -v '^bench\[' k.err | tail -2 | tr '\n' '|')"
# the window: a tiny fp32 input (9600x1408x2) that calibrates does not
# predict a giant (30336x52096x18304, 2^17 times its 2*m*k*n)
{ head -1 all.tsv; awk -F'\t' -v OFS='\t' '$1 == 4 { $1 = 0; print } $1 == 20 { $1 = 1; print }' all.tsv; } > w.tsv
"$F" "${K[@]}" --time-limit 1.1 w.tsv w.txt 2>w.err; rc=$?
[ $rc = 0 ] && [ "$(grep -c 'float32' w.tsv)" = 2 ] && ! grep -q 'not started' w.err &&
	ok tlimit-bench-small-input-predicts-no-giant ||
	fail tlimit-bench-small-input-predicts-no-giant "exit $rc: $(grep -v '^bench\[' w.err | tail -2 | tr '\n' '|')"
# perf/collect/tlimit_replay.py on made-up progress lines of a --reps 1 run
# over a tiny fp32 input (id 4, 25 candidates) and three layouts of an fp32
# giant (ids 20..22, 24 candidates each), --time-limit 2.1: the first step
# (ids 4 and 20, 0.8 s) is the giant's alone (its work is 2^20 times the
# tiny one's), so id 20 starts (">=", no rate yet) and teaches 0.8 s; id 21
# at 0.8 s is predicted 1.5 x 0.8 = 1.2 s (ends at 2.0: starts) and took
# 0.4 s; id 22 at 1.2 s is predicted 1.2 s past 2.1 s
if test_skip_unless PYTHON3 tlimit-replay-script; then
	{ head -1 all.tsv; awk -F'\t' '$1 == 4 || ($1 >= 20 && $1 <= 22)' all.tsv; } > g.tsv
	"$F" --kernels "$ROOT/kernels" --reps 1 g.tsv g.txt 2>/dev/null || fail tlimit-replay-log "exit $?"
	P="bench[dev 0 shard 0/1]:"
	printf '%s\n' "bench: device 0 (fake), shard 0/1: 4 inputs, 0 already done" \
		"$P 2/4 inputs, 2.5 inputs/s, elapsed 0.8 s, ETA 0m01s" \
		"$P 3/4 inputs, 2.5 inputs/s, elapsed 1.2 s, ETA 0m01s" > p.err
	printf '%s\n' "input	start_s	work	took_s	predicted_s	rule" \
		"4	0.0	1.352e+09	-	0	start" "20	>=0.0	1.389e+15	-	0	start" \
		"21	0.8	1.389e+15	0.4	1.2	start" "22	1.2	1.389e+15	-	1.2	predicted" > r.want
	RP=(python3 "$ROOT/perf/collect/tlimit_replay.py" --unit "$U" --list g.tsv --limit 2.1)
	"${RP[@]}" --log g.txt --progress p.err > r.out 2>r.err
	test_cmp tlimit-replay-script r.want r.out
	# --done D where the progress lines lack bench's first line: the same
	grep -v 'already done' p.err > q.err
	"${RP[@]}" --done 0 --log g.txt --progress q.err > q.out 2>r.err
	test_cmp tlimit-replay-done r.want q.out
	# a step of two equal inputs (ids 21, 22: 1.2 s) teaches nothing: id 23
	# at 2.0 s is predicted from id 20's rate, 1.2 s (ends at 3.2 <= 3.3)
	{ head -1 all.tsv; awk -F'\t' '$1 == 4 || ($1 >= 20 && $1 <= 23)' all.tsv; } > g5.tsv
	"$F" --kernels "$ROOT/kernels" --reps 1 g5.tsv g5.txt 2>/dev/null || fail tlimit-replay-log5 "exit $?"
	printf '%s\n' "bench: device 0 (fake), shard 0/1: 5 inputs, 0 already done" \
		"$P 2/5 inputs, 2.5 inputs/s, elapsed 0.8 s, ETA 0m01s" \
		"$P 4/5 inputs, 2.5 inputs/s, elapsed 2.0 s, ETA 0m01s" > p5.err
	printf '%s\n' "input	start_s	work	took_s	predicted_s	rule" \
		"4	0.0	1.352e+09	-	0	start" "20	>=0.0	1.389e+15	-	0	start" \
		"21	0.8	1.389e+15	-	1.2	start" "22	>=0.8	1.389e+15	-	1.2	start" \
		"23	2.0	1.389e+15	-	1.2	start" > r5.want
	python3 "$ROOT/perf/collect/tlimit_replay.py" --unit "$U" --list g5.tsv --limit 3.3 \
		--log g5.txt --progress p5.err > r5.out 2>r.err
	test_cmp tlimit-replay-no-dominant-input r5.want r5.out
	# a log without id 21 (a measured input): refused, naming it
	grep -v '^30336,52096,18304,torch.float32,torch.float32,52096,1,1,52096,' g.txt > h.txt
	"${RP[@]}" --log h.txt --progress p.err > h.out 2>h.err; rc=$?
	[ $rc = 1 ] && [ ! -s h.out ] && grep -q '^tlimit_replay: input 21 (list line 4): measured by the call, but not in the logs' h.err &&
		ok tlimit-replay-missing-input || fail tlimit-replay-missing-input "exit $rc: $(head -2 h.err | tr '\n' '|')"
	# id 22, the input the call stopped before, in no log yet: without
	# --cands it weighs 0 (no prediction: starts); with a candidate list
	# giving its 24 candidates (and a '-' row that counts none) it is
	# predicted past the limit, as above
	{ head -1 all.tsv; awk -F'\t' '$1 == 4 || ($1 >= 20 && $1 <= 21)' all.tsv; } > g3.tsv
	"$F" --kernels "$ROOT/kernels" --reps 1 g3.tsv g3.txt 2>/dev/null || fail tlimit-replay-log3 "exit $?"
	{ head -4 r.want; printf '22\t1.2\t0\t-\t0\tstart\n'; } > c0.want
	"${RP[@]}" --log g3.txt --progress p.err > c0.out 2>r.err
	test_cmp tlimit-replay-unlogged-weighs-0 c0.want c0.out
	{ printf 'input\tm\tid\n'; for i in $(seq 24); do printf '22\t30336\tc%d\n' "$i"; done
	  printf '22\t30336\t-\n'; } > c.tsv
	"${RP[@]}" --log g3.txt --progress p.err --cands c.tsv > c.out 2>r.err
	test_cmp tlimit-replay-cands r.want c.out
	cut -f1,2 c.tsv > cb.tsv   # no id column: refused, naming the file
	"${RP[@]}" --log g3.txt --progress p.err --cands cb.tsv > cb.out 2>cb.err; rc=$?
	[ $rc = 1 ] && [ ! -s cb.out ] && grep -q '^tlimit_replay: cb.tsv:1: not a candidate list' cb.err &&
		ok tlimit-replay-cands-refused || fail tlimit-replay-cands-refused "exit $rc: $(head -2 cb.err | tr '\n' '|')"
fi
finish
