#!/usr/bin/env bash
# bench --time-limit's rule for starting an input (stages/gpu/policy/tlimit.h):
#   * the rule itself, through build/unit/tlimit_print, on
#     check/fixtures/tlimit/cases.txt against the hand-derived expected.txt:
#     the kinds, the work, no rate yet, the H100's fp32 giant predicted past
#     the limit and not started, time up, a rate per kind, the 2 % floor, the
#     highest rate kept, no limit, a limit of 0;
#   * bench-fake with --fake-delay-ms 400 on four inputs of one shape: at
#     --time-limit 1.0 the run stops before an input it predicts would end
#     past 1.0 s (the old rule started every input before 1.0 s and ran to
#     1.2 s), says so, ends before its limit, writes stopped_before_s to
#     --stats, and the rerun completes it to the uninterrupted run's log byte
#     for byte; at --time-limit 2.5 nothing is predicted past it (no stop).
# Prerequisites: build/unit/tlimit_print and build/bin/bench-fake (make
# check-bins); no GPU.
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
finish
