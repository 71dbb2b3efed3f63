#!/usr/bin/env bash
# check/t3160-h200-collect.sh — perf/collect/h200_collect.sh without a GPU:
#   1. --dry-run (bench-fake) on a prepared folder C of 4 real and 4 sampled
#      inputs: both logs complete in collect.tar.xz, summary.txt says done,
#      the temporary folder is gone;
#   2. a folder missing a file (variants.tsv): the file named, exit 1,
#      nothing written ($OUT not created);
#   3. cubins.tar.xz with no Triton variant in its entry: exit 1, named;
#   4. --slice: SAMPLE_SKIP=S SAMPLE_TAKE=T keeps the header and inputs
#      S..S+T-1 of a list (the second sample part's folder is made so);
#      SAMPLE_LAST moves the inputs named to its end, in that order (one not
#      in the slice, named twice or not a number: exit 2, no OUT);
#   5. a bench run that fails (not a --time-limit stop): exit 1, the logs
#      and stderr still packed;
#   6. WARM_FROM_VERIFY=1 and CLOCK=rotate reach bench; other values refused, nothing written;
#      VERIFY_CUT, VERIFY_CUT_AUDIT reach bench as --verify-cut, --verify-cut-audit;
#   7. the hard stop: a bench hanging after one complete input (a giant in
#      flight) is cut CALL_S - 15 s after the start: exit 0 within CALL_S,
#      "cut at the hard stop" said, the .part line packed, the work folder
#      gone, the hanging bench gone;
#   8. a TERM to the script (bench hanging, the hard stop far): the trap runs
#      at once (not when bench ends), stops bench, packs the .part, exit 143,
#      the work folder kept; 9. the same with a TERM to the whole process
#      group (as a device's time limit sends: tee dies too);
#  10. a bad setting (seconds not whole, 0590, CALL_S < 20, LOSER_RATIO out
#      of make's range, LONG_MS not a number, SAMPLES < 1, SAMPLE_LAST not
#      numbers, RESUME without one .part and its .plan) refused with exit 2
#      before anything is written; 11. a second run on the same OUT refused
#      while the first measures, the first's files untouched.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
H=perf/collect/h200_collect.sh
C=$TMP/c
mkdir -p "$C" "$TMP/pack/entry1"
echo '{}' >"$TMP/pack/entry1/v.json"
tar cJf "$C/cubins.tar.xz" -C "$TMP/pack" entry1
echo entry1 >"$C/triton_entry.txt"
"$BIN/sample" --seed 3 --samples 1 -o "$C/sample.tsv" 2>/dev/null
cp "$C/sample.tsv" "$C/real.tsv"
"$BIN/triton_cands" --variants "$C/sample.tsv" "$C/variants.tsv"
run_h() { # OUTDIR MODE: the script on folder C with bench-fake
	C=$C FC=$TMP/fc OUT=$1 BENCH=$BIN/bench-fake REAL_S=30 TOTAL_S=60 bash "$H" "$2"
}

# the work folder a run named (build/h200c-work.XXXXXX, under the repo root)
work_of() { sed -n 's/^== .*: work folder \(build\/h200c-work\.[A-Za-z0-9]*\)$/\1/p' "$1" | head -1; }
# has FILE PATTERN: FILE (tee's copy, written a moment after the script
# ends) holds a line matching PATTERN within 3 s
has() {
	local i
	for i in $(seq 30); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}

# 1. a dry run: the work folder removed after the clean pack
run_h "$TMP/out" --dry-run >"$TMP/log" 2>&1
rc=$?
w=$(work_of "$TMP/log")
tar xJf "$TMP/out/collect.tar.xz" -C "$TMP" 2>/dev/null
if [ $rc -eq 0 ] && has "$TMP/out/summary.txt" "): done$" &&
	grep -qx 'inputs_measured	4' "$TMP/c/stats_real.tsv" &&
	grep -qx 'inputs_measured	4' "$TMP/c/stats_sample.tsv" &&
	[ -s "$TMP/c/real.txt" ] && [ -s "$TMP/c/sample.txt" ] &&
	[ -n "$w" ] && [ ! -e "$w" ]; then
	ok h200_collect_dry_run
else fail h200_collect_dry_run "rc $rc, work folder '$w': $(tail -3 "$TMP/log" | tr '\n' '|')"; fi

# 2. a missing file: named, nothing written
mv "$C/variants.tsv" "$C/variants.keep"
expect_error h200_collect_missing "missing $C/variants.tsv: run perf/collect/h200_collect.sh --prepare" \
	"$TMP/out2" run_h "$TMP/out2" --dry-run
mv "$C/variants.keep" "$C/variants.tsv"

# 3. an entry without variants
rm "$TMP/pack/entry1/v.json"
tar cJf "$C/cubins.tar.xz" -C "$TMP/pack" entry1
rm -rf "$TMP/fc"
run_h "$TMP/out3" --dry-run >"$TMP/log3" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "no Triton variants in $C/cubins.tar.xz" "$TMP/log3" &&
	[ ! -e "$TMP/out3/collect.tar.xz" ] && [ -z "$(work_of "$TMP/log3")" ]; then ok h200_collect_no_variants
else fail h200_collect_no_variants "rc $rc: $(tail -2 "$TMP/log3" | tr '\n' '|')"; fi

# 5. a bench run that fails (not a --time-limit stop, exit 2): exit 1, the
# logs and .err still packed (nothing collected is lost)
printf '#!/bin/sh\necho "bench: made to fail" >&2\nexit 1\n' >"$TMP/failbench"
chmod +x "$TMP/failbench"
echo '{}' >"$TMP/pack/entry1/v.json" && tar cJf "$C/cubins.tar.xz" -C "$TMP/pack" entry1
rm -rf "$TMP/fc"
C=$C FC=$TMP/fc OUT=$TMP/out5 BENCH=$TMP/failbench REAL_S=30 TOTAL_S=60 bash "$H" --dry-run >"$TMP/log5" 2>&1
rc=$?
w=$(work_of "$TMP/log5")
if [ $rc -eq 1 ] && grep -q "a bench run failed" "$TMP/log5" &&
	tar tJf "$TMP/out5/collect.tar.xz" | grep -qx "c/real.err" && [ -n "$w" ] && [ ! -e "$w" ]; then ok h200_collect_bench_fails
else fail h200_collect_bench_fails "rc $rc: $(tail -2 "$TMP/log5" | tr '\n' '|')"; fi

# 6. WARM_FROM_VERIFY=1 reaches bench as --warm-from-verify; a bad value is
# refused before anything is written
printf '#!/bin/sh\necho "$@" >>"%s"\nexit 0\n' "$TMP/args" >"$TMP/argbench"
chmod +x "$TMP/argbench"
rm -rf "$TMP/fc"
WARM_FROM_VERIFY=1 C=$C FC=$TMP/fc OUT=$TMP/out6 BENCH=$TMP/argbench REAL_S=30 TOTAL_S=60 \
	bash "$H" --dry-run >/dev/null 2>&1
if [ "$(grep -c -- '--warm-from-verify' "$TMP/args")" = 2 ]; then ok h200_collect_warm_from_verify
else fail h200_collect_warm_from_verify "$(head -c 300 "$TMP/args")"; fi
: >"$TMP/args"
VERIFY_CUT=2 VERIFY_CUT_AUDIT=5 LOSER_RATIO=1.5 WARM_FROM_VERIFY=1 C=$C FC=$TMP/fc OUT=$TMP/out6v \
	BENCH=$TMP/argbench REAL_S=30 TOTAL_S=60 bash "$H" --dry-run >/dev/null 2>&1
VERIFY_CUT=0.0 LOSER_RATIO=1.5 WARM_FROM_VERIFY=1 C=$C FC=$TMP/fc OUT=$TMP/out6w \
	BENCH=$TMP/argbench REAL_S=30 TOTAL_S=60 bash "$H" --dry-run >/dev/null 2>&1
if [ "$(grep -c -- '--warm-from-verify --verify-cut 2 --verify-cut-audit 5' "$TMP/args")" = 2 ] && [ "$(wc -l < "$TMP/args")" = 4 ] &&
	[ "$(grep -c -- '--verify-cut 0' "$TMP/args")" = 0 ]; then ok h200_collect_verify_cut
else fail h200_collect_verify_cut "$(head -c 300 "$TMP/args")"; fi
: >"$TMP/args"
CLOCK=rotate C=$C FC=$TMP/fc OUT=$TMP/out6c BENCH=$TMP/argbench REAL_S=30 TOTAL_S=60 \
	bash "$H" --dry-run >/dev/null 2>&1
if [ "$(grep -c -- '--clock rotate' "$TMP/args")" = 2 ]; then ok h200_collect_clock
else fail h200_collect_clock "$(head -c 300 "$TMP/args")"; fi
expect_error h200_collect_bad_warm "WARM_FROM_VERIFY='yes': expected 0 or 1 \\(bench --warm-from-verify\\).*; nothing done" "$TMP/out7" \
	env WARM_FROM_VERIFY=yes C="$C" FC="$TMP/fc" OUT="$TMP/out7" BENCH="$TMP/argbench" bash "$H" --dry-run

# 7-9: a bench that writes one complete input's line into its .part (as
# bench does, fsync'd), says its pid, then hangs as a giant in flight does
cat >"$TMP/hangbench" <<EOF
#!/bin/sh
while [ \$# -gt 1 ]; do [ "\$1" = -o ] && o=\$2; shift; done
echo "complete input 0	row" >>"\$o.part"
sync
echo \$\$ >"$TMP/hang.pid.tmp" && mv "$TMP/hang.pid.tmp" "$TMP/hang.pid"
exec sleep 300
EOF
chmod +x "$TMP/hangbench"
# gone NAME: the hanging bench is no longer running (else it is ended here)
gone() {
	local p
	p=$(cat "$TMP/hang.pid" 2>/dev/null) || return 0
	kill -0 "$p" 2>/dev/null || return 0
	kill "$p" 2>/dev/null; fail "$1" "bench (pid $p) left running"; return 1
}
# packed TARBALL: it holds c/sample.txt.part with the line
packed() {
	tar xJOf "$1" c/sample.txt.part 2>/dev/null | grep -qx 'complete input 0	row'
}
# hang_h OUTDIR CALL_S: the script with the hanging bench, sample list only
hang_h() {
	rm -f "$TMP/hang.pid"
	C=$C FC=$TMP/fc OUT=$1 BENCH=$TMP/hangbench REAL_S=0 TOTAL_S=60 CALL_S=$2 bash "$H" --dry-run
}
# wait_pid: until the hanging bench said its pid (its line is written), 10 s
wait_pid() {
	local i
	for i in $(seq 100); do [ -e "$TMP/hang.pid" ] && return 0; sleep 0.1; done
	return 1
}

# 7. the hard stop: CALL_S=20 cuts bench 20 - 15 = 5 s after the start
t0=$(date +%s)
hang_h "$TMP/out8" 20 >"$TMP/log8" 2>&1
rc=$? dt=$(($(date +%s) - t0))
w=$(work_of "$TMP/log8")
if [ $rc -eq 0 ] && [ $dt -le 20 ] && [ $dt -ge 4 ] &&
	has "$TMP/out8/summary.txt" "sample: cut at the hard stop ([45] s); the .part is resumable" &&
	has "$TMP/out8/summary.txt" "): done$" && packed "$TMP/out8/collect.tar.xz" &&
	tar tJf "$TMP/out8/collect.tar.xz" | grep -qx c/sample.err &&
	[ -n "$w" ] && [ ! -e "$w" ]; then
	gone h200_collect_hard_stop && ok h200_collect_hard_stop
else
	gone h200_collect_hard_stop
	fail h200_collect_hard_stop "rc $rc after $dt s, work folder '$w': $(tail -4 "$TMP/log8" | tr '\n' '|')"
fi

# term_h NAME OUTDIR KILLARG: the script (CALL_S=30: the hard stop 15 s
# away) in the background, TERM sent to KILLARG once bench is hanging; the
# trap must not wait for bench: exit 143 within 3 s, the .part packed, the
# work folder kept.  KILLARG "-": the script's pid; "group": its process
# group (setsid gives it one of its own), as a device's time limit sends,
# tee dying with it
term_h() {
	local name=$1 out=$2 sp rc dt w
	rm -f "$TMP/hang.pid"
	# (exec'd, not in a subshell: $! is the script's bash)
	local e=(env C="$C" FC="$TMP/fc" OUT="$out" BENCH="$TMP/hangbench" REAL_S=0 TOTAL_S=60 CALL_S=30)
	if [ "$3" = group ]; then setsid "${e[@]}" bash "$H" --dry-run >"$out.log" 2>&1 &
	else "${e[@]}" bash "$H" --dry-run >"$out.log" 2>&1 &
	fi
	sp=$!
	if ! wait_pid; then
		kill -TERM $sp; wait $sp; gone "$name"
		fail "$name" "bench never started: $(tail -3 "$out.log" | tr '\n' '|')"; return
	fi
	t0=$(date +%s)
	if [ "$3" = group ]; then kill -TERM -- -$sp; else kill -TERM $sp; fi
	wait $sp
	rc=$? dt=$(($(date +%s) - t0))
	w=$(work_of "$out.log")
	if [ $rc -eq 143 ] && [ $dt -le 3 ] && packed "$out/collect.tar.xz" &&
		[ -n "$w" ] && [ -s "$w/c/sample.txt.part" ] &&
		{ [ "$3" = group ] || has "$out/summary.txt" "signal: packed what was written"; }; then
		gone "$name" && ok "$name"
	else
		gone "$name"
		fail "$name" "rc $rc after $dt s, work folder '$w': $(tail -3 "$out.log" | tr '\n' '|')"
	fi
	[ -z "$w" ] || rm -rf "$w"
}
# 8. a TERM to the script alone; 9. to its process group
term_h h200_collect_term "$TMP/out9" -
term_h h200_collect_term_group "$TMP/out10" group

# 10. a bad setting is refused before anything is written: no $OUT, no work
# folder (each would otherwise fail half-way, lose data or measure nothing)
nwork() { compgen -G "build/h200c-work.*" | wc -l; }
bad_h() { # NAME PATTERN VAR=VALUE...: refused, exit 2, nothing written
	local name=$1 pat=$2 n0
	shift 2
	n0=$(nwork)
	expect_error "$name" "$pat" "$TMP/out12" env C="$C" FC="$TMP/fc" OUT="$TMP/out12" \
		BENCH="$BIN/bench-fake" "$@" bash "$H" --dry-run
	[ "$(nwork)" = "$n0" ] || fail "$name" "a work folder was made"
}
bad_h h200_collect_bad_total "TOTAL_S=abc: expected whole seconds" TOTAL_S=abc
bad_h h200_collect_bad_call_octal "CALL_S=0590: expected whole seconds" CALL_S=0590
bad_h h200_collect_bad_call_small "CALL_S=10: expected at least 20" CALL_S=10
bad_h h200_collect_bad_real "REAL_S=-5: expected whole seconds" REAL_S=-5
bad_h h200_collect_bad_loser "LOSER_RATIO='1,5': expected 0 \\(off\\) or a factor" LOSER_RATIO=1,5
bad_h h200_collect_bad_loser_small "LOSER_RATIO='1': expected 0 \\(off\\) or a factor" LOSER_RATIO=1
bad_h h200_collect_bad_verify_cut "VERIFY_CUT='1.2': expected 0 \\(off\\) or a factor >= LOSER_RATIO='1.5'" VERIFY_CUT=1.2 LOSER_RATIO=1.5 WARM_FROM_VERIFY=1
bad_h h200_collect_verify_cut_alone "VERIFY_CUT='2': expected 0 \\(off\\) or a factor >= LOSER_RATIO='0'" VERIFY_CUT=2
bad_h h200_collect_verify_cut_long_0 "VERIFY_CUT='2': needs LONG_MS > 0" VERIFY_CUT=2 LOSER_RATIO=1.5 WARM_FROM_VERIFY=1 LONG_MS=0
bad_h h200_collect_bad_verify_cut_audit "VERIFY_CUT_AUDIT='x': expected an integer" VERIFY_CUT_AUDIT=x
bad_h h200_collect_bad_long "LONG_MS='ten': expected a number" LONG_MS=ten
bad_h h200_collect_bad_clock "CLOCK=cold: expected inductor, rotate or warm" CLOCK=cold
bad_h h200_collect_clock_with_loser "CLOCK=rotate with LOSER_RATIO=1.5: the cuts" CLOCK=rotate LOSER_RATIO=1.5
bad_h h200_collect_clock_with_long "CLOCK=warm with LONG_MS=5: the cuts" CLOCK=warm LONG_MS=5
bad_h h200_collect_bad_samples "SAMPLES=0: expected a whole number of samples" SAMPLES=0
bad_h h200_collect_bad_last "SAMPLE_LAST=3 x: expected input numbers" SAMPLE_LAST="3 x"
bad_h h200_collect_bad_last_zero "SAMPLE_LAST=3 01: expected input numbers" SAMPLE_LAST="3 01"
bad_h h200_collect_bad_samples_empty "SAMPLES=: expected a whole number of samples" SAMPLES=
bad_h h200_collect_bad_skip "SAMPLE_SKIP=x: expected a whole number of inputs" SAMPLE_SKIP=x
bad_h h200_collect_bad_resume "RESUME=$TMP/nosuch: expected one LOG.part and its LOG.part.plan" RESUME="$TMP/nosuch"
mkdir -p "$TMP/res_noplan" && echo x >"$TMP/res_noplan/sample.txt.part"
bad_h h200_collect_resume_no_plan "RESUME=$TMP/res_noplan: expected one LOG.part and its LOG.part.plan" RESUME="$TMP/res_noplan"

# 11. one run per OUT: a second one, while the first is measuring, is refused
# and does not touch the first's files
rm -f "$TMP/hang.pid"
C=$C FC=$TMP/fc OUT=$TMP/out13 BENCH=$TMP/hangbench REAL_S=0 TOTAL_S=60 CALL_S=30 bash "$H" --dry-run >"$TMP/log13" 2>&1 &
sp=$!
if wait_pid; then
	C=$C FC=$TMP/fc OUT=$TMP/out13 BENCH=$BIN/bench-fake bash "$H" --dry-run >"$TMP/log13b" 2>&1
	rc2=$?
	kill -TERM $sp; wait $sp
	rc1=$?
	w=$(work_of "$TMP/log13")
	if [ $rc2 = 2 ] && grep -q "another h200_collect.sh is writing $TMP/out13" "$TMP/log13b" &&
		[ $rc1 = 143 ] && packed "$TMP/out13/collect.tar.xz" && ! grep -q "bench-fake\|another" "$TMP/out13/summary.txt"; then
		gone h200_collect_one_per_out && ok h200_collect_one_per_out
	else
		gone h200_collect_one_per_out
		fail h200_collect_one_per_out "second rc $rc2, first rc $rc1: $(tail -2 "$TMP/log13b" | tr '\n' '|')"
	fi
	[ -z "$w" ] || rm -rf "$w"
else
	kill -TERM $sp; wait $sp; gone h200_collect_one_per_out
	fail h200_collect_one_per_out "bench never started: $(tail -3 "$TMP/log13" | tr '\n' '|')"
fi

# 4. the slice: the header, then inputs 1 and 2 of the 4
SAMPLE_SKIP=1 SAMPLE_TAKE=2 bash "$H" --slice "$C/sample.tsv" "$TMP/slice.tsv"
if [ "$(cut -f1 "$TMP/slice.tsv" | tr '\n' ' ')" = "input 1 2 " ]; then ok h200_collect_slice
else fail h200_collect_slice "$(cut -f1 "$TMP/slice.tsv" | tr '\n' ' ')"; fi
SAMPLE_SKIP=3 bash "$H" --slice "$C/sample.tsv" "$TMP/slice2.tsv"
if [ "$(cut -f1 "$TMP/slice2.tsv" | tr '\n' ' ')" = "input 3 " ]; then ok h200_collect_slice_rest
else fail h200_collect_slice_rest "$(cut -f1 "$TMP/slice2.tsv" | tr '\n' ' ')"; fi
# SAMPLE_LAST: inputs 2 and 0 moved to the end, in that order, the rest
# in the list's order; a number not in the slice, or twice, or not a
# number: exit 2 and no OUT
SAMPLE_LAST="2 0" bash "$H" --slice "$C/sample.tsv" "$TMP/slice3.tsv"
if [ "$(cut -f1 "$TMP/slice3.tsv" | tr '\n' ' ')" = "input 1 3 2 0 " ] &&
	[ "$(sort "$TMP/slice3.tsv" | md5sum)" = "$(sort "$C/sample.tsv" | md5sum)" ]; then ok h200_collect_slice_last
else fail h200_collect_slice_last "$(cut -f1 "$TMP/slice3.tsv" | tr '\n' ' ')"; fi
for last in "1 9" "1 1"; do
	SAMPLE_SKIP=1 SAMPLE_LAST="$last" bash "$H" --slice "$C/sample.tsv" "$TMP/slice4.tsv" 2>"$TMP/slice4.err"
	rc=$?
	if [ $rc = 2 ] && [ ! -e "$TMP/slice4.tsv" ] && [ ! -e "$TMP/slice4.tsv.tmp" ] &&
		grep -q "SAMPLE_LAST" "$TMP/slice4.err"; then ok "h200_collect_slice_last_bad ($last)"
	else fail "h200_collect_slice_last_bad ($last)" "rc $rc: $(cat "$TMP/slice4.err")"; fi
done
: >"$TMP/empty.tsv"
bash "$H" --slice "$TMP/empty.tsv" "$TMP/slice5.tsv" 2>"$TMP/slice5.err"
rc=$?
[ $rc = 1 ] && [ ! -e "$TMP/slice5.tsv" ] && grep -q "missing or empty (no header line)" "$TMP/slice5.err" &&
	ok h200_collect_slice_empty || fail h200_collect_slice_empty "rc $rc: $(cat "$TMP/slice5.err")"
finish
