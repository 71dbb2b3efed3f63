#!/usr/bin/env bash
# bench's log writing and resumption, without a GPU (design.md "Resumable",
# spec §1.1, §1.3, §1.4), through build/bin/bench-fake: the same driver and
# planning code as build/bin/bench with a deterministic measuring back end.
#   * the log: exact metadata line and header, one row per (input,
#     candidate, rep), feedback as Python str(float), inf for failures;
#   * a run killed with SIGKILL mid-way, a torn trailing line, or a file cut
#     at any byte is continued to the byte-identical complete log;
#   * a log made with other settings (reps, device metadata) is refused;
#   * shards 0/2 + 1/2 hold exactly the rows of the unsharded run;
#   * --time-limit stops resumably (exit 2); a finished LOG is not redone;
#   * build/bin/bench (CUDA) without a GPU exits 1 with a clear message.
. check/lib.sh
F=$BIN/bench-fake
test_have_bins bench-fake bench-fake || finish
"$BIN/sample" --seed 3 --samples 6 -o "$TMP/shapes.tsv" || { fail bench-shapes "sample failed"; finish; }
# add small/odd shapes so shrinking (spec §3.5) and dedup are exercised
printf '%s\n' \
 "24	6	1	1	1	torch.float16	0	0	0	1	1	1	1	True	True	not_float_32" \
 "25	6	1	2	1	torch.float16	0	0	1	2	1	1	2	True	True	not_float_32" \
 "26	7	17	33	65	torch.float32	1	1	0	1	17	65	1	False	True	True" \
 "27	7	17	33	65	torch.float32	1	1	1	1	17	1	33	False	False	True" >> "$TMP/shapes.tsv"
K="--kernels $ROOT/kernels"
cd "$TMP"

"$F" $K shapes.tsv full.txt 2>full.err; rc=$?
[ $rc -eq 0 ] && [ -f full.txt ] && [ ! -e full.txt.part ] && ok bench-fake-runs || fail bench-fake-runs "exit $rc: $(tail -2 full.err)"

META='{"shared_memory": 232448, "device_capa": [9, 0], "name": "mm", "numerical_features": ["m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"], "categorical_features": ["mat1_dtype", "mat2_dtype", "mat1_iscontig", "mat2_iscontig", "using_tf32"]}'
HDR='m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback'
[ "$(sed -n 1p full.txt)" = "$META" ] && ok bench-log-metadata || fail bench-log-metadata "$(sed -n 1p full.txt)"
[ "$(sed -n 2p full.txt)" = "$HDR" ] && ok bench-log-header || fail bench-log-header "$(sed -n 2p full.txt)"

# every row: 14 fields, features equal to shapes.tsv's (row counts: below),
# extern_mm first; choice ids well-formed; feedback positive or inf
awk -F'\t' 'NR > 1 { print $3","$4","$5","$6","$6","$10","$11","$12","$13","$14","$15","$16 }' shapes.tsv > feats
awk -F, -v feats=feats '
BEGIN { while ((getline l < feats) > 0) want[++nw] = l }
NR <= 2 { next }
{
	if (NF != 14) { bad = "fields at line " NR; exit }
	f = $1; for (i = 2; i <= 12; i++) f = f "," $i
	if (f != cur) {
		cur = f; rows = 0; in_++
		if (f != want[in_]) { bad = "input " in_ " is " f ", expected " want[in_]; exit }
		if ($13 != "extern_mm") { bad = "first choice of input " in_ " is " $13; exit }
	}
	rows++
	if ($13 != "extern_mm" && $13 !~ /^type=nvrtc_BLOCK-M=[0-9]+_BLOCK-K=[0-9]+_BLOCK-N=[0-9]+_numstages=[0-9]+_numwarps=[0-9]+$/) { bad = "choice " $13; exit }
	if ($14 == "inf") infs++; else if (!($14 + 0 > 0)) { bad = "feedback " $14; exit }
}
END { if (bad == "" && in_ != nw) bad = in_ " inputs, expected " nw; if (bad) { print bad; exit 1 } }' full.txt > awk.out \
	&& ok bench-log-rows || fail bench-log-rows "$(cat awk.out)"
# the 1x1x1 inputs shrink every config to 16x16x16 with 1 warp
grep -q '^1,1,1,.*type=nvrtc_BLOCK-M=16_BLOCK-K=16_BLOCK-N=16_numstages=1_numwarps=1,' full.txt \
	&& ! grep -q '^1,1,1,.*BLOCK-M=32' full.txt && ok bench-shrink || fail bench-shrink "no shrunk 16x16x16 candidate for 1x1x1"

if test_skip_unless PYTHON3 bench-feedback-python-repr; then
	python3 - full.txt <<'EOF' > repr.out && ok bench-feedback-python-repr || fail bench-feedback-python-repr "$(head -3 repr.out)"
import sys
bad = [l for l in open(sys.argv[1]).read().split('\n')[2:] if l and repr(float(l.rsplit(',', 1)[1])) != l.rsplit(',', 1)[1]]
print('\n'.join(bad[:3])); sys.exit(1 if bad else 0)
EOF
fi

"$F" $K shapes.tsv again.txt 2>/dev/null
test_cmp bench-deterministic full.txt again.txt

# --- adaptive repetitions (--fast-reject, default 1.5) --------------------------
# Recompute the rule from the log alone: per input, the first repetition of
# every candidate in plan order, then repetitions 2..3 only for candidates
# whose first one is <= 1.5 x the running best (inf never); with
# --fast-reject 0 every candidate has 3 rows.  (A plan can list one config
# twice: Inductor dedups within its base and extra lists, not across.)
cat > firsts.py <<'EOF'
import sys
def firsts(p):
    out, seen = [], set()
    for l in open(p).read().split('\n')[2:]:
        if not l: continue
        f, c, v = l.rsplit(',', 2)
        if (f, c) not in seen:
            seen.add((f, c)); out.append(l)
    return out
print('same' if firsts(sys.argv[1]) == firsts(sys.argv[2]) else 'differ')
EOF
if test_skip_unless PYTHON3 bench-adaptive-reps-rule; then
	r=$(python3 "$ROOT/check/adaptive_reps.py" full.txt 1.5) && set -- $r && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] \
		&& ok bench-adaptive-reps-rule || fail bench-adaptive-reps-rule "$r"
	"$F" $K --fast-reject 0 shapes.tsv full0.txt 2>/dev/null
	r=$(python3 "$ROOT/check/adaptive_reps.py" full0.txt 0) && set -- $r && [ "$2" = 0 ] \
		&& [ $(( $(wc -l < full0.txt) - 2 )) = $(( 3 * $1 )) ] \
		&& ok bench-fast-reject-off-all-reps || fail bench-fast-reject-off-all-reps "$r"
	# the first repetitions are the same measurements either way
	r=$(python3 firsts.py full.txt full0.txt)
	[ "$r" = same ] && ok bench-adaptive-first-reps || fail bench-adaptive-first-reps "$r"
fi

# --- screening of long inputs (--screen, default 1.3) ---------------------------
# bench-fake's slice keeps the time ratios, so the rule is checkable from a
# --screen 0 log: on screened inputs exactly the candidates within 1.3x of
# the best keep rows.  Every test above already ran with screening on (the
# default), including the kill/cut/resume ones.
if test_skip_unless PYTHON3 bench-screen-rule; then
	"$F" $K --screen 0 shapes.tsv nos.txt 2>/dev/null
	r=$(python3 "$ROOT/check/screen_rule.py" nos.txt full.txt 1.3 2) && set -- $r && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] \
		&& ok bench-screen-rule || fail bench-screen-rule "$r"
	dropped=${2:-x}
	"$F" $K --screen 2.5 --screen-ms 1000 shapes.tsv s25.txt 2>/dev/null
	r=$(python3 "$ROOT/check/screen_rule.py" nos.txt s25.txt 2.5 1000) && ok bench-screen-rule-options || fail bench-screen-rule-options "$r"
	# --screen-audit: the complete log, the dropped candidates counted
	"$F" $K --screen-audit --stats audit.tsv shapes.tsv audit.txt 2>/dev/null
	cmp -s nos.txt audit.txt && grep -q "^screened_out	$dropped$" audit.tsv && grep -q "^screen_misses	0$" audit.tsv \
		&& ok bench-screen-audit || fail bench-screen-audit "$(grep screen audit.tsv | tr '\n' ' ') dropped $dropped"
fi
# with one repetition a screened block could not be told from a cut one: off
"$F" $K --reps 1 shapes.tsv r1.txt 2>/dev/null; "$F" $K --reps 1 --screen 0 shapes.tsv r1s0.txt 2>/dev/null
test_cmp bench-screen-off-with-one-rep r1s0.txt r1.txt
# a screened log cut at every line boundary resumes to the same log
okl=1; nl=$(wc -l < full.txt)
for ((l = 2; l < nl; l++)); do
	head -n $l full.txt > cl.txt.part
	if ! "$F" $K shapes.tsv cl.txt 2>cl.err || ! cmp -s full.txt cl.txt; then
		okl=0; fail bench-screen-resume-line-$l "$(tail -2 cl.err)"; break
	fi
	rm -f cl.txt cl.txt.part
done
[ $okl = 1 ] && ok bench-screen-resume-every-line
# a screened log is not continued without screening (another plan)
head -n $((nl - 3)) full.txt > scr.txt.part
expect_error bench-screen-resume-other-plan 'does not match the plan' scr.txt "$F" $K --screen 0 shapes.tsv scr.txt
expect_error bench-screen-bad-value "--screen: expected 0 \\(off\\) or a factor >= 1, got 0.5" bad.txt "$F" $K --screen 0.5 shapes.tsv bad.txt
# --fast-reject: 0 or >= 1/0.98 (stages/formats/rules.h): a smaller factor would
# cut a near-best choice to one repetition
for f in 0.5 1 1.02; do
	expect_error bench-fast-reject-bad-$f "--fast-reject: expected 0 \\(off\\) or a factor >= 1/0.98 = 1.0204082 .*got $f\$" \
		bad.txt "$F" $K --fast-reject $f shapes.tsv bad.txt
done
rm -f fr.txt
"$F" $K --fast-reject 1.0205 shapes.tsv fr.txt 2>"$TMP/fr.err" && [ -s fr.txt ] && ok bench-fast-reject-margin-ok ||
	fail bench-fast-reject-margin-ok "$(head -c 300 "$TMP/fr.err")"
# bench-fake's messages name bench-fake (its usage line too)
"$F" $K --reps 2 >/dev/null 2>"$TMP/u.err"
grep -q '^bench-fake: usage: bench-fake \[options\] -o LOG SHAPES, or bench-fake \[options\] SHAPES LOG' "$TMP/u.err" &&
	ok bench-fake-usage-names-itself || fail bench-fake-usage-names-itself "$(cat "$TMP/u.err")"
expect_error bench-screen-ms-zero "--screen-ms: expected a time > 0 ms, got 0" bad.txt "$F" $K --screen-ms 0 shapes.tsv bad.txt
# the screening settings of a part live in LOG.part.plan until LOG is
# complete; a resume with other settings is refused, the part untouched
"$F" $K --fake-delay-ms 30 --time-limit 0.15 shapes.tsv pl.txt 2>/dev/null
if [ -s pl.txt.part ] && [ "$(cat pl.txt.part.plan 2>/dev/null)" = "screen=1.3 screen_ms=2 audit=0" ] &&
	[ "$(wc -l < pl.txt.part)" -gt 2 ]; then
	ok bench-screen-plan-sidecar
	cp pl.txt.part pl.before
	expect_error bench-screen-plan-other 'was made with screen=1.3 screen_ms=2 audit=0, this run has screen=2 ' \
		pl.txt "$F" $K --screen 2 shapes.tsv pl.txt
	cmp -s pl.txt.part pl.before && ok bench-screen-plan-part-untouched || fail bench-screen-plan-part-untouched "changed"
	"$F" $K shapes.tsv pl.txt 2>/dev/null
	cmp -s full.txt pl.txt && [ ! -e pl.txt.part.plan ] && ok bench-screen-plan-resume-same \
		|| fail bench-screen-plan-resume-same "log differs or sidecar left"
else
	fail bench-screen-plan-sidecar "$(cat pl.txt.part.plan 2>&1); $(wc -l < pl.txt.part 2>&1) lines"
fi
# --screen-audit works with one repetition too (its log is complete)
"$F" $K --reps 1 --screen-audit --stats a1.tsv shapes.tsv a1.txt 2>/dev/null
cmp -s r1s0.txt a1.txt && ! grep -q "^screened_inputs	0$" a1.tsv && ok bench-screen-audit-one-rep \
	|| fail bench-screen-audit-one-rep "$(grep screen a1.tsv | tr '\n' ' ')"

# --- failures are inf rows, the run continues -------------------------------
"$F" $K --fast-reject 0 --fake-fail 5 shapes.tsv failing.txt 2>failing.err
[ -f full0.txt ] || "$F" $K --fast-reject 0 shapes.tsv full0.txt 2>/dev/null
n=$(grep -c ',inf$' failing.txt)
[ "$n" -gt 0 ] && [ "$(wc -l < failing.txt)" = "$(wc -l < full0.txt)" ] && grep -q 'fake failure' failing.err \
	&& ok bench-failure-is-inf || fail bench-failure-is-inf "$n inf rows"
# adaptive: a failed candidate is one inf row (never repeated)
"$F" $K --fake-fail 5 shapes.tsv failing1.txt 2>/dev/null
n1=$(grep -c ',inf$' failing1.txt)
[ $((n1 * 3)) = "$n" ] && ok bench-failure-one-row || fail bench-failure-one-row "$n1 adaptive vs $n inf rows"

# --- resumption ----------------------------------------------------------------
# 1. SIGKILL in the middle of a slow run, then resume
"$F" $K --fake-delay-ms 40 shapes.tsv killed.txt 2>/dev/null &
pid=$!
wait_lines killed.txt.part 3
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -e killed.txt ] || [ ! -e killed.txt.part ]; then
	fail bench-kill-leaves-part "expected killed.txt.part only"
else
	ok bench-kill-leaves-part
	done_rows=$(($(wc -l < killed.txt.part) - 2))
	[ "$done_rows" -gt 0 ] && [ "$done_rows" -lt $(($(wc -l < full.txt) - 2)) ] \
		&& ok bench-kill-midway || fail bench-kill-midway "$done_rows rows at kill time"
	printf '1024,512,20' >> killed.txt.part     # a torn line as a crash can leave
	"$F" $K shapes.tsv killed.txt 2>resume.err
	test_cmp bench-resume-after-kill full.txt killed.txt
	grep -q 'already done' resume.err && grep -q 'dropping' resume.err \
		&& ok bench-resume-reports || fail bench-resume-reports "$(head -3 resume.err)"
fi

# 2. the file cut at many byte offsets (inside the metadata, inside a row,
#    at a row boundary inside an input, at an input boundary)
size=$(wc -c < full.txt)
okcut=1
for cut in 0 1 100 $(( $(head -1 full.txt | wc -c) + 5 )) $(( $(head -2 full.txt | wc -c) )) \
           $(( $(head -3 full.txt | wc -c) )) $(( $(head -40 full.txt | wc -c) - 7 )) \
           $(( $(head -95 full.txt | wc -c) )) $((size / 2)) $((size - 1)); do
	head -c $cut full.txt > cut.txt.part
	if ! "$F" $K shapes.tsv cut.txt 2>cut.err || ! cmp -s full.txt cut.txt; then
		okcut=0; fail bench-resume-cut-$cut "$(tail -2 cut.err)"
	fi
	rm -f cut.txt cut.txt.part
done
[ $okcut = 1 ] && ok bench-resume-any-cut

# 3. the resumed run measures only what is missing: with a delay per input
#    it is much faster than a full run
head -n $(( $(wc -l < full.txt) - 3 )) full.txt > quick.txt.part
start=$(date +%s%N)
"$F" $K --fake-delay-ms 200 shapes.tsv quick.txt 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cmp -s full.txt quick.txt && [ $ms -lt 2000 ] && ok bench-resume-skips-done \
	|| fail bench-resume-skips-done "${ms} ms or different log"

# 4. logs made with other settings are refused, the file left as it was
head -n 120 full.txt > other.txt.part; cp other.txt.part other.before
expect_error bench-resume-other-reps 'does not match the plan' other.txt "$F" $K --reps 2 shapes.tsv other.txt
cmp -s other.txt.part other.before && ok bench-refused-file-untouched || fail bench-refused-file-untouched "changed"
expect_error bench-resume-other-fast-reject 'does not match the plan' other.txt "$F" $K --fast-reject 0 shapes.tsv other.txt
sed '1s/232448/166912/' full.txt | head -n 30 > meta.txt.part
expect_error bench-resume-other-device 'does not match the existing metadata' meta.txt "$F" $K shapes.tsv meta.txt
expect_error bench-done-not-redone 'this shard is complete' /dev/null/x "$F" $K shapes.tsv full.txt

# --- shards --------------------------------------------------------------------
"$F" $K --shard 0/2 shapes.tsv s0.txt 2>/dev/null && "$F" $K --device 1 --shard 1/2 shapes.tsv s1.txt 2>/dev/null
{ tail -n +3 s0.txt; tail -n +3 s1.txt; } | sort > shard.rows
tail -n +3 full.txt | sort > full.rows
test_cmp bench-shards-partition full.rows shard.rows
[ "$(head -2 s0.txt)" = "$(head -2 s1.txt)" ] && ok bench-shards-same-metadata || fail bench-shards-same-metadata "differ"
expect_error bench-bad-shard "--shard: expected I/N with 0 <= I < N" bad.txt "$F" $K --shard 2/2 shapes.tsv bad.txt

# --- time limit ------------------------------------------------------------------
"$F" $K --time-limit 0 shapes.tsv tl.txt 2>tl.err; rc=$?
[ $rc -eq 2 ] && [ ! -e tl.txt ] && [ "$(wc -l < tl.txt.part)" = 2 ] && ok bench-time-limit-stops \
	|| fail bench-time-limit-stops "exit $rc"
"$F" $K shapes.tsv tl.txt 2>/dev/null
test_cmp bench-time-limit-resumes full.txt tl.txt

# --- stats -------------------------------------------------------------------------
rm -f st.txt; "$F" $K --stats st.tsv shapes.tsv st.txt 2>/dev/null
grep -q "^inputs_measured	28$" st.tsv && ok bench-stats || fail bench-stats "$(head -8 st.tsv | tr '\n' ' ')"

# --- the CUDA build without a GPU ------------------------------------------------
if [ -x "$BIN/bench" ]; then
	if test_skip_unless '!GPU' bench-no-gpu; then
		expect_error bench-no-gpu 'no usable CUDA GPU' nogpu.txt "$BIN/bench" $K shapes.tsv nogpu.txt
		[ ! -e nogpu.txt.part ] && ok bench-no-gpu-no-file || fail bench-no-gpu-no-file "nogpu.txt.part created"
	fi
else
	skip bench-no-gpu "[CUDA] $BIN/bench not built (needs the CUDA toolkit)"
fi
finish
