#!/usr/bin/env bash
# The Triton back end on the CPU (no GPU): Inductor's mm candidate rule
# (stages/gpu/policy/inductor_cands.c via stages/gpu/bench/triton_cands.c) against
# hand-worked lists (1024^3 fp16; 8x4096x4096, where the shrink dedupes
# within a list and repeats ids across the two lists; fp32 with TF32 on and
# off; decompose_k at k >= 32 max(m, n); m = 1; a layout column), refusals
# with file:line:field; the committed tables against torch 2.11's sources
# (python3 -m mmrank.bench.triton_configs --source, when /work/torch211 or
# TORCH_SRC exists); the AOT compile (python3 -m mmrank.bench.triton_aot: sm_90
# cubins with triton 3.6.0, read back by the C reader, keyed by kernel
# source, cached, atomic, failures recorded); the specialisation check
# against the static oracle on a few cases; and that the CUDA launcher and
# the GPU harness compile and link (the launcher's driver calls through
# stages/gpu/cuda/cudrv.h; the harness's own setup -lcuda).
. check/lib.sh
CC=${CC:-cc}
CUDA=${CUDA:-/usr/local/cuda}
LIBA=$(dirname "$BIN")/libmmrank.a
FLAGS="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g"
case $BIN in */san/bin) FLAGS="$FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" ;; esac
INC="-iquote $ROOT/stages -iquote $(dirname "$BIN")"
if [ ! -f "$LIBA" ]; then fail triton-lib "$LIBA missing (make check builds it)"; finish; fi
TC=$TMP/triton_cands MC=$TMP/triton_metacheck
if ! $CC $FLAGS $INC -o "$TC" stages/gpu/bench/triton_cands.c stages/gpu/policy/inductor_cands.c "$LIBA" -ljansson -lm 2>"$TMP/cc.err" ||
   ! $CC $FLAGS $INC -o "$MC" check/triton/triton_metacheck.c stages/gpu/bench/triton_meta.c "$LIBA" -ljansson -lm 2>>"$TMP/cc.err"; then
	fail triton-build "$(head -c 400 "$TMP/cc.err")"; finish
fi
ok triton-build

ids() { awk -F'\t' 'NR > 1 && $1 == '"$1"' { print $12 (($22 >= 0) ? " dup_of=" $22 : "") }' "$2"; }
shapes() { printf 'input\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\n'; cat; }

# ---- hand-worked candidate lists --------------------------------------------
shapes > "$TMP/s.tsv" <<'EOF'
0	1024	1024	1024	torch.float16	0	0	0
1	8	4096	4096	torch.float16	0	0	1
2	1024	1024	1024	torch.float32	1	1	0
3	1024	1024	1024	torch.float32	0	1	0
4	32	4096	32	torch.bfloat16	0	0	0
5	1	4096	4096	torch.float16	0	0	0
EOF
"$TC" "$TMP/s.tsv" "$TMP/c.tsv" || fail triton-cands-run "exit $?"
t=type=triton_BLOCK-M
# 1024^3: nothing shrinks, every num_warps fits (BM*BN/256 >= num_warps):
# extern_mm, the 20 mm configs, the 10 mm-ah configs (M, K, N order)
cat > "$TMP/e0" <<EOF
extern_mm
${t}=32_BLOCK-K=16_BLOCK-N=32_numstages=1_numwarps=2
${t}=32_BLOCK-K=128_BLOCK-N=32_numstages=2_numwarps=4
${t}=32_BLOCK-K=32_BLOCK-N=64_numstages=5_numwarps=8
${t}=64_BLOCK-K=32_BLOCK-N=32_numstages=5_numwarps=8
${t}=64_BLOCK-K=128_BLOCK-N=32_numstages=5_numwarps=4
${t}=64_BLOCK-K=16_BLOCK-N=64_numstages=2_numwarps=4
${t}=64_BLOCK-K=32_BLOCK-N=64_numstages=2_numwarps=4
${t}=64_BLOCK-K=64_BLOCK-N=64_numstages=3_numwarps=8
${t}=64_BLOCK-K=128_BLOCK-N=64_numstages=5_numwarps=4
${t}=64_BLOCK-K=32_BLOCK-N=128_numstages=3_numwarps=4
${t}=64_BLOCK-K=32_BLOCK-N=128_numstages=4_numwarps=8
${t}=64_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4
${t}=64_BLOCK-K=128_BLOCK-N=128_numstages=4_numwarps=4
${t}=128_BLOCK-K=32_BLOCK-N=64_numstages=3_numwarps=4
${t}=128_BLOCK-K=32_BLOCK-N=64_numstages=4_numwarps=8
${t}=128_BLOCK-K=32_BLOCK-N=128_numstages=2_numwarps=8
${t}=128_BLOCK-K=32_BLOCK-N=128_numstages=3_numwarps=4
${t}=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4
${t}=128_BLOCK-K=64_BLOCK-N=128_numstages=5_numwarps=8
${t}=128_BLOCK-K=128_BLOCK-N=128_numstages=4_numwarps=8
${t}=16_BLOCK-K=16_BLOCK-N=32_numstages=3_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=4_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=5_numwarps=2
${t}=64_BLOCK-K=128_BLOCK-N=64_numstages=3_numwarps=4
${t}=128_BLOCK-K=32_BLOCK-N=64_numstages=2_numwarps=2
${t}=128_BLOCK-K=64_BLOCK-N=64_numstages=3_numwarps=8
${t}=128_BLOCK-K=128_BLOCK-N=64_numstages=4_numwarps=8
${t}=128_BLOCK-K=32_BLOCK-N=128_numstages=4_numwarps=4
${t}=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=8
${t}=128_BLOCK-K=64_BLOCK-N=128_numstages=5_numwarps=4
EOF
ids 0 "$TMP/c.tsv" > "$TMP/a0"
test_cmp triton-cands-1024-fp16 "$TMP/e0" "$TMP/a0"
# 8x4096x4096: BLOCK_M -> max(next_pow2(8), 16) = 16, num_warps -> min(w,
# 16*BN/256); in the mm list (128,128,32,3,4) and (128,128,64,3,4) shrink to
# ids already there and are dropped (18 left); the mm-ah list keeps its 10,
# two of which repeat mm ids (offered and timed twice by Inductor, logged
# under one id): dup_of names the earlier candidate
cat > "$TMP/e1" <<EOF
extern_mm
${t}=16_BLOCK-K=16_BLOCK-N=32_numstages=1_numwarps=2
${t}=16_BLOCK-K=128_BLOCK-N=32_numstages=2_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=64_numstages=5_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=5_numwarps=2
${t}=16_BLOCK-K=128_BLOCK-N=32_numstages=5_numwarps=2
${t}=16_BLOCK-K=16_BLOCK-N=64_numstages=2_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=64_numstages=2_numwarps=4
${t}=16_BLOCK-K=64_BLOCK-N=64_numstages=3_numwarps=4
${t}=16_BLOCK-K=128_BLOCK-N=64_numstages=5_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=128_numstages=3_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=128_numstages=4_numwarps=8
${t}=16_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4
${t}=16_BLOCK-K=128_BLOCK-N=128_numstages=4_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=64_numstages=3_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=64_numstages=4_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=128_numstages=2_numwarps=8
${t}=16_BLOCK-K=64_BLOCK-N=128_numstages=5_numwarps=8
${t}=16_BLOCK-K=128_BLOCK-N=128_numstages=4_numwarps=8
${t}=16_BLOCK-K=16_BLOCK-N=32_numstages=3_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=4_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=5_numwarps=2 dup_of=4
${t}=16_BLOCK-K=128_BLOCK-N=64_numstages=3_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=64_numstages=2_numwarps=2
${t}=16_BLOCK-K=64_BLOCK-N=64_numstages=3_numwarps=4 dup_of=8
${t}=16_BLOCK-K=128_BLOCK-N=64_numstages=4_numwarps=4
${t}=16_BLOCK-K=32_BLOCK-N=128_numstages=4_numwarps=4
${t}=16_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=8
${t}=16_BLOCK-K=64_BLOCK-N=128_numstages=5_numwarps=4
EOF
ids 1 "$TMP/c.tsv" > "$TMP/a1"
test_cmp triton-cands-8x4096x4096-shrink-dedupe "$TMP/e1" "$TMP/a1"
# fp32: the same ids with TF32 on and off; the variants differ (tf32 / f32)
ids 2 "$TMP/c.tsv" | sed 's/ dup_of=.*//' > "$TMP/a2"
ids 3 "$TMP/c.tsv" | sed 's/ dup_of=.*//' > "$TMP/a3"
test_cmp triton-cands-fp32-ids-tf32-on "$TMP/e0" "$TMP/a2"
test_cmp triton-cands-fp32-ids-tf32-off "$TMP/e0" "$TMP/a3"
v2=$(awk -F'\t' 'NR > 1 && $1 == 2 && $13 == "triton" { print substr($23, 1, 5) }' "$TMP/c.tsv" | sort -u | tr '\n' ' ')
v3=$(awk -F'\t' 'NR > 1 && $1 == 3 && $13 == "triton" { print substr($23, 1, 4) }' "$TMP/c.tsv" | sort -u | tr '\n' ' ')
if [ "$v2" = "tf32- " ] && [ "$v3" = "f32- " ]; then ok triton-cands-fp32-variants
else fail triton-cands-fp32-variants "tf32 on: '$v2', off: '$v3'"; fi
# 32x4096x32 bf16: k >= 32*max(m, n) -> decompose_k; splits d | 4096 with
# 2 <= d <= 128 and 4096/d >= 128: 2 4 8 16 32; k >= 64*max(m, n) -> no mm
# template, only the mm-ah list (shrunk: BM, BN -> 32; (128,128,64,3,8)
# shrinks to the id of (128,64,64,3,8) and is dropped)
cat > "$TMP/e4" <<EOF
extern_mm
subgraph_decompose_k_mm_2_split
subgraph_decompose_k_mm_4_split
subgraph_decompose_k_mm_8_split
subgraph_decompose_k_mm_16_split
subgraph_decompose_k_mm_32_split
${t}=16_BLOCK-K=16_BLOCK-N=32_numstages=3_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=4_numwarps=2
${t}=16_BLOCK-K=32_BLOCK-N=32_numstages=5_numwarps=2
${t}=32_BLOCK-K=128_BLOCK-N=32_numstages=3_numwarps=4
${t}=32_BLOCK-K=32_BLOCK-N=32_numstages=2_numwarps=2
${t}=32_BLOCK-K=64_BLOCK-N=32_numstages=3_numwarps=4
${t}=32_BLOCK-K=128_BLOCK-N=32_numstages=4_numwarps=4
${t}=32_BLOCK-K=32_BLOCK-N=32_numstages=4_numwarps=4
${t}=32_BLOCK-K=64_BLOCK-N=32_numstages=5_numwarps=4
EOF
ids 4 "$TMP/c.tsv" > "$TMP/a4"
test_cmp triton-cands-decompose-k "$TMP/e4" "$TMP/a4"
# m = 1: Inductor decomposes it (coordinate_descent_tuning): no candidates
n5=$(awk -F'\t' 'NR > 1 && $1 == 5' "$TMP/c.tsv" | cut -f12 | tr '\n' ' ')
[ "$n5" = "- " ] && ok triton-cands-m1-none || fail triton-cands-m1-none "got '$n5'"
# the variant key of a few candidates (layout, hints, divisibility, K tiles)
awk -F'\t' 'NR > 1 && (($1 == 0 && $11 == 1) || ($1 == 1 && $11 == 1) || ($1 == 4 && $11 == 6)) { print $23 }' "$TMP/c.tsv" > "$TMP/av"
cat > "$TMP/ev" <<'EOF'
f16-32x32x16-s1w2g8-ek1-h11-kt0-i32-d8.8.8-a8.u-b8.u
f16-16x32x16-s1w2g8-ek1-h01-kt0-i32-d8.8.8-a8.u-bu.8
bf16-16x32x16-s3w2g8-ek1-h11-kt0-i32-d8.8.8-a8.u-b8.u
EOF
test_cmp triton-cands-variant-names "$TMP/ev" "$TMP/av"
# odd sizes: divisibility classes and a compiled-in trip count
shapes > "$TMP/odd.tsv" <<'EOF'
0	37	77	264	torch.float16	0	1	0
EOF
"$TC" "$TMP/odd.tsv" - | awk -F'\t' 'NR == 2 + 1 { print $23 }' > "$TMP/aodd"
echo 'f16-32x32x16-s1w2g8-ek0-h11-kt5-i32-d1.8.1-au.1-b8.u' > "$TMP/eodd"
test_cmp triton-cands-variant-odd "$TMP/eodd" "$TMP/aodd"
"$TC" --summary "$TMP/s.tsv" "$TMP/sum.tsv" && grep -q '^inputs_with_decompose_k	1$' "$TMP/sum.tsv" &&
	grep -q '^duplicate_ids	2$' "$TMP/sum.tsv" && ok triton-cands-summary ||
	fail triton-cands-summary "$(tr '\n' ' ' < "$TMP/sum.tsv")"

# a layout column: 'nt' transposes mat2 (strides (1, k)), 'tn' mat1 ((1, m)):
# the candidates and variants of the same inputs given by transpose_left/
# right or by their strides, not those of the row-major layout
{ printf 'input\tm\tk\tn\tdtype\ttf32\tlayout\n'
  printf '0\t8\t4096\t4096\ttorch.float16\t0\tnt\n1\t37\t77\t264\ttorch.float16\t0\ttn\n'; } > "$TMP/lay.tsv"
{ printf 'input\tm\tk\tn\tdtype\ttf32\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\n'
  printf '0\t8\t4096\t4096\ttorch.float16\t0\t4096\t1\t1\t4096\n1\t37\t77\t264\ttorch.float16\t0\t1\t37\t264\t1\n'; } > "$TMP/laystr.tsv"
"$TC" "$TMP/lay.tsv" "$TMP/lay.c.tsv" && "$TC" --variants "$TMP/lay.tsv" "$TMP/lay.v.tsv" &&
	"$TC" "$TMP/laystr.tsv" "$TMP/laystr.c.tsv" && "$TC" --variants "$TMP/laystr.tsv" "$TMP/laystr.v.tsv" ||
	fail triton-cands-layout-run "exit $?"
test_cmp triton-cands-layout-candidates "$TMP/laystr.c.tsv" "$TMP/lay.c.tsv"
test_cmp triton-cands-layout-variants "$TMP/laystr.v.tsv" "$TMP/lay.v.tsv"
ids 1 "$TMP/c.tsv" > "$TMP/e1t"; ids 0 "$TMP/lay.c.tsv" > "$TMP/a1t"
test_cmp triton-cands-layout-nt-ids "$TMP/e1t" "$TMP/a1t"
st=$(awk -F'\t' 'NR > 1 { print $1 ":" $7 "," $8 "," $9 "," $10 }' "$TMP/lay.c.tsv" | sort -u | tr '\n' ' ')
vb=$(awk -F'\t' 'NR > 1 && $13 == "triton" { n = split($23, p, "-"); print $1 ":" p[n - 1] "-" p[n] }' "$TMP/lay.c.tsv" | sort -u | tr '\n' ' ')
if [ "$st" = "0:4096,1,1,4096 1:1,37,264,1 " ] && [ "$vb" = "0:a8.u-bu.8 1:au.1-b8.u " ]; then ok triton-cands-layout-strides
else fail triton-cands-layout-strides "strides '$st', operand hints '$vb'"; fi

# ---- refusals -------------------------------------------------------------------
# the shape list (the shared reader, stages/formats/shapes.h): refuses NAME
# FILE PATTERN LINE... writes the header and LINEs into FILE and expects
# triton_cands to refuse it with stderr matching FILE:PATTERN, no output
refuses() {
	local name=$1 file=$2 pat=$3; shift 3
	printf '%s\n' "$@" | tr ' ' '\t' > "$TMP/$file"
	expect_error "$name" "$file:$pat" "$TMP/o.tsv" "$TC" "$TMP/$file" "$TMP/o.tsv"
}
H='m k n dtype tf32 layout'
refuses triton-cands-bad-dtype bad1.tsv "2: field 'dtype': unknown dtype 'torch.int8'" "$H" '64 64 64 torch.int8 0 nn'
refuses triton-cands-bad-size bad2.tsv "2: field 'k': 'x' is not an integer" "$H" '64 x 64 torch.float16 0 nn'
refuses triton-cands-bad-layout bad3.tsv "2: field 'layout': unknown value 'nx'" "$H" '64 64 64 torch.float16 0 nx'
refuses triton-cands-32-bit bad4.tsv "3: field 'm': 4294967296 is over 2\\^31 - 1" "$H" \
	'64 64 64 torch.float16 0 nn' '4294967296 64 64 torch.float16 0 nn'
refuses triton-cands-short-row short.tsv "2: 5 fields, the header has 6" "$H" '64 64 64 torch.float16 0'
# a list lacking a required column is refused at its header, naming it
# (these were read before as tf32 0 and compact row-major strides)
refuses triton-cands-no-tf32 notf32.tsv "1: header: a 'tf32' or 'using_tf32' column is required" \
	'm k n dtype layout' '64 64 64 torch.float16 nn'
refuses triton-cands-no-layout nolay.tsv "1: header: the strides or a layout .* are required" \
	'm k n dtype tf32' '64 64 64 torch.float16 0'
refuses triton-cands-no-m nom.tsv "1: header: columns m, k, n and dtype are required" \
	'k n dtype tf32 layout' '64 64 torch.float16 0 nn'
sed '7s/^mm\t32\t32\t16/mm\t48\t32\t16/' kernels/inductor_mm_configs.tsv > "$TMP/cfg48.tsv"
expect_error triton-table-bad-block "cfg48.tsv:7: field 'block_m': not a power of two >= 16: '48'" "$TMP/o.tsv" \
	"$TC" --configs "$TMP/cfg48.tsv" "$TMP/s.tsv" "$TMP/o.tsv"
sed '8s/\t8$/\tx/' kernels/inductor_mm_configs.tsv > "$TMP/cfgx.tsv"
expect_error triton-table-bad-group "cfgx.tsv:8: field 'group_m': not an integer" "$TMP/o.tsv" \
	"$TC" --configs "$TMP/cfgx.tsv" "$TMP/s.tsv" "$TMP/o.tsv"
sed 's/^mm-ah\t16\t32\t16/mmx\t16\t32\t16/' kernels/inductor_mm_configs.tsv > "$TMP/cfgl.tsv"
expect_error triton-table-bad-list "cfgl.tsv:[0-9]+: field 'list': expected mm or mm-ah: 'mmx'" "$TMP/o.tsv" \
	"$TC" --configs "$TMP/cfgl.tsv" "$TMP/s.tsv" "$TMP/o.tsv"
grep -v '^num_decompose_k_splits' kernels/inductor_mm_params.tsv > "$TMP/par.tsv"
expect_error triton-params-missing "par.tsv: field 'param': num_decompose_k_splits missing" "$TMP/o.tsv" \
	"$TC" --params "$TMP/par.tsv" "$TMP/s.tsv" "$TMP/o.tsv"
sed 's/^force_same_precision\t0/force_same_precision\t2/' kernels/inductor_mm_params.tsv > "$TMP/par2.tsv"
expect_error triton-params-bad-value "par2.tsv:[0-9]+: field 'value': not an integer in \[0, 1\]: '2'" "$TMP/o.tsv" \
	"$TC" --params "$TMP/par2.tsv" "$TMP/s.tsv" "$TMP/o.tsv"

# ---- the committed tables are torch 2.11's ------------------------------------------
TSRC=${TORCH_SRC:-/work/torch211}
if test_skip_unless TORCH_SRC triton-table-torch211; then
	python3 -m mmrank.bench.triton_configs --source "$TSRC" --configs > "$TMP/tc.tsv" &&
		test_cmp triton-table-configs-torch211 kernels/inductor_mm_configs.tsv "$TMP/tc.tsv" ||
		fail triton-table-configs-torch211 "triton_configs.py failed"
	python3 -m mmrank.bench.triton_configs --source "$TSRC" --params > "$TMP/tp.tsv" &&
		test_cmp triton-table-params-torch211 kernels/inductor_mm_params.tsv "$TMP/tp.tsv" ||
		fail triton-table-params-torch211 "triton_configs.py failed"
fi

# ---- the launcher and the GPU harness compile and link --------------------------------
if test_skip_unless CUDA triton-launch-links; then
	if $CC $FLAGS $INC -I"$CUDA/include" -o "$TMP/triton_gpu_test" check/triton/triton_gpu_test.c \
		stages/gpu/bench/triton_launch.c stages/gpu/bench/triton_timing.c stages/gpu/bench/triton_meta.c stages/gpu/cuda/cudrv.c \
		stages/gpu/policy/inductor_cands.c stages/gpu/policy/ttsched.c "$LIBA" \
		-L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcublas -lcudart -lcuda -ljansson -lm 2> "$TMP/ld.err"; then
		ok triton-launch-links
	else fail triton-launch-links "$(head -c 400 "$TMP/ld.err")"; fi
fi

# ---- the AOT compile --------------------------------------------------------
test_require TRITON triton-aot
"$TC" --variants "$TMP/s.tsv" "$TMP/v.tsv"
{ head -1 "$TMP/v.tsv"; grep -E '^(f16-16x32x16-s1w2g8-ek1-h01-kt0|f16-128x128x128-s4w8g8-ek1-h11-kt8)-' "$TMP/v.tsv"; } > "$TMP/v2.tsv"
[ "$(wc -l < "$TMP/v2.tsv")" = 3 ] || fail triton-aot-variants "$(cat "$TMP/v2.tsv")"
export TRITON_CACHE_DIR=$TMP/triton-own-cache
CACHE=$TMP/cubin
if python3 -m mmrank.bench.triton_aot --cache "$CACHE" --jobs 2 "$TMP/v2.tsv" > "$TMP/aot.out" 2> "$TMP/aot.err" &&
   grep -q '^compiled	2$' "$TMP/aot.out"; then ok triton-aot-compile
else fail triton-aot-compile "$(cat "$TMP/aot.out" "$TMP/aot.err" | tail -5 | tr '\n' '|')"; fi
ED=$(python3 -m mmrank.bench.triton_aot --cache "$CACHE" --entry-dir)
[ "$(awk -F'\t' '$1 == "entry" { print $2 }' "$TMP/aot.out")" = "$ED" ] && ok triton-aot-entry-dir ||
	fail triton-aot-entry-dir "$ED"
vs=$(tail -n +2 "$TMP/v2.tsv" | cut -f1)
"$MC" "$ED" $vs > "$TMP/meta.out" || fail triton-aot-meta-read "$(cat "$TMP/meta.out")"
if awk -F'\t' '
	$2 != "ok" || $3 != "triton_mm" { bad = 1 }
	$1 ~ /^f16-128x128x128-s4w8g8/ && ($4 != "shared=262144" || $5 != "threads=256") { bad = 1 }
	$1 ~ /^f16-16x32x16/ && ($5 != "threads=64" || $10 != "params=A:ptr16,B:ptr16,C:ptr16,M:i32,N:i32,K:i32,stride_am:i32,stride_bn:i32,global_scratch,profile_scratch") { bad = 1 }
	$0 !~ /cubin=[0-9]+\(ELF\)\tarch=sm_90\ttriton=3.6.0$/ { bad = 1 }
	END { exit bad || NR != 2 }' "$TMP/meta.out"; then ok triton-aot-meta-read
else fail triton-aot-meta-read "$(cat "$TMP/meta.out" | tr '\n' '|')"; fi
# 262144 bytes of shared memory: the config Inductor logs as "out of
# resource: ... Required: 262144, Hardware limit: 232448" compiles (inf at load)
python3 -m mmrank.bench.triton_aot --cache "$CACHE" --jobs 2 "$TMP/v2.tsv" > "$TMP/aot2.out" 2>&1 &&
	grep -q '^cached	2$' "$TMP/aot2.out" && grep -q '^compiled	0$' "$TMP/aot2.out" && ok triton-aot-cached ||
	fail triton-aot-cached "$(tr '\n' ' ' < "$TMP/aot2.out")"
if ls "$ED" | grep -q '\.tmp\.'; then fail triton-aot-atomic "temporary files left: $(ls "$ED")"
else
	nj=$(ls "$ED" | grep -c '\.json$'); nc=$(ls "$ED" | grep -c '\.cubin$')
	[ "$nj" = 2 ] && [ "$nc" = 2 ] && ok triton-aot-atomic || fail triton-aot-atomic "$nj json, $nc cubin"
fi
# another kernel source: another entry folder; a kernel that does not
# compile: an error entry (no cubin), reported by the reader, exit status 0
sed 's/    pid = tl.program_id(0).to(INDEX_DTYPE)/    pid = tl.program_id(0).to(INDEX_DTYPE) + tl.no_such_function()/' \
	kernels/triton_mm.py > "$TMP/broken_mm.py"
ED2=$(python3 -m mmrank.bench.triton_aot --cache "$CACHE" --kernel "$TMP/broken_mm.py" --entry-dir)
[ "$ED2" != "$ED" ] && ok triton-aot-keyed-by-source || fail triton-aot-keyed-by-source "$ED2"
{ head -1 "$TMP/v2.tsv"; sed -n 2p "$TMP/v2.tsv"; } > "$TMP/v1.tsv"
python3 -m mmrank.bench.triton_aot --cache "$CACHE" --kernel "$TMP/broken_mm.py" --jobs 1 "$TMP/v1.tsv" > "$TMP/aot3.out" 2> "$TMP/aot3.err"
rc=$?
v1=$(sed -n 2p "$TMP/v1.tsv" | cut -f1)
if [ $rc = 0 ] && grep -q '^failed	1$' "$TMP/aot3.out" && [ ! -e "$ED2/$v1.cubin" ] &&
   "$MC" "$ED2" "$v1" | grep -q "^$v1	error	.*no_such_function"; then ok triton-aot-failure-recorded
else fail triton-aot-failure-recorded "rc $rc: $(cat "$TMP/aot3.out" "$TMP/aot3.err" | tail -3 | tr '\n' '|')"; fi
# a variant line whose name does not match its fields is refused
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $4 = 64 } { print }' "$TMP/v1.tsv" > "$TMP/vbad.tsv"
expect_error triton-aot-bad-variant "vbad.tsv:2: field 'variant'" "$TMP/none" \
	python3 -m mmrank.bench.triton_aot --cache "$CACHE" "$TMP/vbad.tsv"
# a corrupted cubin is refused by the reader
cp "$ED/$v1.cubin" "$TMP/keep.cubin" && printf 'x' >> "$ED/$v1.cubin"
"$MC" "$ED" "$v1" > "$TMP/mc.out"; rc=$?
[ $rc = 1 ] && grep -q 'bad-cubin' "$TMP/mc.out" && ok triton-meta-bad-cubin || fail triton-meta-bad-cubin "rc $rc $(cat "$TMP/mc.out")"
cp "$TMP/keep.cubin" "$ED/$v1.cubin"

# ---- the specialisation check against the static oracle ------------------------------
shapes > "$TMP/sp.tsv" <<'EOF'
0	37	77	264	torch.float16	0	1	0
1	1000	1000	1000	torch.float32	1	0	1
EOF
"$TC" "$TMP/sp.tsv" "$TMP/sp.c.tsv"
if python3 check/triton/triton_speccheck.py compare --jobs 2 --every 13 --limit 4 "$TMP/sp.c.tsv" > "$TMP/spec.out" 2>&1 &&
   grep -q '^speccheck: 4 cases, .* 0 differ$' "$TMP/spec.out"; then ok triton-speccheck
else fail triton-speccheck "$(tail -5 "$TMP/spec.out" | tr '\n' '|')"; fi

finish
