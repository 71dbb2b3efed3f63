#!/usr/bin/env bash
# bench --template mma (the tensor-core template kernels/mma.cu) on the fake
# back end: candidate ids, shared-memory pruning per dtype, resumption.
. check/lib.sh
[ -x "$BIN/bench-fake" ] || { skip bench-template "$BIN/bench-fake not built"; finish; }
cd "$TMP"
K=(--kernels "$ROOT/kernels" --template mma)
"$BIN/sample" --seed 3 --samples 40 --max-gflop 50 shapes.tsv 2>/dev/null
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
pid=$!; sleep 1; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
"$BIN/bench-fake" "${K[@]}" shapes.tsv r.txt 2>/dev/null
cmp -s r.txt mma.txt && ok bench-template-resume || fail bench-template-resume "resumed log differs"
finish
