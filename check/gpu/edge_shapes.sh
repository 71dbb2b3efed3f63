#!/usr/bin/env bash
# check/gpu/edge_shapes.sh — print the GPU tests' edge inputs as a shapes.tsv
# (stages/sample.c's columns): 7 shapes (m k n) 1x1x1, 17x33x65, 128^3,
# 1000x77x513, 3x4097x129, 64x1x300, 2048x1024x768, each in float32,
# float32+tf32, float16, bfloat16, each with the four (transpose_left,
# transpose_right) layouts: 112 inputs, strides and contiguity as torch
# gives them.  Used by check/gpu/test_bench_gpu.sh and test_bench_lt.sh.
SHAPES="1 1 1
17 33 65
128 128 128
1000 77 513
3 4097 129
64 1 300
2048 1024 768"
printf 'input\tsample\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\tmat1_iscontig\tmat2_iscontig\tusing_tf32\n'
id=0; s=0
while read -r m k n; do
	for dt in f32 tf32 f16 bf16; do
		case $dt in
		f32) d=torch.float32 tf=0 ut=False ;; tf32) d=torch.float32 tf=1 ut=True ;;
		f16) d=torch.float16 tf=0 ut=not_float_32 ;; bf16) d=torch.bfloat16 tf=0 ut=not_float_32 ;;
		esac
		for tl in 0 1; do for tr in 0 1; do
			if [ $tl = 1 ]; then a0=1 a1=$m; else a0=$k a1=1; fi
			if [ $tr = 1 ]; then b0=1 b1=$k; else b0=$n b1=1; fi
			c1=False; { [ $m = 1 ] || [ $a0 = $k ]; } && { [ $k = 1 ] || [ $a1 = 1 ]; } && c1=True
			c2=False; { [ $k = 1 ] || [ $b0 = $n ]; } && { [ $n = 1 ] || [ $b1 = 1 ]; } && c2=True
			printf '%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n' \
				$id $s $m $k $n $d $tf $tl $tr $a0 $a1 $b0 $b1 $c1 $c2 $ut
			id=$((id + 1))
		done; done
		s=$((s + 1))
	done
done <<<"$SHAPES"
