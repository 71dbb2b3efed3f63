#!/usr/bin/env bash
# bench --template mma (the tensor-core template kernels/mma.cu) and
# --template mma+wgmma (plus kernels/wgmma.cu) on the fake back end:
# candidate ids, shared-memory pruning per dtype, which inputs get wgmma
# candidates (compact operands only), resumption.
. check/lib.sh
test_have_bins bench-template bench-fake || finish
cd "$TMP"
K=(--kernels "$ROOT/kernels" --template mma)
"$BIN/sample" --seed 3 --samples 40 --max-gflop 50 -o shapes.tsv 2>/dev/null
"$BIN/bench-fake" "${K[@]}" shapes.tsv mma.txt 2>/dev/null || { fail bench-template-run "exit $?"; finish; }
ids=$(tail -n +3 mma.txt | cut -d, -f13 | sort -u)
bad=$(grep -v -e '^extern_mm$' -e '^type=nvrtc_mma_BLOCK-M=[0-9]*_BLOCK-K=[0-9]*_BLOCK-N=[0-9]*_numstages=[0-9]_numwarps=[0-9]*$' <<<"$ids" | head -3)
[ -z "$bad" ] && ok bench-template-ids || fail bench-template-ids "$bad"
# (128,128,64,5,8) needs 5*(128*72+128*72)*2 = 184320 B for fp16 (fits) and
# 5*(128*68+128*68)*4 = 348160 B for fp32 (does not): mma.cu's padded tiles.
big='type=nvrtc_mma_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=5_numwarps=8'
n16=$(grep -c "torch.float16,.*,$big," mma.txt); n32=$(grep -c "torch.float32,.*,$big," mma.txt)
[ "$n16" -gt 0 ] && [ "$n32" = 0 ] && ok bench-template-smem-per-dtype || fail bench-template-smem-per-dtype "fp16 rows $n16, fp32 rows $n32"
# the split-K lines of mma_configs.tsv are not offered (bench has no reduce step)
grep -q splitk mma.txt && fail bench-template-no-splitk "split-K id in the log" || ok bench-template-no-splitk
# kill -9 mid-run, resume: the same rows as an uninterrupted run
"$BIN/bench-fake" "${K[@]}" --fake-delay-ms 20 shapes.tsv r.txt 2>/dev/null &
pid=$!; wait_lines r.txt.part 3; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
"$BIN/bench-fake" "${K[@]}" shapes.tsv r.txt 2>/dev/null
cmp -s r.txt mma.txt && ok bench-template-resume || fail bench-template-resume "resumed log differs"

# --- mma+wgmma: wgmma.cu configs, unshrunk, for fp16/bf16 inputs whose stored
# operands have leading dimensions that are multiples of 8 (TMA) -------------
W=(--kernels "$ROOT/kernels" --template mma+wgmma)
{
	head -1 shapes.tsv
	# input sample m k n dtype tf32 ta tb strides contig using_tf32
	printf '0\t0\t64\t64\t64\ttorch.float16\t0\t0\t0\t64\t1\t64\t1\tTrue\tTrue\tnot_float_32\n'
	printf '1\t1\t64\t63\t64\ttorch.bfloat16\t0\t0\t0\t63\t1\t64\t1\tTrue\tTrue\tnot_float_32\n'
	printf '2\t2\t63\t64\t64\ttorch.bfloat16\t0\t1\t0\t1\t63\t64\t1\tFalse\tTrue\tnot_float_32\n'
	printf '3\t3\t63\t64\t64\ttorch.bfloat16\t0\t0\t0\t64\t1\t64\t1\tTrue\tTrue\tnot_float_32\n'
	printf '4\t4\t64\t64\t64\ttorch.float32\t0\t0\t0\t64\t1\t64\t1\tTrue\tTrue\tFalse\n'
	printf '5\t5\t8\t16\t7\ttorch.float16\t0\t0\t1\t16\t1\t1\t16\tTrue\tFalse\tnot_float_32\n'
	printf '6\t6\t8\t16\t7\ttorch.float16\t0\t0\t0\t16\t1\t7\t1\tTrue\tTrue\tnot_float_32\n'
	printf '7\t7\t64\t64\t64\ttorch.float16\t0\t0\t0\t72\t1\t64\t1\tFalse\tTrue\tnot_float_32\n'
} > wg.tsv
"$BIN/bench-fake" "${W[@]}" wg.tsv wg.txt 2>wg.err || { fail bench-wgmma-run "$(tail -2 wg.err)"; finish; }
# per input: the number of distinct wgmma ids (8 configs in kernels/wgmma_configs.tsv)
got=$(awk -F, 'NR > 2 { f = $1","$2","$3","$4","$6","$7","$8","$9; if (!(f in seen)) { seen[f] = 1; order[++n] = f }
	if ($13 ~ /^type=nvrtc_wgmma_BLOCK-M=(64|128|256)_BLOCK-K=64_BLOCK-N=(64|128|256)_numstages=[0-9]+_numwarps=(8|12)$/ && !((f, $13) in w)) { w[f, $13] = 1; c[f]++ } }
	END { for (i = 1; i <= n; i++) printf "%d ", c[order[i]] + 0 }' wg.txt)
nwg=$(grep -c '^base' "$ROOT/kernels/wgmma_configs.tsv")
# 0: fp16 aligned; 1: k=63 row-major A; 2: ta with m=63; 3: ta=0, m=63 (fine);
# 4: fp32; 5: tb with k=16, n=7 (fine); 6: tb=0 with n=7; 7: mat1 padded
# (leading dimension 72: TMA could, but the tensor maps take compact extents)
want="$nwg 0 0 $nwg 0 $nwg 0 0 "
[ "$got" = "$want" ] && ok bench-wgmma-eligibility || fail bench-wgmma-eligibility "got '$got', want '$want'"
"$BIN/bench-fake" "${W[@]}" shapes.tsv wgs.txt 2>/dev/null
"$BIN/bench-fake" "${W[@]}" --fake-delay-ms 20 shapes.tsv wr.txt 2>/dev/null &
pid=$!; wait_lines wr.txt.part 3; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
"$BIN/bench-fake" "${W[@]}" shapes.tsv wr.txt 2>/dev/null
cmp -s wr.txt wgs.txt && grep -q nvrtc_wgmma wgs.txt && ok bench-wgmma-resume || fail bench-wgmma-resume "resumed log differs or no wgmma rows"
# on a GPU other than sm_90 wgmma.cu is not offered (said once on stderr)
"$BIN/bench-fake" "${W[@]}" --fake-capability 8 wg.tsv wg80.txt 2>wg80.err
! grep -q nvrtc_wgmma wg80.txt && grep -q 'nvrtc_mma' wg80.txt && grep -q 'wgmma.cu needs sm_90' wg80.err \
	&& ok bench-wgmma-sm90-only || fail bench-wgmma-sm90-only "$(grep -c nvrtc_wgmma wg80.txt) wgmma rows; $(head -2 wg80.err)"
expect_error bench-template-bad 'expected mm, mma, mma\+wgmma or triton' x.txt "$BIN/bench-fake" --kernels "$ROOT/kernels" --template wgmma shapes.tsv x.txt
finish
