#!/usr/bin/env python3
"""gen_contexts.py — deterministic synthetic mm contexts for the emit tests
and the latency benchmark (header + one context per line, the columns of
rank_py.py / rank_c.c).

usage: gen_contexts.py N SEED [--huge | --extreme] [THRESHOLDS...]

A mix of: dimensions from the data generator's range (powers of two and
random sizes up to 8192), values next to the given integer thresholds
(floor(t) - 1 .. floor(t) + 2), zeros, and huge shapes whose m*k*n exceeds
2^53 (the exact-division path of arith_intensity; products stay < 2^61).
--huge: only such shapes.  --extreme: shapes whose products are each < 2^63
(the C artifact's contract) but whose sum m*k + k*n + m*n is >= 2^63, some
>= 2^64 (the 65-bit denominator of arith_intensity).
Dtypes fp16/bf16/fp32 (and a few float64 = OTHER in C); contiguity and
strides consistent with a row-major or transposed layout; using_tf32 as
Inductor derives it from mat1's dtype and the allow_tf32 flag."""
import math
import random
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    near = []
    args = sys.argv[3:]
    huge = "--huge" in args
    if huge:
        args.remove("--huge")
    extreme = "--extreme" in args
    if extreme:
        args.remove("--extreme")
    for t in args:
        f = math.floor(float(t))
        near += [v for v in range(f - 1, f + 3) if 0 <= v < 1 << 30]
    rng = random.Random(seed)

    def extreme_shape():
        # two near-2^31.5 sizes and one free, or one tiny and two near 2^62
        while True:
            if rng.random() < 0.5:
                m, k, nn = (rng.randint(1 << 31, 3037000499) for _ in range(3))
            else:
                big = [rng.randint(1 << 61, (1 << 63) - 1) for _ in range(2)]
                m, k, nn = rng.sample([big[0], rng.randint(1, 3), 1], 3)
                if rng.random() < 0.5:
                    m, k, nn = 1, big[0], big[1] // 2 ** rng.randint(0, 2)
            p = (m * k, k * nn, m * nn)
            if max(p) < 1 << 63 and sum(p) >= 1 << 63:
                return m, k, nn

    def dim():
        if huge:
            return rng.randint(1 << 14, 1 << 24) if rng.random() < 0.9 else rng.randint(1, 1 << 14)
        r = rng.random()
        if r < 0.30:
            return 1 << rng.randint(0, 13)
        if r < 0.55:
            return rng.randint(1, 8192)
        if r < 0.80 and near:
            return rng.choice(near)
        if r < 0.83:
            return 0
        if r < 0.90:
            return rng.randint(1 << 17, 1 << 24)
        return rng.randint(1, 256)

    print("m\tk\tn\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\t"
          "mat1_dtype\tmat2_dtype\tmat1_iscontig\tmat2_iscontig\tusing_tf32")
    dtypes = ["torch.float16"] * 4 + ["torch.bfloat16"] * 3 + ["torch.float32"] * 3 + ["torch.float64"]
    for _ in range(n):
        while not extreme:
            m, k, nn = dim(), dim(), dim()
            if max(m * k, k * nn, m * nn) < 1 << 61:
                break
        if extreme:
            m, k, nn = extreme_shape()
        d1 = rng.choice(dtypes)
        d2 = d1 if rng.random() < 0.9 else rng.choice(dtypes)
        t1 = rng.random() < 0.8
        t2 = rng.random() < 0.8
        s1 = (k, 1) if t1 else (1, m)
        s2 = (nn, 1) if t2 else (1, k)
        tf32 = "not_float_32" if d1 != "torch.float32" else rng.choice(["True", "False"])
        print(f"{m}\t{k}\t{nn}\t{s1[0]}\t{s1[1]}\t{s2[0]}\t{s2[1]}\t{d1}\t{d2}\t{t1}\t{t2}\t{tf32}")


if __name__ == "__main__":
    main()
