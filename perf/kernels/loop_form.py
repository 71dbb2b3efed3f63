#!/usr/bin/env python3
"""perf/kernels/loop_form.py — EXPERIMENT (our best Triton times are 8-28 % above
Inductor's on the largest inputs, growing with num_stages).  Times, in one process on one GPU,
three kernels for the same configs: ours (kernels/triton_mm.py, run-time sizes), ours with
Inductor's loop form (made from it by loop_form_kernel(), run-time sizes) and Inductor's
template with literal sizes and strides (the code Inductor generates: stages/gpu/bench/
triton_speccheck.py's oracle, inductor_ref_mm).
Triton JIT; triton.testing.do_bench (CUDA events around each launch, L2 flushed before each;
median and min of the launches, ms).  Checks each result against torch.mm (fp32 reference).
usage: PYTHONPATH=python python3 perf/kernels/loop_form.py   (needs a GPU, torch, triton)
Environment: REP (do_bench rep ms, default 200), GAP (seconds the GPU idles before each
measurement, default 0: Inductor's autotuner spends ~0.1-0.2 s of host work per choice between
its GPU timings), KERNELS (comma list, default all three), SHAPES_N (first N shapes), CLOCKS=1
(print the SM clock, MHz, read by torch.cuda.clock_rate after each measurement)."""
import importlib.util
import os
import time

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))


def load_module(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def load(path):
    return load_module(path).triton_mm


KERNEL = os.path.join(HERE, "..", "..", "kernels", "triton_mm.py")
# kernels/triton_mm.py's lines -> Inductor's loop form: no loop-invariant 2-D offset tiles, the
# addresses recomputed from the 1-D offsets and k0 at every K step
LOOP_FORM = [
    ("    a_offs = offs_a_m[:, None] * stride_am + offs_k[None, :] * stride_ak\n", ""),
    ("    b_offs = offs_k[:, None] * stride_bk + offs_b_n[None, :] * stride_bn\n", ""),
    ("a_ptrs = A + k0 * stride_ak + a_offs",
     "a_ptrs = A + ((offs_k[None, :] + k0) * stride_ak + offs_a_m[:, None] * stride_am)"),
    ("b_ptrs = B + k0 * stride_bk + b_offs",
     "b_ptrs = B + ((offs_k[:, None] + k0) * stride_bk + offs_b_n[None, :] * stride_bn)"),
]


def loop_form_kernel():
    """kernels/triton_mm.py with its K loop in Inductor's form, written to a temporary file
    (Triton's JIT needs the source on disk)."""
    import tempfile
    src = open(KERNEL).read()
    for old, new in LOOP_FORM:
        if old not in src:
            raise SystemExit(f"loop_form.py: {KERNEL}: no line '{old.strip()}' to rewrite")
        src = src.replace(old, new)
    path = os.path.join(tempfile.mkdtemp(), "triton_mm_loopform.py")
    with open(path, "w") as fh:
        fh.write(src)
    return load(path)


OURS = load(KERNEL)
LOOPF = loop_form_kernel()
# the template's oracle (check/triton/triton_speccheck.py, which imports mmrank:
# PYTHONPATH=<repo>/python)
ind_mm = load_module(os.path.join(HERE, "..", "..", "check", "triton", "triton_speccheck.py")).inductor_ref_mm

SHAPES = [  # m, k, n, dtype, mat1 transposed, mat2 transposed (Inductor run A's largest inputs)
    (4096, 4096, 14336, torch.bfloat16, False, True),
    (2048, 4096, 32000, torch.bfloat16, False, True),
    (16384, 1024, 4096, torch.float16, False, False),
    (4096, 4096, 4096, torch.float16, True, False),
]
CONFIGS = [(128, 64, 128, 3, 4), (128, 64, 128, 5, 4), (128, 64, 128, 5, 8), (128, 64, 128, 3, 8)]


def operand(r, c, trans, dtype):
    t = torch.randn((c, r) if trans else (r, c), device="cuda", dtype=dtype)
    return t.t() if trans else t


def main():
    torch.manual_seed(0)
    print("shape\tdtype\tlayout\tconfig\tkernel\tmedian_ms\tmin_ms\tmax_abs_err")
    for m, k, n, dt, ta, tb in SHAPES[:int(os.environ.get("SHAPES_N", len(SHAPES)))]:
        a, b = operand(m, k, ta, dt), operand(k, n, tb, dt)
        ref = (a.float() @ b.float())
        for bm, bk, bn, st, w in CONFIGS:
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            c = torch.empty((m, n), device="cuda", dtype=dt)
            hint_a = (a.stride(0) == 1 and a.stride(1) == m) or (a.stride(0) == k and a.stride(1) == 1)
            hint_b = (b.stride(0) == 1 and b.stride(1) == k) or (b.stride(0) == n and b.stride(1) == 1)
            rt = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, EVEN_K=k % bk == 0, ALLOW_TF32=False,
                      ACC_TYPE=tl.float32, HINT_A=hint_a and m >= bm, HINT_B=hint_b and n >= bn, K_TILES=0,
                      INDEX_DTYPE=tl.int32, num_warps=w, num_stages=st)
            runs = {
                "ours": lambda f=OURS: f[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                              b.stride(1), **rt),
                "loopform": lambda f=LOOPF: f[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                                    b.stride(1), **rt),
                "inductor_literal": lambda: ind_mm[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                                                         b.stride(0), b.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                                         BLOCK_K=bk, GROUP_M=8, EVEN_K=k % bk == 0,
                                                         ALLOW_TF32=False, ACC_TYPE=tl.float32,
                                                         INDEX_DTYPE=tl.int32, num_warps=w, num_stages=st),
            }
            rep, gap = float(os.environ.get("REP", "200")), float(os.environ.get("GAP", "0"))
            keep = os.environ.get("KERNELS", ",".join(runs)).split(",")
            for name, fn in runs.items():
                if name not in keep:
                    continue
                c.zero_()
                fn()
                torch.cuda.synchronize()
                err = (c.float() - ref).abs().max().item()
                time.sleep(gap)
                med = do_bench(fn, warmup=25, rep=rep, return_mode="median")
                clk = torch.cuda.clock_rate() if os.environ.get("CLOCKS") else ""
                time.sleep(gap)
                mn = do_bench(fn, warmup=25, rep=rep, return_mode="min")
                err = f"{err:.3g}\t{clk}" if clk != "" else f"{err:.3g}"
                lay = ("t" if ta else "n") + ("t" if tb else "n")
                print(f"{m}x{k}x{n}\t{str(dt)[6:]}\t{lay}\t{bm}x{bk}x{bn}s{st}w{w}\t{name}\t{med:.4f}\t{mn:.4f}\t{err}",
                      flush=True)


if __name__ == "__main__":
    main()
