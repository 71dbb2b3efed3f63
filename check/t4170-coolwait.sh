#!/usr/bin/env bash
# t4170-coolwait.sh — the cool-clock wait of bench --cool-clock P
# --cool-max-ms C (stages/gpu/policy/coolwait.h, followed by
# stages/gpu/bench/triton_timing.c tt_time before every timing of
# --template triton, extern_mm included), on an H200's clocks (max 1980 MHz):
#   - cool_decide: off at P = 0; ready iff 100 x clock >= P x max (1881 MHz
#     passes at P = 95, 1880 waits); below it waits while < C ms have
#     passed and stops (timeout) at >= C;
#   - cool_wait on a scripted clock (2 ms sleeps on a virtual clock): no
#     sleep at boost, none and no reading when off, 3 sleeps (6 ms) for a
#     clock that recovers on the 4th reading, 150 sleeps (300 ms, timeout)
#     for one stuck at 1470 MHz, a cap that is not a multiple of the step;
#   all on check/fixtures/coolwait/cases.txt against the hand-derived
#   expected.txt.
. check/lib.sh
U=${BIN%/bin}/unit/coolwait_print
D=$FIX/coolwait
[ -x "$U" ] || { fail coolwait "no $U (make units)"; finish; }
"$U" <"$D/cases.txt" >"$TMP/c.out" 2>"$TMP/err" || fail coolwait-run "exit $?: $(head -1 "$TMP/err")"
test_cmp coolwait-expected "$D/expected.txt" "$TMP/c.out"
# a bad case line is refused naming its line
printf 'decide 95 300\n' | "$U" >/dev/null 2>"$TMP/bad.err"
[ $? != 0 ] && grep -q 'stdin:1: expected decide' "$TMP/bad.err" && ok coolwait-bad-line ||
	fail coolwait-bad-line "$(head -1 "$TMP/bad.err")"
finish
