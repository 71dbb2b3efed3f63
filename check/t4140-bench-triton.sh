#!/usr/bin/env bash
# bench --template triton (Inductor's own candidates, stages/gpu/bench/triton.c)
# and the collection paths around it, without a GPU (bench-fake):
#   * per input the candidates equal triton_cands' list for it (Inductor's
#     order and ids, both copies of an id of the mm and mm-ah lists), padded
#     strides logged as given; no rows for m = 1 (Inductor autotunes
#     nothing) and for decompose_k inputs (refused whole, with a message
#     naming file:line);
#   * a run killed in the middle, or its log cut at any line or inside one,
#     resumes to the byte-identical log (duplicate ids included);
#   * screening is off for it (the plan sidecar says screen=0 and the
#     tables' torch version), --screen-audit is refused; LOG.versions.tsv;
#   * the long-kernel rule (--long-ms, default 10; stages/gpu/policy/ttsched.h):
#     --stats long_choices / long_fallbacks equal the rows of the log whose
#     time is >= 10 ms / whose fake warm-up (1.5 x the time) alone is, the
#     log is byte-identical with --long-ms 0 (which counts none and makes
#     more timed launches), the plan sidecar records T and N, and a part
#     made with another T or N (or, with the rule on, by an older bench
#     without one) is refused, while an older part resumes with --long-ms 0;
#   * the loser cut (--loser-ratio L, default 0 = off; stages/gpu/policy/ttsched.h):
#     --stats loser_choices / loser_fallbacks equal bench-fake's schedule
#     replayed by check/fixtures/ttsched/loser_replay.awk over the log
#     (--reps 1 at L = 1.5 and 3: 175 and 3, 170 and 2 on these inputs;
#     --reps 3, where the best so far spans every repetition: 584 and 4),
#     0 when off, the log byte-identical, fewer timed launches; the plan
#     records L only when on; a part made with another L, without it, or
#     (without it) a part made with it is refused naming the sidecar and the
#     field, the part left as it was, and one made with the same L resumes
#     to the same log; L <= 1/0.98, > 100, negative, for another back end or
#     with --use-heuristic is refused before any output; make collect
#     LOSER_RATIO=<bad> is refused before the collection is touched (its
#     shards, stamps and merged log unchanged), a good one passed and stamped;
#   * the GPU A/B scripts (perf/experiments/loser_ab.sh, long_ms_ab.sh, their
#     shared perf/experiments/rule_ab.sh) dry-run on bench-fake: both sets, four
#     runs each, the rule's counters only in its runs, the tables written;
#   * bad lines of the shape list are refused with file:line: field, and
#     -o LOG equals the positional form;
#   * make collect SHAPES=<padded list> KERNEL_TEMPLATE=triton reaches
#     merged.txt with the exact strides (+ merged.txt.versions.tsv); make -n
#     lists the variants and compiles them (mmrank.bench.triton_aot) before the shard;
#   * make collect BACKEND=inductor (mmrank.bench.inductor_collect, faked) shards,
#     merges and records the versions like bench.
. check/lib.sh
F=$BIN/bench-fake TC=$BIN/triton_cands
test_have_bins bench-triton bench-fake triton_cands || finish
K=(--kernels "$ROOT/kernels" --template triton)
cd "$TMP"
# 0 nothing shrinks; 1 decode-like nt (ids of both lists repeat); 2 tn tf32;
# 3 m = 1; 4 decompose_k (k >= 32 max(m, n)); 5 padded mat1 (lm_head-like);
# 6 padded mat2; 7 odd fp32; 8 a size-1 dimension with stride 1
cat > s.tsv <<'EOF'
input	m	k	n	dtype	tf32	mat1_stride_0	mat1_stride_1	mat2_stride_0	mat2_stride_1
0	1024	1024	1024	torch.float16	0	1024	1	1024	1
1	8	4096	4096	torch.float16	0	4096	1	1	4096
2	1000	1000	1000	torch.float32	1	1	1000	1000	1
3	1	4096	4096	torch.float16	0	4096	1	4096	1
4	32	4096	32	torch.bfloat16	0	4096	1	32	1
5	4096	50272	768	torch.float16	0	50304	1	768	1
6	16	1000	4320	torch.float16	0	1000	1	4352	1
7	37	77	264	torch.float32	0	77	1	264	1
8	8320	1	1664	torch.float32	1	1	1	1	1
EOF
"$TC" --configs "$ROOT/kernels/inductor_mm_configs.tsv" --params "$ROOT/kernels/inductor_mm_params.tsv" s.tsv c.tsv || { fail bench-triton-cands "triton_cands failed"; finish; }
"$F" "${K[@]}" --reps 1 --fast-reject 0 s.tsv one.txt 2>one.err || { fail bench-triton-run "$(tail -2 one.err)"; finish; }
ok bench-triton-run
# expected: triton_cands' ids of the inputs it gives no decompose_k and some candidates
awk -F'\t' 'NR > 1 { id[NR] = $1; c[NR] = $12; if ($13 == "decompose_k" || $12 == "-") bad[$1] = 1 }
	END { for (i = 2; i <= NR; i++) if (!(id[i] in bad)) print id[i] "," c[i] }' c.tsv > want.ids
# actual: the log's rows in order, each input named by its features
awk -F'\t' 'NR > 1 { print $2","$3","$4","$5","$5","$7","$8","$9","$10 }' s.tsv > feats
awk -F, 'NR == FNR { f[$0] = FNR - 1; next } FNR > 2 { k = $1; for (i = 2; i <= 9; i++) k = k "," (i == 5 ? $4 : $i)
	if (!(k in f)) { print "unknown " k; next } print f[k] "," $13 }' feats one.txt > got.ids
test_cmp bench-triton-candidates-equal-triton-cands want.ids got.ids
nd=$(awk -F'\t' 'NR > 1 && $22 >= 0' c.tsv | wc -l)
nr=$(grep -c . got.ids)
[ "$nd" -gt 0 ] && [ "$nr" = "$(grep -c . want.ids)" ] && ok bench-triton-duplicates-logged-twice ||
	fail bench-triton-duplicates-logged-twice "$nd duplicates, $nr rows"
# the padded strides as given, in the features
grep -q '^4096,50272,768,torch.float16,torch.float16,50304,1,768,1,False,True,not_float_32,type=triton_' one.txt &&
	grep -q '^8320,1,1664,torch.float32,torch.float32,1,1,1,1,True,True,True,extern_mm,' one.txt &&
	ok bench-triton-strides-as-given || fail bench-triton-strides-as-given "$(cut -d, -f1-12 one.txt | sort -u | head -4 | tr '\n' '|')"
grep -q '^bench: input 3 (s.tsv:5, 1x4096x4096 torch.float16): Inductor autotunes no mm at m = 1' one.err &&
	grep -q '^bench: input 4 (s.tsv:6, 32x4096x32 torch.bfloat16): k >= 32 x max(m, n): Inductor also offers 5 decompose_k candidates, which this back end does not time' one.err &&
	! grep -q '^1,4096,4096,\|^32,4096,32,' one.txt && ok bench-triton-skipped-inputs ||
	fail bench-triton-skipped-inputs "$(grep 'no rows' one.err | tr '\n' '|')"

# ---- resumption, with adaptive repetitions (the default) ---------------------------
"$F" "${K[@]}" --stats st.tsv s.tsv full.txt 2>/dev/null
grep -q '^inputs_measured	7$' st.tsv && grep -q '^inputs_skipped	2$' st.tsv && grep -q '^torch	2.11.0+cu130$' st.tsv &&
	ok bench-triton-stats || fail bench-triton-stats "$(grep -E 'inputs_|torch' st.tsv | tr '\n' ' ')"
"$F" "${K[@]}" --fake-delay-ms 60 s.tsv k.txt 2>/dev/null &
pid=$!; wait_lines k.txt.part 3; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -e k.txt.part ] && [ ! -e k.txt ]; then
	"$F" "${K[@]}" s.tsv k.txt 2>/dev/null
	test_cmp bench-triton-resume-after-kill full.txt k.txt
else fail bench-triton-resume-after-kill "no part file after the kill"; fi
okc=1; nl=$(wc -l < full.txt)
for ((l = 2; l < nl; l++)); do
	head -n $l full.txt > cut.txt.part
	[ $((l % 3)) = 0 ] && printf '1024,1024,1024,torch.float16,torch.fl' >> cut.txt.part # a torn line
	if ! "$F" "${K[@]}" s.tsv cut.txt 2>cut.err || ! cmp -s full.txt cut.txt; then
		okc=0; fail bench-triton-resume-cut-line-$l "$(tail -1 cut.err)"; break
	fi
	rm -f cut.txt cut.txt.part cut.txt.part.plan
done
[ $okc = 1 ] && ok bench-triton-resume-every-cut
# screening is off (its kernels are specialised to K): the sidecar says so
"$F" "${K[@]}" --time-limit 0 s.tsv tl.txt 2>/dev/null
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2\ntorch\t2.11.0+cu130\n' > plan.want
test_cmp bench-triton-no-screening plan.want tl.txt.part.plan
expect_error bench-triton-no-screen-audit '--screen-audit: --template triton has no screening' x.txt \
	"$F" "${K[@]}" --screen-audit s.tsv x.txt
printf 'key\tvalue\nbackend\ttriton\ntorch\t2.11.0+cu130\nmeasurer\tfake\ndevice\tfake device 0\n' > v.want
test_cmp bench-triton-versions-sidecar v.want full.txt.versions.tsv
# a part made with other tables is refused (the sidecar's identity)
head -n 40 full.txt > o.txt.part
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2\ntorch\t2.10.0\n' > o.txt.part.plan
expect_error bench-triton-resume-other-tables 'o.txt.part was made with screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2;torch=2.10.0, this run has' \
	o.txt "$F" "${K[@]}" s.tsv o.txt

# ---- the long-kernel rule (--long-ms) ------------------------------------------------
"$F" "${K[@]}" --reps 1 --fast-reject 0 --stats lst.tsv s.tsv long.txt 2>/dev/null
"$F" "${K[@]}" --reps 1 --fast-reject 0 --long-ms 0 --stats lst0.tsv s.tsv long0.txt 2>/dev/null
want=$(awk -F, 'NR > 2 && $NF != "inf" { if ($NF + 0 >= 10) l++; else if (1.5 * $NF >= 10) f++ }
	END { printf "%d %d", l, f }' long.txt)
got=$(awk -F'\t' '$1 == "long_choices" { l = $2 } $1 == "long_fallbacks" { f = $2 } END { print l, f }' lst.tsv)
[ "$got" = "$want" ] && [ "${want% *}" -gt 0 ] && [ "${want#* }" -gt 0 ] && ok bench-triton-long-choices-counted ||
	fail bench-triton-long-choices-counted "stats long/fallbacks $got, log $want"
test_cmp bench-triton-long-same-log long0.txt long.txt
l0=$(awk -F'\t' '$1 == "long_choices" { print $2 }' lst0.tsv)
c0=$(awk -F'\t' '$1 == "timed_launches" { print $2 }' lst0.tsv)
c1=$(awk -F'\t' '$1 == "timed_launches" { print $2 }' lst.tsv)
# each long choice saves 7 - 3 calls at least (Inductor's >= 6 timed launches + warm-up)
[ "$l0" = 0 ] && [ -n "$c1" ] && [ $((c0 - c1)) -ge $((4 * ${want% *})) ] && ok bench-triton-long-off-fewer-launches ||
	fail bench-triton-long-off-fewer-launches "off: long $l0 launches $c0; on: launches $c1"
"$F" "${K[@]}" --long-ms 2.5 --long-launches 1 --time-limit 0 s.tsv lp.txt 2>/dev/null
printf 'screen=0 screen_ms=0 audit=0 long_ms=2.5 long_launches=1\ntorch\t2.11.0+cu130\n' > lp.want
test_cmp bench-triton-long-plan lp.want lp.txt.part.plan
head -n 40 full.txt > lo.txt.part
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2\ntorch\t2.11.0+cu130\n' > lo.txt.part.plan
expect_error bench-triton-resume-other-long-ms 'lo.txt.part was made with screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2;torch=2.11.0\+cu130, this run has screen=0 screen_ms=0 audit=0 long_ms=20 long_launches=2;.*--long-ms' \
	lo.txt "$F" "${K[@]}" --long-ms 20 s.tsv lo.txt
expect_error bench-triton-resume-other-long-launches 'this run has screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=1;' \
	lo.txt "$F" "${K[@]}" --long-launches 1 s.tsv lo.txt
# the rule is the triton back end's only: given to another, refused (not ignored)
expect_error bench-long-ms-other-template '--long-ms/--long-launches: only for --template triton .*--template mm ' \
	lm.txt "$F" --kernels "$ROOT/kernels" --long-ms 5 s.tsv lm.txt
expect_error bench-long-launches-other-template '--long-ms/--long-launches: only for --template triton .*--template mma ' \
	lm.txt "$F" --kernels "$ROOT/kernels" --template mma --long-launches 3 s.tsv lm.txt
# a part of Inductor's method (an older bench's, e.g. perf/results/gpu/h200_collect's):
# refused under the rule, resumed with --long-ms 0 to the same log
printf 'screen=0 screen_ms=0 audit=0\ntorch\t2.11.0+cu130\n' > lo.txt.part.plan
expect_error bench-triton-resume-inductor-part-long 'lo.txt.part was made with screen=0 screen_ms=0 audit=0;torch=2.11.0\+cu130, this run has screen=0 screen_ms=0 audit=0 long_ms=10' \
	lo.txt "$F" "${K[@]}" s.tsv lo.txt
"$F" "${K[@]}" --long-ms 0 s.tsv lo.txt 2>lo.err
test_cmp bench-triton-resume-inductor-part-long-ms-0 full.txt lo.txt
# other back ends: no such rule (refused above), nothing in their plan
"$F" --kernels "$ROOT/kernels" --template mma --time-limit 0 s.tsv mm.txt 2>/dev/null
printf 'screen=1.3 screen_ms=2 audit=0\n' > mm.want
test_cmp bench-long-ms-not-in-other-plans mm.want mm.txt.part.plan

# ---- the loser cut (--loser-ratio) ----------------------------------------------------
LR=$ROOT/check/fixtures/ttsched/loser_replay.awk
loserstats() { awk -F'\t' '$1 == "loser_choices" { l = $2 } $1 == "loser_fallbacks" { f = $2 }
	END { print l, f }' "$1"; }
launches() { awk -F'\t' '$1 == "timed_launches" { print $2 }' "$1"; }
"$F" "${K[@]}" --reps 1 --fast-reject 0 --stats off.tsv s.tsv off.txt 2>/dev/null
[ "$(loserstats off.tsv)" = "0 0" ] && ok bench-triton-loser-off-counts-none ||
	fail bench-triton-loser-off-counts-none "$(loserstats off.tsv)"
# the known values for these inputs (bench-fake's times are a pure function)
# and the replay of its schedule over the log it wrote
for lk in "1.5 175 3" "3 170 2"; do
	set -- $lk
	"$F" "${K[@]}" --reps 1 --fast-reject 0 --loser-ratio $1 --stats lst$1.tsv s.tsv loser$1.txt 2>/dev/null
	want=$(awk -v L=$1 -f "$LR" loser$1.txt)
	got=$(loserstats lst$1.tsv)
	[ "$got" = "$want" ] && [ "$got" = "$2 $3" ] && ok bench-triton-loser-counted-l$1 ||
		fail bench-triton-loser-counted-l$1 "stats $got, replayed $want, known $2 $3"
	test_cmp bench-triton-loser-same-log-l$1 off.txt loser$1.txt
	# each loser makes 2 calls instead of >= 3 (the long path) or >= 7
	c0=$(launches off.tsv) c1=$(launches lst$1.tsv)
	[ -n "$c1" ] && [ $((c0 - c1)) -ge "$2" ] && ok bench-triton-loser-fewer-launches-l$1 ||
		fail bench-triton-loser-fewer-launches-l$1 "off $c0, on $c1 launches, $2 losers"
done
# repetitions: the best so far is over every repetition timed before
"$F" "${K[@]}" --reps 3 --fast-reject 0 --loser-ratio 1.5 --stats lst3r.tsv s.tsv loser3r.txt 2>/dev/null
want=$(awk -v L=1.5 -v R=3 -f "$LR" loser3r.txt)
[ "$(loserstats lst3r.tsv)" = "$want" ] && [ "$want" = "584 4" ] && ok bench-triton-loser-counted-reps3 ||
	fail bench-triton-loser-counted-reps3 "stats $(loserstats lst3r.tsv), replayed $want, known 584 4"
"$F" "${K[@]}" --loser-ratio 1.5 --time-limit 0 s.tsv lp2.txt 2>/dev/null
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2 loser_ratio=1.5\ntorch\t2.11.0+cu130\n' > lr.want
test_cmp bench-triton-loser-plan lr.want lp2.txt.part.plan
# resumption: another L, none, or one where the part had none: refused, the
# sidecar and the field named, the part as it was
head -n 40 full.txt > lr.txt.part
cp lr.want lr.txt.part.plan
cp lr.txt.part lr.keep
expect_error bench-triton-resume-other-loser-ratio 'lr.txt.part was made with [^;]* loser_ratio=1.5;torch=2.11.0\+cu130, this run has [^;]* loser_ratio=2;torch=2.11.0\+cu130 \(lr.txt.part.plan: loser_ratio 1.5 there, 2 here\).*--loser-ratio' \
	lr.txt "$F" "${K[@]}" --loser-ratio 2 s.tsv lr.txt
cmp -s lr.keep lr.txt.part && cmp -s lr.want lr.txt.part.plan && ok bench-triton-resume-other-loser-ratio-keeps-part ||
	fail bench-triton-resume-other-loser-ratio-keeps-part "the part or its sidecar changed"
expect_error bench-triton-resume-loser-part-without '\(lr.txt.part.plan: loser_ratio 1.5 there, none here\)' \
	lr.txt "$F" "${K[@]}" s.tsv lr.txt
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2\ntorch\t2.11.0+cu130\n' > lr.txt.part.plan
expect_error bench-triton-resume-plain-part-with-loser '\(lr.txt.part.plan: loser_ratio none there, 1.5 here\)' \
	lr.txt "$F" "${K[@]}" --loser-ratio 1.5 s.tsv lr.txt
cmp -s lr.keep lr.txt.part && ok bench-triton-resume-refused-keeps-part || fail bench-triton-resume-refused-keeps-part "the part changed"
cp lr.want lr.txt.part.plan
"$F" "${K[@]}" --loser-ratio 1.5 s.tsv lr.txt 2>/dev/null
test_cmp bench-triton-resume-loser-part full.txt lr.txt
# --clock (rotate, warm: bench's own clock instead of Inductor's timing):
# the same made-up times (bench-fake), none of Inductor's schedule (no long
# choices), the plan records the clock, another clock's part is refused and
# kept, the same clock resumes; refused with the cuts or another back end
for c in rotate warm; do
	"$F" "${K[@]}" --clock $c --stats clk$c.tsv s.tsv clk$c.txt 2>/dev/null
	test_cmp bench-triton-clock-$c-same-log full.txt clk$c.txt
	grep -qx "clock	$c" clk$c.txt.versions.tsv && grep -qx "clock	$c" clk$c.tsv && ok bench-triton-clock-$c-in-versions-and-stats ||
		fail bench-triton-clock-$c-in-versions-and-stats "$(cat clk$c.txt.versions.tsv | tr '\n' '|')"
	[ "$(awk -F'\t' '$1 == "long_choices" { print $2 }' clk$c.tsv)" = 0 ] && ok bench-triton-clock-$c-no-long-rule ||
		fail bench-triton-clock-$c-no-long-rule "$(grep long_ clk$c.tsv | tr '\n' ' ')"
	"$F" "${K[@]}" --clock $c --time-limit 0 s.tsv clkp$c.txt 2>/dev/null
	printf 'screen=0 screen_ms=0 audit=0 clock=%s\ntorch\t2.11.0+cu130\n' $c > clk$c.want
	test_cmp bench-triton-clock-$c-plan clk$c.want clkp$c.txt.part.plan
done
head -n 40 full.txt > ck.txt.part
cp clkrotate.want ck.txt.part.plan
cp ck.txt.part ck.keep
expect_error bench-triton-resume-other-clock '\(ck.txt.part.plan: clock rotate there, none here;.*--clock' \
	ck.txt "$F" "${K[@]}" s.tsv ck.txt
cmp -s ck.keep ck.txt.part && cmp -s clkrotate.want ck.txt.part.plan && ok bench-triton-resume-other-clock-keeps-part ||
	fail bench-triton-resume-other-clock-keeps-part "the part or its sidecar changed"
"$F" "${K[@]}" --clock rotate s.tsv ck.txt 2>/dev/null
test_cmp bench-triton-resume-clock-part full.txt ck.txt
expect_error bench-clock-with-loser-ratio '--clock rotate: --loser-ratio, --warm-from-verify and --verify-cut shorten' \
	x.txt "$F" "${K[@]}" --clock rotate --loser-ratio 1.5 s.tsv x.txt
expect_error bench-clock-with-long-ms '--clock warm: --long-ms and --long-launches shorten' \
	x.txt "$F" "${K[@]}" --clock warm --long-ms 5 s.tsv x.txt
expect_error bench-clock-with-long-launches '--clock rotate: --long-ms and --long-launches shorten' \
	x.txt "$F" "${K[@]}" --clock rotate --long-launches 3 s.tsv x.txt
[ -s full.txt.versions.tsv ] && ! grep -q '^clock' full.txt.versions.tsv && ok bench-triton-clock-inductor-not-in-versions ||
	fail bench-triton-clock-inductor-not-in-versions "$(cat full.txt.versions.tsv | tr '\n' '|')"
expect_error bench-clock-other-template '--clock warm: only for --template triton' \
	x.txt "$F" --kernels "$ROOT/kernels" --clock warm s.tsv x.txt
expect_error bench-clock-bad-name "--clock: expected inductor, rotate or warm, got 'cold'" \
	x.txt "$F" "${K[@]}" --clock cold s.tsv x.txt
# bad values: refused before any output (no LOG, no LOG.part, no sidecar)
for v in 1.02 1 0.5 101 -1 x; do
	case $v in 1.02|1|0.5) pat="--loser-ratio: expected 0 \(off\) or a factor > 1/0.98 = 1.0204082 and <= 100 .*got $v" ;;
	*) pat="--loser-ratio: expected a number in \[0, 100\], got '$v'" ;; esac
	expect_error bench-loser-ratio-bad-$v "$pat" x.txt "$F" "${K[@]}" --loser-ratio "$v" s.tsv x.txt
	[ ! -e x.txt.part ] && [ ! -e x.txt.part.plan ] || fail bench-loser-ratio-bad-$v-no-part "x.txt.part left"
done
expect_error bench-loser-ratio-other-backend '--loser-ratio: only for --template triton .*--template mma ' x.txt \
	"$F" --kernels "$ROOT/kernels" --template mma --loser-ratio 1.5 s.tsv x.txt
"$F" --kernels "$ROOT/kernels" --template mma --loser-ratio 0 --time-limit 0 s.tsv mm0.txt 2>/dev/null
test_cmp bench-loser-ratio-0-not-in-other-plans mm.want mm0.txt.part.plan
printf 'x\n' > tree.tsv
expect_error bench-loser-ratio-use-heuristic '--loser-ratio and --verify-cut do not go with --use-heuristic' x.txt \
	"$F" "${K[@]}" --loser-ratio 1.5 --use-heuristic tree.tsv s.tsv x.txt

# ---- the warm-up from verification (--warm-from-verify) -----------------------------
# every verified choice (all but extern_mm, on every input) makes one timed
# call fewer (its first repetition's warm-up), the log and the rules'
# verdicts unchanged (the first repetition only: the count of the --reps 1
# log's verified rows whatever the repetitions)
wvstat() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$2"; }
verified() { awk -F, 'NR > 2 && $13 != "extern_mm" && $14 != "inf"' "$1" | wc -l; }
for n in -plain -loser -reps3; do
	case $n in -loser) x="--loser-ratio 1.5" ;; -reps3) x="--reps 3 --fast-reject 1.5" ;; *) x= ;; esac
	"$F" "${K[@]}" --reps 1 --fast-reject 0 $x --stats wv0$n.tsv s.tsv wv0$n.txt 2>/dev/null
	"$F" "${K[@]}" --reps 1 --fast-reject 0 $x --warm-from-verify --stats wv1$n.tsv s.tsv wv1$n.txt 2>/dev/null
	v=$(verified wv0-plain.txt) c0=$(wvstat timed_launches wv0$n.tsv) c1=$(wvstat timed_launches wv1$n.tsv)
	same=1
	for k in long_choices long_fallbacks loser_choices loser_fallbacks; do
		[ "$(wvstat $k wv0$n.tsv)" = "$(wvstat $k wv1$n.tsv)" ] || same=0
	done
	[ "$v" -gt 100 ] && [ "$(wvstat warm_from_verify wv1$n.tsv)" = "$v" ] &&
		[ "$(wvstat warm_from_verify wv0$n.tsv)" = 0 ] && [ $((c0 - c1)) = "$v" ] && [ $same = 1 ] &&
		ok bench-triton-warm-from-verify-one-call-fewer$n ||
		fail bench-triton-warm-from-verify-one-call-fewer$n "verified $v, used $(wvstat warm_from_verify wv1$n.tsv), launches $c0 -> $c1, rules same $same"
	test_cmp bench-triton-warm-from-verify-same-log$n wv0$n.txt wv1$n.txt
done
expect_error bench-warm-from-verify-other-backend '--warm-from-verify: only for --template triton .*--template mma ' x.txt \
	"$F" --kernels "$ROOT/kernels" --template mma --warm-from-verify s.tsv x.txt
[ ! -e x.txt.part ] && [ ! -e x.txt.part.plan ] || fail bench-warm-from-verify-other-backend-no-part "x.txt.part left"
# the plan: the field only when on; a resume with the other setting refused, naming it
"$F" "${K[@]}" --warm-from-verify --time-limit 0 s.tsv wp.txt 2>/dev/null
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2 warm_from_verify=1\ntorch\t2.11.0+cu130\n' > wv.want
test_cmp bench-triton-warm-from-verify-plan wv.want wp.txt.part.plan
"$F" "${K[@]}" --time-limit 0 s.tsv wq.txt 2>/dev/null
grep -q warm_from_verify wq.txt.part.plan && fail bench-triton-warm-from-verify-off-not-in-plan "$(head -1 wq.txt.part.plan)" ||
	ok bench-triton-warm-from-verify-off-not-in-plan
head -n 40 full.txt > wv.txt.part
cp wv.want wv.txt.part.plan
cp wv.txt.part wv.keep
expect_error bench-triton-resume-warm-from-verify-part-without '\(wv.txt.part.plan: warm_from_verify 1 there, none here\).*--warm-from-verify' \
	wv.txt "$F" "${K[@]}" s.tsv wv.txt
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2\ntorch\t2.11.0+cu130\n' > wv.txt.part.plan
expect_error bench-triton-resume-plain-part-with-warm-from-verify '\(wv.txt.part.plan: warm_from_verify none there, 1 here\)' \
	wv.txt "$F" "${K[@]}" --warm-from-verify s.tsv wv.txt
cmp -s wv.keep wv.txt.part && ok bench-triton-resume-warm-from-verify-refused-keeps-part ||
	fail bench-triton-resume-warm-from-verify-refused-keeps-part "the part changed"
cp wv.want wv.txt.part.plan
"$F" "${K[@]}" --warm-from-verify s.tsv wv.txt 2>/dev/null
test_cmp bench-triton-resume-warm-from-verify-part full.txt wv.txt

# ---- the verification cut (--verify-cut, --verify-cut-audit) ------------------------
# bench-fake's counts against check/fixtures/ttsched/vcut_replay.awk over the
# log it wrote, and the known values for these inputs (S = 2, L = 1.5, T =
# 10: 124 choices the cut would take): K = 10 audits the 1st, 11th, ...
# (111 cut, 13 audited), K = 0 none, K = 1 all (every launch kept); at T =
# 1e-6 and S = L = 1.5 the audits find the 3 flips (probe < L x best: the
# loser cut's fallbacks); the log is byte-identical to the cut off, the
# audits' ratio is the fake's 1.5, and every cut saves its launches
VR=$ROOT/check/fixtures/ttsched/vcut_replay.awk
VC=(--reps 1 --fast-reject 0 --loser-ratio 1.5 --warm-from-verify)
vcstats() { awk -F'\t' '$1 == "verify_cuts" { c = $2 } $1 == "verify_cut_audits" { a = $2 }
	$1 == "verify_cut_flips" { f = $2 } END { print c, a, f }' "$1"; }
"$F" "${K[@]}" "${VC[@]}" --stats vcoff.tsv s.tsv vcoff.txt 2>/dev/null
[ "$(vcstats vcoff.tsv)" = "0 0 0" ] && [ "$(wvstat verify_cut_ratio_min vcoff.tsv)" = - ] &&
	ok bench-triton-verify-cut-off-counts-none || fail bench-triton-verify-cut-off-counts-none "$(vcstats vcoff.tsv)"
for c in "2 10 10 111 13 0" "2 0 10 124 0 0" "2 1 10 0 124 0" "1.5 1 1e-6 0 178 3"; do
	set -- $c
	n=vc$1_$2_$3
	"$F" "${K[@]}" "${VC[@]}" --long-ms $3 --verify-cut $1 --verify-cut-audit $2 --stats $n.tsv s.tsv $n.txt 2>/dev/null
	got=$(vcstats $n.tsv) want=$(awk -v S=$1 -v K=$2 -v L=1.5 -v T=$3 -f "$VR" $n.txt)
	[ "$got" = "$want" ] && [ "$got" = "$4 $5 $6" ] && ok bench-triton-verify-cut-counted-$n ||
		fail bench-triton-verify-cut-counted-$n "stats $got, replayed $want, known $4 $5 $6"
	test_cmp bench-triton-verify-cut-same-log-$n vcoff.txt $n.txt
done
[ "$(wvstat verify_cut_ratio_geomean vc2_10_10.tsv)" = 1.5000 ] && [ "$(wvstat verify_cut_ratio_max vc2_10_10.tsv)" = 1.5000 ] &&
	[ $(($(wvstat timed_launches vcoff.tsv) - $(wvstat timed_launches vc2_0_10.tsv))) -ge 124 ] &&
	[ "$(wvstat timed_launches vc2_1_10.tsv)" = "$(wvstat timed_launches vcoff.tsv)" ] &&
	[ $(($(wvstat loser_choices vcoff.tsv) - $(wvstat loser_choices vc2_10_10.tsv))) = 111 ] &&
	ok bench-triton-verify-cut-launches || fail bench-triton-verify-cut-launches \
	"launches off $(wvstat timed_launches vcoff.tsv), K=0 $(wvstat timed_launches vc2_0_10.tsv), K=1 $(wvstat timed_launches vc2_1_10.tsv); losers $(wvstat loser_choices vcoff.tsv) -> $(wvstat loser_choices vc2_10_10.tsv)"
# the plan: S and K only when on; a resume with another S, K or none refused
"$F" "${K[@]}" "${VC[@]}" --verify-cut 2 --time-limit 0 s.tsv vp.txt 2>/dev/null
printf 'screen=0 screen_ms=0 audit=0 long_ms=10 long_launches=2 loser_ratio=1.5 warm_from_verify=1 verify_cut=2 verify_cut_audit=10\ntorch\t2.11.0+cu130\n' > vc.want
test_cmp bench-triton-verify-cut-plan vc.want vp.txt.part.plan
head -n 40 vcoff.txt > vr.txt.part
cp vc.want vr.txt.part.plan
cp vr.txt.part vr.keep
expect_error bench-triton-resume-other-verify-cut '\(vr.txt.part.plan: verify_cut 2 there, 3 here\).*--verify-cut' \
	vr.txt "$F" "${K[@]}" "${VC[@]}" --verify-cut 3 s.tsv vr.txt
expect_error bench-triton-resume-other-verify-cut-audit '\(vr.txt.part.plan: verify_cut_audit 10 there, 5 here\)' \
	vr.txt "$F" "${K[@]}" "${VC[@]}" --verify-cut 2 --verify-cut-audit 5 s.tsv vr.txt
expect_error bench-triton-resume-verify-cut-part-without '\(vr.txt.part.plan: verify_cut 2 there, none here' \
	vr.txt "$F" "${K[@]}" "${VC[@]}" s.tsv vr.txt
cmp -s vr.keep vr.txt.part && ok bench-triton-resume-verify-cut-refused-keeps-part ||
	fail bench-triton-resume-verify-cut-refused-keeps-part "the part changed"
"$F" "${K[@]}" "${VC[@]}" --verify-cut 2 s.tsv vr.txt 2>/dev/null
test_cmp bench-triton-resume-verify-cut-part vcoff.txt vr.txt
# bad settings: refused before any output
for b in "--verify-cut 1.2|--verify-cut 1.2: expected a factor >= --loser-ratio 1.5" \
	"--verify-cut 101|--verify-cut: expected a number in \[0, 100\]" \
	"--verify-cut-audit 5|--verify-cut-audit needs --verify-cut S > 0" \
	"--verify-cut 2 --long-ms 0|--verify-cut 2 needs .* got --long-ms 0\)" \
	"--verify-cut 2 --use-heuristic tree.tsv|--loser-ratio and --verify-cut do not go with --use-heuristic"; do
	o=${b%%|*} n=${o//[^a-z0-9.]/_}
	expect_error bench-verify-cut-bad$n "${b#*|}" x.txt "$F" "${K[@]}" "${VC[@]}" $o s.tsv x.txt
	[ ! -e x.txt.part ] && [ ! -e x.txt.part.plan ] || fail bench-verify-cut-bad$n-no-part "x.txt.part left"
done
expect_error bench-verify-cut-without-warm-from-verify '--verify-cut 2 needs .*got no --warm-from-verify\)' x.txt \
	"$F" "${K[@]}" --loser-ratio 1.5 --verify-cut 2 s.tsv x.txt
expect_error bench-verify-cut-without-loser-ratio '--verify-cut 2 needs .*got no --loser-ratio\)' x.txt \
	"$F" "${K[@]}" --warm-from-verify --verify-cut 2 s.tsv x.txt
expect_error bench-verify-cut-other-backend '--verify-cut: only for --template triton .*--template mma ' x.txt \
	"$F" --kernels "$ROOT/kernels" --template mma --verify-cut 2 s.tsv x.txt

# the GPU A/B scripts, dry-run on bench-fake (the script's plumbing, not the GPU)
(cd "$ROOT" && BENCH=$F ENTRY=none OUT=$TMP/lab CARRY=$TMP/labc bash perf/experiments/loser_ab.sh) > lab.log 2>&1
rows=$(grep -c '^| [0L][ab] | `--loser-ratio ' "$TMP/lab/summary.md")
on=$(awk -F'|' '$2 ~ /^ L[ab] $/ && $7 ~ /^ [1-9][0-9]* \([0-9]+\) $/' "$TMP/lab/summary.md" | wc -l)
off=$(awk -F'|' '$2 ~ /^ 0[ab] $/ && $7 == " 0 (0) "' "$TMP/lab/summary.md" | wc -l)
[ "$rows" = 8 ] && [ "$on" = 4 ] && [ "$off" = 4 ] && [ "$(($(wc -l < "$TMP/labc/agree.tsv") - 1))" = 24 ] &&
	grep -q '^### giants (6 inputs, --loser-ratio 0 vs 1.5)' "$TMP/lab/summary.md" &&
	[ "$(ls "$TMP/lab" | tr '\n' ' ')" = "agree.tar.xz giants.tar.xz summary.md " ] &&
	tar tJf "$TMP/lab/agree.tar.xz" | grep -q '^agree/agree_Lb.json$' && ok bench-triton-loser-ab-dry-run ||
	fail bench-triton-loser-ab-dry-run "rows $rows, on $on, off $off: $(tail -3 lab.log | tr '\n' '|')"
(cd "$ROOT" && BENCH=$F ENTRY=none OUT=$TMP/wab CARRY=$TMP/wabc bash perf/experiments/warmverify_ab.sh) > wab.log 2>&1
# the on runs: one launch fewer per verified choice than the off runs
wl=$(awk -F'|' '$2 ~ /^ [0W][ab] $/ { print $2 $5 }' "$TMP/wab/summary.md" | tr -d ' ' | tr '\n' ' ')
grep -q '^### giants (6 inputs, none vs --warm-from-verify)' "$TMP/wab/summary.md" &&
	[ "$(echo "$wl" | wc -w)" = 8 ] &&
	awk -F'|' '$2 ~ /^ [0W][ab] $/ { gsub(/ /, "", $2); n[$2] = $5 + 0 } $2 ~ /^ Wb $/ { if (!(n["Wa"] < n["0a"] && n["Wa"] == n["Wb"] && n["0a"] == n["0b"])) bad = 1; delete n } END { exit bad }' "$TMP/wab/summary.md" &&
	ok bench-triton-warmverify-ab-dry-run || fail bench-triton-warmverify-ab-dry-run "$wl: $(tail -3 wab.log | tr '\n' '|')"
(cd "$ROOT" && BENCH=$F ENTRY=none OUT=$TMP/lkab SHAPES=$TMP/labc/giants.tsv bash perf/experiments/long_ms_ab.sh) > lkab.log 2>&1
[ "$(awk -F'|' '$2 ~ /^ T[ab] $/ && $6 ~ /^ [1-9]/' "$TMP/lkab/table.md" | wc -l)" = 2 ] &&
	[ "$(awk -F'|' '$2 ~ /^ 0[ab] $/ && $6 == " 0 "' "$TMP/lkab/table.md" | wc -l)" = 2 ] && ok bench-triton-long-ab-dry-run ||
	fail bench-triton-long-ab-dry-run "$(tail -3 lkab.log | tr '\n' '|')"

# ---- the shape list: errors, -o -------------------------------------------------
sed '4s/\t1\t1000\t1000\t1$/\t0\t1000\t1000\t1/' s.tsv > bad.tsv
expect_error bench-triton-bad-stride "bad.tsv:4: field 'mat1_stride_0': 0 for a dimension of size 1000" bad.txt \
	"$F" "${K[@]}" bad.tsv bad.txt
[ ! -e bad.txt.part ] && ok bench-triton-bad-no-part || fail bench-triton-bad-no-part "bad.txt.part left"
sed '2s/torch.float16/torch.int8/' s.tsv > bad2.tsv
expect_error bench-triton-bad-dtype "bad2.tsv:2: field 'dtype'" bad2.txt "$F" "${K[@]}" bad2.tsv bad2.txt
"$F" "${K[@]}" -o dash_o.txt s.tsv 2>/dev/null
test_cmp bench-dash-o full.txt dash_o.txt
expect_error bench-output-twice 'the output given twice' y.txt "$F" "${K[@]}" -o y.txt s.tsv y2.txt

# ---- make collect ------------------------------------------------------------------
BUILD=${BIN%/bin}
MK=(make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out" GPU=zz201 BENCH=bench-fake GPUS=0,1)
P=$ROOT/check/fixtures/shapes/padded.expect.tsv
"${MK[@]}" collect SHAPES="$P" KERNEL_TEMPLATE=triton TRITON_CUBINS="$TMP/carried/triton-0000000000000000-3.6.0-sm90" \
	> mk.log 2>&1
M=$TMP/out/zz201/merged.txt
grep -q '^4096,50272,768,torch.float16,torch.float16,50304,1,768,1,False,True,not_float_32,type=triton_BLOCK-M=128_' "$M" &&
	grep -q '^1024,64,512,torch.float16,torch.float16,1,66560,131584,1,False,False,not_float_32,extern_mm,' "$M" &&
	ok bench-triton-collect-padded || fail bench-triton-collect-padded "$(tail -3 mk.log | tr '\n' '|')"
printf 'key\tvalue\nbackend\ttriton\ntorch\t2.11.0+cu130\nmeasurer\tfake\ndevice\tfake device 0\ndevice\tfake device 1\n' > mv.want
test_cmp bench-triton-collect-versions mv.want "$M.versions.tsv"
# LOSER_RATIO: a bad value is refused before the collection is touched
snap() { (cd "$TMP/out/zz201" && find . -type f | sort | xargs md5sum); }
snap > snap.before
for v in 1.02 x 101; do
	"${MK[@]}" collect SHAPES="$P" KERNEL_TEMPLATE=triton TRITON_CUBINS="$TMP/carried/triton-0000000000000000-3.6.0-sm90" \
		LOSER_RATIO=$v > lrm.log 2>&1 && fail bench-triton-collect-loser-ratio-bad-$v "exit 0" ||
		{ grep -q "LOSER_RATIO='$v': expected 0 (off) or a factor > 1/0.98" lrm.log && snap | cmp -s - snap.before &&
			ok bench-triton-collect-loser-ratio-bad-$v ||
			fail bench-triton-collect-loser-ratio-bad-$v "$(head -c 300 lrm.log); changed: $(snap | diff - snap.before | head -2 | tr '\n' '|')"; }
done
# a good one is passed to bench and stamped (the triton back end only)
"${MK[@]}" -n collect SHAPES="$P" KERNEL_TEMPLATE=triton TRITON_CUBINS="$TMP/carried/triton-0000000000000000-3.6.0-sm90" \
	LOSER_RATIO=1.5 > lrn.log 2>&1
grep -q -- '--long-ms 10 --long-launches 2 *--loser-ratio 1.5 ' lrn.log && grep -q ' long=10/2 loser=1.5 gpus=' lrn.log &&
	ok bench-triton-collect-loser-ratio-passed || fail bench-triton-collect-loser-ratio-passed "$(grep -m2 'bench.params\|bench-fake' lrn.log | tr '\n' '|')"
if test_skip_unless TRITON bench-triton-collect-compiles-first; then
	"${MK[@]}" -n collect SAMPLES=2 KERNEL_TEMPLATE=triton > n.log 2>&1
	C=$TMP/out/zz201/collect
	v=$(grep -n "bin/triton_cands --variants $C/shapes.tsv $C/triton_variants.tsv" n.log | cut -d: -f1)
	a=$(grep -n -e "-m mmrank.bench.triton_aot --cache '\\?[^ ]*/cubin'\\? --arch 90 --jobs [0-9]* $C/triton_variants.tsv" n.log | cut -d: -f1)
	b=$(grep -n "bin/bench-fake .*--template triton .*--triton-cubins [^ ]*/cubin/triton-[0-9a-f]*-[0-9.]*-sm90 " n.log | head -1 | cut -d: -f1)
	[ -n "$v" ] && [ -n "$a" ] && [ -n "$b" ] && [ "$v" -lt "$a" ] && [ "$a" -lt "$b" ] && ok bench-triton-collect-compiles-first ||
		fail bench-triton-collect-compiles-first "lines variants=$v aot=$a bench=$b: $(grep -E 'triton' n.log | head -3 | tr '\n' '|')"
	"${MK[@]}" -n triton-cubins SHAPES="$P" > t.log 2>&1
	grep -q "shapes --from-list $P" t.log && grep -q 'mmrank.bench.triton_aot' t.log && ! grep -q 'bench-fake' t.log &&
		ok bench-triton-cubins-target || fail bench-triton-cubins-target "$(tail -3 t.log | tr '\n' '|')"
fi
# BACKEND=inductor: inductor_collect shards the same way, merged, versions kept
# (run by the stand-in check/inductor/fake_python.py: no torch; --no-silent:
# the recipe lines are what is checked, also under make -s check)
"${MK[@]}" --no-silent collect SAMPLES=2 BACKEND=inductor PYTHON="python3 $ROOT/check/inductor/fake_python.py" OUT="$TMP/ind" > ind.log 2>&1
I=$TMP/ind/zz201
r0=$(($(wc -l < "$I/collect/data_0.txt") + $(wc -l < "$I/collect/data_1.txt") - 4))
[ "$(($(wc -l < "$I/merged.txt") - 2))" = "$r0" ] && [ "$r0" -gt 0 ] &&
	grep -q "mmrank.bench.inductor_collect --device 1 --shard 1/2 " ind.log && ok bench-inductor-collect ||
	fail bench-inductor-collect "$(tail -3 ind.log | tr '\n' '|')"
printf 'key\tvalue\nbackend\tinductor\ntorch\tfake\ntriton\tfake\ndevice\tFAKE\n' > iv.want
test_cmp bench-inductor-collect-versions iv.want "$I/merged.txt.versions.tsv"
finish
