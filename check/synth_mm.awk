# synth_mm.awk — a synthetic AutoHeuristic mm log for the tests
# (deterministic: an LCG seeded by -v seed): -v inputs=N inputs with m, k, n
# in multiples of 16, -v choices=C choices (extern_mm, then type=triton_cI)
# whose times depend on the shape (so the best choice is learnable), a
# noise of up to 5 % (so some choices are within 2 % of the best), every
# third input float32 (slower for later choices).
# usage: awk -v seed=12345 -v inputs=240 -v choices=6 -f check/synth_mm.awk
BEGIN {
	print "{\"shared_memory\": 232448, \"device_capa\": [9, 0], \"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", \"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", \"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", \"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", \"using_tf32\"]}"
	print "m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback"
	s = seed
	for (i = 0; i < inputs; i++) {
		s = (s * 69069 + 1) % 4294967296; m = 16 * (1 + s % 256)
		s = (s * 69069 + 1) % 4294967296; k = 16 * (1 + s % 128)
		s = (s * 69069 + 1) % 4294967296; n = 16 * (1 + s % 256)
		dt = (i % 3 == 0) ? "torch.float32" : "torch.float16"; tf = (i % 3 == 0) ? "False" : "not_float_32"
		for (c = 0; c < choices; c++) {
			s = (s * 69069 + 1) % 4294967296; noise = 1 + (s % 1000) / 20000
			t = (m * k * n / 1e9) * (1 + 0.3 * ((c + int(m / 512) + int(n / 1024)) % 6)) * noise + 0.01 * (c + 1)
			if (dt == "torch.float32") t *= 1 + 0.1 * c
			printf "%d,%d,%d,%s,%s,%d,1,%d,1,True,True,%s,%s,%.6g\n", m, k, n, dt, dt, k, n, tf, (c == 0 ? "extern_mm" : "type=triton_c" c), t
		}
	}
}
