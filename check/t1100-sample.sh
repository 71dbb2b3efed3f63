#!/usr/bin/env bash
# sample (spec §3.2–§3.4): the dimension mixture's proportions on 100 000
# raw draws, dtype/tf32 proportions on 100 000 samples (each within 5
# binomial standard deviations of the exact expectation), the rejection
# constraints on every accepted sample, the 4-input expansion (strides,
# contiguity, using_tf32), and determinism for a seed.
. check/lib.sh
S=$BIN/sample
if [ ! -x "$S" ]; then fail sample-built "$S missing"; finish; fi

# --- the dimension mixture (spec §3.3), before rejection -----------------
"$S" --seed 7 --dims-only 100000 -o "$TMP/dims.tsv" || fail sample-dims "exit $?"
awk -v out="$TMP/dims.res" '
function ispow2(v) { while (v > 1 && v % 2 == 0) v /= 2; return v == 1 }
function check(name, cnt, p,   sd) {
	sd = sqrt(N * p * (1 - p)); if (sd < 1) sd = 1
	if (cnt < N * p - 5 * sd || cnt > N * p + 5 * sd)
		printf "FAIL %s: %d observed, %.1f expected (sd %.1f)\n", name, cnt, N * p, sd > out
	else
		printf "ok %s\n", name > out
}
NR == 1 { next }
{
	v = $1 + 0; N++
	if (v < 1 || v > 131072 || v != int(v)) bad++
	if (ispow2(v)) b2++
	else if (v % 128 == 0 && v >= 1024) b1++
	for (p = 10; p <= 16; p++) if (v > 2^p && v < 2^(p + 1)) oct[p]++
	if (v < 1024) small++
}
END {
	if (N != 100000) printf "FAIL sample-dims-count: %d draws\n", N > out
	if (bad) printf "FAIL sample-dims-range: %d values outside [1, 131072]\n", bad > out
	else printf "ok sample-dims-range\n" > out
	# exact expectations of the mixture
	pp = 0; pm = 0
	for (p = 10; p <= 16; p++) { c = 2^(p - 7) + 1; pp += 2 / c / 7; pm += (c - 2) / c / 7 }
	# multiples of 128 in [1024, 131072] that are not powers of two: 1017 - 7 = 1017?
	nm = 0; for (v = 1024; v <= 131072; v += 128) if (!ispow2(v)) nm++
	ub = 0; for (i = 10; i <= 16; i++) ub += (2^(i - 7) - 1) / (2^i - 1) / 16
	P2 = 0.85 * pp + 0.10 + 0.04 * 18 / 131072
	P1 = 0.85 * pm + 0.04 * nm / 131072 + 0.01 * ub
	check("sample-dims-pow2", b2, P2)
	check("sample-dims-mult128", b1, P1)
	# below 1024: pow2 e<10, uniform v<1024, between-pow2 i<=9
	check("sample-dims-below-1024", small, 0.10 * 10 / 18 + 0.04 * 1023 / 131072 + 0.01 * 9 / 16)
	for (p = 10; p <= 16; p++) {
		# strictly inside (2^p, 2^(p+1)): mult_128 with that p (interior points),
		# uniform, and between-pow2 with i = p
		c = 2^(p - 7) + 1
		q = 0.85 * (c - 2) / c / 7 + 0.04 * (2^p - 1) / 131072 + 0.01 / 16
		check("sample-dims-octave-" p, oct[p] + 0, q)
	}
}' "$TMP/dims.tsv"
cat "$TMP/dims.res"; grep -q '^FAIL' "$TMP/dims.res" && _failed=1

# --- samples: constraints, expansion, dtype proportions ------------------
MEM=$((8 * 1024 * 1024 * 1024))   # 8 GiB: makes the memory rejection bite
"$S" --seed 11 --samples 100000 --gpu-mem-bytes $MEM -o "$TMP/shapes.tsv" || fail sample-run "exit $?"
awk -F'\t' -v mem=$MEM -v out="$TMP/s.res" '
function check(name, cnt, n, p,   sd) {
	sd = sqrt(n * p * (1 - p))
	if (cnt < n * p - 5 * sd || cnt > n * p + 5 * sd)
		printf "FAIL %s: %d of %d, expected %.1f (sd %.1f)\n", name, cnt, n, n * p, sd > out
	else
		printf "ok %s\n", name > out
}
NR == 1 {
	if ($0 != "input\tsample\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\tmat1_iscontig\tmat2_iscontig\tusing_tf32")
		printf "FAIL sample-header: %s\n", $0 > out
	next
}
{
	r = NR - 2; m = $3; k = $4; n = $5
	if (NF != 16) { nf++; next }
	if ($1 != r || $2 != int(r / 4)) ids++
	c = r % 4; tl = int(c / 2); tr = c % 2
	if ($8 != tl || $9 != tr) order++
	lim = 2^31
	if (m * k >= lim || m * n >= lim || k * n >= lim) viol++
	it = ($6 == "torch.float32") ? 4 : 2
	if (4 * it * (m * k + k * n + m * n) >= mem) memviol++
	if (m < 1 || k < 1 || n < 1 || m > 131072 || k > 131072 || n > 131072) range++
	# strides as randn(m,k) / randn(k,m).t(), randn(k,n) / randn(n,k).t()
	if ($10 != (tl ? 1 : k) || $11 != (tl ? m : 1) || $12 != (tr ? 1 : n) || $13 != (tr ? k : 1)) strides++
	c1 = (m == 1 || $10 == k) && (k == 1 || $11 == 1) ? "True" : "False"
	c2 = (k == 1 || $12 == n) && (n == 1 || $13 == 1) ? "True" : "False"
	if ($14 != c1 || $15 != c2) contig++
	if ($6 == "torch.float32") { ut = $7 ? "True" : "False" } else { ut = "not_float_32"; if ($7 != 0) tfbad++ }
	if ($16 != ut) tfbad++
	if (c == 0) {
		S++; key = m SUBSEP k SUBSEP n SUBSEP $6 SUBSEP $7
		if ($6 == "torch.float32") { f32++; if ($7) tf++ }
		else if ($6 == "torch.float16") f16++
		else if ($6 == "torch.bfloat16") bf16++
		else dtbad++
	} else if (m SUBSEP k SUBSEP n SUBSEP $6 SUBSEP $7 != key) same++
}
END {
	printf "%s sample-fields\n", nf ? "FAIL" : "ok" > out
	printf "%s sample-ids%s\n", ids ? "FAIL" : "ok", ids ? ": " ids " bad ids" : "" > out
	printf "%s sample-transpose-order%s\n", order ? "FAIL" : "ok", order ? ": " order : "" > out
	printf "%s sample-2^31-constraint%s\n", viol ? "FAIL" : "ok", viol ? ": " viol " violations" : "" > out
	printf "%s sample-memory-constraint%s\n", memviol ? "FAIL" : "ok", memviol ? ": " memviol " violations" : "" > out
	printf "%s sample-range%s\n", range ? "FAIL" : "ok", range ? ": " range : "" > out
	printf "%s sample-strides%s\n", strides ? "FAIL" : "ok", strides ? ": " strides : "" > out
	printf "%s sample-contiguity%s\n", contig ? "FAIL" : "ok", contig ? ": " contig : "" > out
	printf "%s sample-using-tf32%s\n", tfbad ? "FAIL" : "ok", tfbad ? ": " tfbad : "" > out
	printf "%s sample-four-inputs-per-sample%s\n", same ? "FAIL" : "ok", same ? ": " same : "" > out
	if (S != 100000 || dtbad) printf "FAIL sample-count: %d samples, %d bad dtypes\n", S, dtbad > out
	check("sample-dtype-float32", f32, S, 1 / 3)
	check("sample-dtype-float16", f16, S, 1 / 3)
	check("sample-dtype-bfloat16", bf16, S, 1 / 3)
	check("sample-tf32-share", tf, f32, 0.2)
}' "$TMP/shapes.tsv"
cat "$TMP/s.res"; grep -q '^FAIL' "$TMP/s.res" && _failed=1

# the memory rejection is active: with 8 GiB no float32 sample may have
# 4*4*(mk+kn+mn) >= 8 GiB, and with the default (H200) some would
awk -F'\t' 'NR > 1 && $6 == "torch.float32" && 16 * ($3*$4 + $4*$5 + $3*$5) >= 2^33 { n++ } END { exit n > 0 }' \
	"$TMP/shapes.tsv" && ok sample-memory-rejection-small-gpu || fail sample-memory-rejection-small-gpu "big samples kept"
"$S" --seed 11 --samples 3000 -o "$TMP/big.tsv"
awk -F'\t' 'NR > 1 && $6 == "torch.float32" && 16 * ($3*$4 + $4*$5 + $3*$5) >= 2^33 { n++ } END { exit !(n > 0) }' \
	"$TMP/big.tsv" && ok sample-memory-default-h200 || fail sample-memory-default-h200 "no sample above 8 GiB with the H200 default"

# --- determinism ----------------------------------------------------------
"$S" --seed 5 --samples 500 -o "$TMP/a.tsv" && "$S" --seed 5 --samples 500 -o "$TMP/b.tsv"
test_cmp sample-deterministic "$TMP/a.tsv" "$TMP/b.tsv"
"$S" --seed 6 --samples 500 -o "$TMP/c.tsv"
cmp -s "$TMP/a.tsv" "$TMP/c.tsv" && fail sample-seed-matters "seeds 5 and 6 agree" || ok sample-seed-matters
# a longer run with the same seed starts with the shorter one (resumable collections can grow)
"$S" --seed 5 --samples 800 -o "$TMP/d.tsv"
head -n $((1 + 4 * 500)) "$TMP/d.tsv" > "$TMP/d500.tsv"
test_cmp sample-prefix-stable "$TMP/a.tsv" "$TMP/d500.tsv"

# --max-gflop (a budget option, off by default): every sample within the cap
"$S" --seed 2 --samples 2000 --max-gflop 50 -o "$TMP/cap.tsv"
awk -F'\t' 'NR > 1 && 2 * $3 * $4 * $5 > 50e9 { n++ } END { exit n > 0 }' "$TMP/cap.tsv" \
	&& [ "$(wc -l < "$TMP/cap.tsv")" = 8001 ] && ok sample-max-gflop || fail sample-max-gflop "cap violated"
awk -F'\t' 'NR > 1 && 2 * $3 * $4 * $5 > 50e9 { n++ } END { exit !(n > 0) }' "$TMP/a.tsv" \
	&& ok sample-no-cap-by-default || fail sample-no-cap-by-default "no sample above 50 GFLOP without the cap"

expect_error sample-bad-option "unknown option '--nope'" "$TMP/x.tsv" "$S" --nope -o "$TMP/x.tsv"
expect_error sample-bad-samples "--samples: expected an integer >= 1, got '-3'" "$TMP/x.tsv" "$S" --samples -3 -o "$TMP/x.tsv"
expect_error sample-zero-samples "--samples: expected an integer >= 1, got '0'" "$TMP/x.tsv" "$S" --samples 0 -o "$TMP/x.tsv"
"$S" --help | grep -q 'stages/FORMATS.md "shape' && ok sample-help-formats || fail sample-help-formats "--help does not point to stages/FORMATS.md"
expect_error sample-no-output "missing -o OUTPUT" "$TMP/x.tsv" "$S" --samples 3
# one CLI convention (-o OUT); the old positional OUTPUT still works, said on stderr
"$S" --seed 5 --samples 500 "$TMP/old.tsv" 2>"$TMP/old.err" && cmp -s "$TMP/a.tsv" "$TMP/old.tsv" &&
	grep -q "a positional OUTPUT is the old form: use -o $TMP/old.tsv" "$TMP/old.err" &&
	ok sample-old-positional-output || fail sample-old-positional-output "$(head -c 200 "$TMP/old.err")"
expect_error sample-two-outputs "two outputs, -o '$TMP/x.tsv' and '$TMP/y.tsv'" "$TMP/x.tsv" "$S" -o "$TMP/x.tsv" "$TMP/y.tsv"
finish
