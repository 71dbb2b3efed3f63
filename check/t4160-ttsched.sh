#!/usr/bin/env bash
# t4160-ttsched.sh — the launch counts of one timing of a choice
# (stages/gpu/policy/ttsched.h tt_schedule, followed by stages/gpu/bench/triton_timing.c
# tt_time for every choice of --template triton, extern_mm included):
#   - Inductor's schedule (--long-ms 0): 5 estimation launches, 100 memory
#     warm-up flushes, max(min(100, floor(25 / estimate)), 1) benchmark
#     launches (a 100 ms kernel: 7 calls, warm-up included);
#   - the long-kernel rule (--long-ms 10 --long-launches N): a warm-up and
#     first launches >= 10 ms (>=, both) get N flushed launches and nothing
#     more (a 100 ms kernel: 3 calls at N = 2); a warm-up >= 10 ms with a
#     9.5 ms kernel falls back to exactly Inductor's counts (8 calls);
#     short kernels keep Inductor's counts; the events clamp every count;
#   all on check/fixtures/ttsched/cases.txt against the hand-derived
#   expected.txt, and the benchmark counts of the rule-off cases against
#   torch's own expression, max(min(100, int(25 // estimate)), 1), in Python;
#   - the loser cut (--loser-ratio L, against the input's best so far):
#     loser_cases.txt against the hand-derived loser_expected.txt: the loser
#     path (warm-up and probe >= L x best, >= on both: 2 calls), the
#     fallback (probe < L x best: exactly Inductor's counts, the probe the
#     first launch), a long loser (warm-up + 1, the long rule not consulted),
#     a long choice that is no loser (the long path on its N launches), no
#     best (NAN, inf, 0) and L = 0 (no cut);
#   - L = 0, no best, or a best the warm-up does not reach: every case of
#     cases.txt, given as such, prints today's expected.txt byte for byte;
#   - perf/collect/timing_model.py (these schedules over the committed
#     98-input H200 log): 582.7 s of modelled timing for Inductor's method,
#     283.0 s under the long-kernel rule, 182.1 s (1.55x) with the loser cut
#     at L = 1.5 (1908 losers), 200.3 s at L = 2; no marked choice
#     near-best in either committed log; the verification cut (--verify-cut
#     S) over sample part 4, verification included: 1067.4 s without, 724.1
#     s (1.47x) at S = 2 audited every 10th.
. check/lib.sh
U=${BIN%/bin}/unit/ttsched_print
D=$FIX/ttsched
[ -x "$U" ] || { fail ttsched "no $U (make units)"; finish; }
"$U" <"$D/cases.txt" >"$TMP/c.out" 2>"$TMP/err" || fail ttsched-run "exit $?: $(head -1 "$TMP/err")"
test_cmp ttsched-expected "$D/expected.txt" "$TMP/c.out"
grep -v '^#' "$D/cases.txt" | paste -d' ' - "$TMP/c.out" | python3 -c '
import math, sys
bad = 0
for line in sys.stdin:
    f = line.split()
    long_ms, est, max_iters = float(f[0]), float(f[4]), int(f[5])
    got = dict(kv.split("=") for kv in f[6:])
    if long_ms != 0 or math.isnan(est):
        continue
    want = max(min(100, int(25 // est)), 1) if est > 0 else 100  # runtime/benchmarking.py:402
    want = min(want, max_iters)
    if int(got["benchmark"]) != want:
        print("est %g: benchmark %s, torch %d" % (est, got["benchmark"], want)); bad = 1
sys.exit(bad)' >"$TMP/py.out" 2>&1 && ok ttsched-benchmark-count-is-torchs ||
	fail ttsched-benchmark-count-is-torchs "$(head -3 "$TMP/py.out" | tr '\n' '|')"
"$U" <"$D/loser_cases.txt" >"$TMP/l.out" 2>"$TMP/err" || fail ttsched-loser-run "exit $?: $(head -1 "$TMP/err")"
test_cmp ttsched-loser-expected "$D/loser_expected.txt" "$TMP/l.out"
# the cut off (L = 0), without a best, or with one the warm-up never reaches
# (1e9 ms): today's schedules unchanged, byte for byte
for x in "0 1 nan" "0 0.001 0.001" "1.5 nan nan" "1.5 inf nan" "1.5 1e9 nan" "100 1e9 1e9"; do
	grep -v '^#' "$D/cases.txt" | grep . | sed "s/\$/ $x/" | "$U" >"$TMP/x.out" 2>"$TMP/err"
	sed 's/ probe=0 loser_tried=0 is_loser=0$//' "$TMP/x.out" >"$TMP/x.cut"
	if cmp -s "$D/expected.txt" "$TMP/x.cut" && ! grep -qv 'probe=0 loser_tried=0 is_loser=0$' "$TMP/x.out"; then
		ok "ttsched-loser-off-unchanged-${x// /_}"
	else fail "ttsched-loser-off-unchanged-${x// /_}" "$(diff "$D/expected.txt" "$TMP/x.cut" | head -3 | tr '\n' '|')"; fi
done
# the verification cut (--verify-cut S): vcut_cases.txt against the
# hand-derived vcut_expected.txt: taken on a reused verification call >= S x
# best and >= T (>= on both, each at its threshold once: 0 calls), audited (the probe decides: a loser,
# or a fallback to the long path), and not taken without a reused call,
# below S x best, below T, without a best, at S = 0 or at --long-ms 0
"$U" <"$D/vcut_cases.txt" >"$TMP/v.out" 2>"$TMP/err" || fail ttsched-vcut-run "exit $?: $(head -1 "$TMP/err")"
test_cmp ttsched-vcut-expected "$D/vcut_expected.txt" "$TMP/v.out"
# S = 0: every loser case prints its loser_expected.txt line, vcut=0
grep -v '^#' "$D/loser_cases.txt" | grep . | sed 's/$/ 0 0 0/' | "$U" >"$TMP/v0.out" 2>"$TMP/err"
if sed 's/ vcut=0 vcut_audited=0$//' "$TMP/v0.out" | cmp -s - "$D/loser_expected.txt" &&
	! grep -qv ' vcut=0 vcut_audited=0$' "$TMP/v0.out"; then ok ttsched-vcut-off-unchanged
else fail ttsched-vcut-off-unchanged "$(sed 's/ vcut=0 vcut_audited=0$//' "$TMP/v0.out" | diff "$D/loser_expected.txt" - | head -3 | tr '\n' '|')"; fi
# its --stats (stages/gpu/policy/vcutstats.h): cuts, audits with a ratio (one
# without is not counted), flips (audited, no loser), ratio min / geomean /
# max; none: "-"
VP=${BIN%/bin}/unit/vcut_print
printf '1 0 0 nan\n0 1 1 1.2\n0 1 0 0.8\n0 1 1 1.1\n0 1 1 nan\n0 0 1 2\n1 0 0 nan\n0 1 1 -1\n' | "$VP" | tr '\t\n' '= ' >"$TMP/vs.out"
printf '# nothing\n' | "$VP" | tr '\t\n' '= ' >"$TMP/vs0.out"
[ "$(cat "$TMP/vs.out")" = "verify_cuts=2 verify_cut_audits=3 verify_cut_flips=1 verify_cut_ratio_min=0.8000 verify_cut_ratio_geomean=1.0183 verify_cut_ratio_max=1.2000 " ] &&
	[ "$(cat "$TMP/vs0.out")" = "verify_cuts=0 verify_cut_audits=0 verify_cut_flips=0 verify_cut_ratio_min=- verify_cut_ratio_geomean=- verify_cut_ratio_max=- " ] &&
	ok ttsched-vcut-stats || fail ttsched-vcut-stats "$(cat "$TMP/vs.out") / $(cat "$TMP/vs0.out")"
python3 "$ROOT/perf/collect/timing_model.py" --ttsched "$U" >"$TMP/m.out" 2>"$TMP/err" ||
	fail ttsched-timing-model-run "$(head -2 "$TMP/err" | tr '\n' '|')"
grep -q '^| Inductor | 582.7 | 1.00x | 0.49x | 0 (0 %) | 0 | 521 |' "$TMP/m.out" &&
	grep -q '^| long 10/2 | 283.0 | 2.06x | 1.00x | 0 (0 %) | 1067 |' "$TMP/m.out" &&
	grep -q '^| loser 1.5 | 182.1 | 3.20x | 1.55x | 1908 (67 %) | 227 |' "$TMP/m.out" &&
	grep -q '^| loser 2 | 200.3 | 2.91x | 1.41x | 1345 (47 %) |' "$TMP/m.out" && ok ttsched-timing-model ||
	fail ttsched-timing-model "$(grep -E '^\| (Inductor|long 10/2|loser 1.5|loser 2) \|' "$TMP/m.out" | tr '\n' '|')"
# the verification cut over the committed sample part 4 (the whole call,
# verification included): S = 2 with an audit every 10th, 1.47x
grep -q '^| 0 | 1067.4 | 1.00x | 0 | 0 |$' "$TMP/m.out" && grep -q '^| 2 | 724.1 | 1.47x | 1207 | 135 |$' "$TMP/m.out" &&
	ok ttsched-timing-model-verify-cut ||
	fail ttsched-timing-model-verify-cut "$(grep -E '^\| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|' "$TMP/m.out" | tr '\n' '|')"
# the label check: every L marks choices, none of them near-best, in both logs
[ "$(grep -cE '^\| (1.2|1.5|2|3) \| [1-9][0-9]* \| [0-9.]+ % \| [0-9.]+ \| 0 \|$' "$TMP/m.out")" = 8 ] &&
	grep -q '^| 1.5 | 1908 | 67.2 % | 1.503 | 0 |$' "$TMP/m.out" && ok ttsched-timing-model-no-loser-near-best ||
	fail ttsched-timing-model-no-loser-near-best "$(grep -E '^\| [0-9.]+ \|' "$TMP/m.out" | tr '\n' '|')"
finish
