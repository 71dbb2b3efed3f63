#!/usr/bin/env bash
# test_ttsched.sh — the launch counts of one timing of a choice
# (stages/lib/ttsched.h tt_schedule, followed by stages/bench/triton_timing.c
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
#   torch's own expression, max(min(100, int(25 // estimate)), 1), in Python.
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
finish
