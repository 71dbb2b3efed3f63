#!/usr/bin/env bash
# check/test_h200_collect.sh — check/gpu/h200_collect.sh without a GPU:
#   1. --dry-run (bench-fake) on a prepared folder C of 4 real and 4 sampled
#      inputs: both logs complete in collect.tar.xz, summary.txt says done,
#      the temporary folder is gone;
#   2. a folder missing a file (variants.tsv): the file named, exit 1,
#      nothing written ($OUT not created);
#   3. cubins.tar.xz with no Triton variant in its entry: exit 1, named;
#   4. --slice: SAMPLE_SKIP=S SAMPLE_TAKE=T keeps the header and inputs
#      S..S+T-1 of a list (the second sample part's folder is made so);
#   5. a bench run that fails (not a --time-limit stop): exit 1, the logs
#      and stderr still packed;
#   6. WARM_FROM_VERIFY=1 reaches bench; another value refused, nothing written.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
H=check/gpu/h200_collect.sh
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

# 1. a dry run
run_h "$TMP/out" --dry-run >"$TMP/log" 2>&1
rc=$?
w=$(grep -o '/tmp[^ ]*/c/real.txt' "$TMP/log" | head -1)
tar xJf "$TMP/out/collect.tar.xz" -C "$TMP" 2>/dev/null
if [ $rc -eq 0 ] && grep -q "): done$" "$TMP/out/summary.txt" &&
	grep -qx 'inputs_measured	4' "$TMP/c/stats_real.tsv" &&
	grep -qx 'inputs_measured	4' "$TMP/c/stats_sample.tsv" &&
	[ -s "$TMP/c/real.txt" ] && [ -s "$TMP/c/sample.txt" ] &&
	[ -n "$w" ] && [ ! -e "${w%/c/real.txt}" ]; then
	ok h200_collect_dry_run
else fail h200_collect_dry_run "rc $rc: $(tail -3 "$TMP/log" | tr '\n' '|')"; fi

# 2. a missing file: named, nothing written
mv "$C/variants.tsv" "$C/variants.keep"
expect_error h200_collect_missing "missing $C/variants.tsv: run check/gpu/h200_collect.sh --prepare" \
	"$TMP/out2" run_h "$TMP/out2" --dry-run
mv "$C/variants.keep" "$C/variants.tsv"

# 3. an entry without variants
rm "$TMP/pack/entry1/v.json"
tar cJf "$C/cubins.tar.xz" -C "$TMP/pack" entry1
rm -rf "$TMP/fc"
run_h "$TMP/out3" --dry-run >"$TMP/log3" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "no Triton variants in $C/cubins.tar.xz" "$TMP/log3" &&
	[ ! -e "$TMP/out3/collect.tar.xz" ]; then ok h200_collect_no_variants
else fail h200_collect_no_variants "rc $rc: $(tail -2 "$TMP/log3" | tr '\n' '|')"; fi

# 5. a bench run that fails (not a --time-limit stop, exit 2): exit 1, the
# logs and .err still packed (nothing collected is lost)
printf '#!/bin/sh\necho "bench: made to fail" >&2\nexit 1\n' >"$TMP/failbench"
chmod +x "$TMP/failbench"
echo '{}' >"$TMP/pack/entry1/v.json" && tar cJf "$C/cubins.tar.xz" -C "$TMP/pack" entry1
rm -rf "$TMP/fc"
C=$C FC=$TMP/fc OUT=$TMP/out5 BENCH=$TMP/failbench REAL_S=30 TOTAL_S=60 bash "$H" --dry-run >"$TMP/log5" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "a bench run failed" "$TMP/log5" &&
	tar tJf "$TMP/out5/collect.tar.xz" | grep -qx "c/real.err"; then ok h200_collect_bench_fails
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
expect_error h200_collect_bad_warm "WARM_FROM_VERIFY=yes: expected 0 or 1; nothing done" "$TMP/out7" \
	env WARM_FROM_VERIFY=yes C="$C" FC="$TMP/fc" OUT="$TMP/out7" BENCH="$TMP/argbench" bash "$H" --dry-run

# 4. the slice: the header, then inputs 1 and 2 of the 4
SAMPLE_SKIP=1 SAMPLE_TAKE=2 bash "$H" --slice "$C/sample.tsv" "$TMP/slice.tsv"
if [ "$(cut -f1 "$TMP/slice.tsv" | tr '\n' ' ')" = "input 1 2 " ]; then ok h200_collect_slice
else fail h200_collect_slice "$(cut -f1 "$TMP/slice.tsv" | tr '\n' ' ')"; fi
SAMPLE_SKIP=3 bash "$H" --slice "$C/sample.tsv" "$TMP/slice2.tsv"
if [ "$(cut -f1 "$TMP/slice2.tsv" | tr '\n' ' ')" = "input 3 " ]; then ok h200_collect_slice_rest
else fail h200_collect_slice_rest "$(cut -f1 "$TMP/slice2.tsv" | tr '\n' ' ')"; fi
finish
