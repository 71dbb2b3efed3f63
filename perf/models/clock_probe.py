#!/usr/bin/env python3
"""clock_probe.py — is Inductor's autotune clock timing the kernel, or the
CPU that launches it?  One ATen GEMM (mm or addmm, cuBLAS through torch),
timed three ways on the GPU, in one process:

  inductor  Inductor's own benchmarker, the clock of max-autotune and of
            AutoHeuristic's collected data (runtime/benchmarking.py
            InductorBenchmarker.benchmark_gpu: per iteration an L2 flush,
            a start event, the call, an end event; the minimum), around
            torch.mm / torch.addmm with out= (Inductor's
            ExternKernelBenchmarkRequest runs an ATen choice's callable,
            e.g. bias_addmm, in this same loop, but inside a compile);
  hidden    the same loop, the same flush, but with the GPU kept busy
            (torch.cuda._sleep) between the flush and the start event, so
            that the call's CPU dispatch is over before the GPU reaches
            the start event: the kernel's own time after a flush;
  graph     the call captured REPLAYS times back to back in one CUDA graph,
            the replay timed with CUDA events, divided by REPLAYS (no CPU
            at all, warm L2: as a compiled model's graph runs it).

inductor / hidden > 1 is the CPU dispatch the clock adds.  Where that is
large, AutoHeuristic's data and max-autotune's choice between an ATen and
a Triton kernel measure launch paths, not kernels.

usage: clock_probe.py [--shapes FILE.tsv] [--dtype bfloat16] [--reps 3]
                      [--replays 20] [-o OUT.md]
--shapes: TSV with a header, columns op (mm|addmm), m, k, n, exactly (default:
  a built-in list: GPT-2 and Llama-3-8B GEMMs at decode (m 16) and prefill
  (m 2048)).  Every number is a whole number 1..2^20, and each of m*k, k*n
  and m*n at most 2^30 elements; a bad line is an error naming file, line
  and field, exit 1, before anything runs (an unwritable -o too).
Output (stdout or -o): a markdown table, one row per shape: the three
clocks in microseconds (median of --reps repetitions, each a fresh
measurement; the spread min-max in brackets) and inductor/hidden,
inductor/graph; -o is written once, at the end.  Needs torch with CUDA and
a GPU (exit 3 without; 2: bad arguments).
"""
import argparse
import csv
import os
import stat
import statistics
import sys
import tempfile

import run   # this script's folder: the judge's warm-up before a CUDA-graph capture

DEFAULT = [("addmm", 16, 768, 2304), ("addmm", 16, 768, 768), ("addmm", 16, 3072, 768),
           ("mm", 16, 768, 50257), ("mm", 16, 4096, 4096), ("mm", 16, 4096, 14336),
           ("mm", 16, 14336, 4096), ("addmm", 2048, 768, 2304), ("addmm", 2048, 768, 768),
           ("addmm", 2048, 3072, 768), ("mm", 2048, 768, 50264), ("mm", 2048, 4096, 4096),
           ("mm", 2048, 4096, 14336)]
OPS = ("mm", "addmm")
MAX_DIM = 1 << 20       # m, k, n
MAX_ELEMS = 1 << 30     # m*k, k*n, m*n


def read_shapes(path):
    out = []
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 1 << 20:
            sys.exit(f"clock_probe.py: {path}: not a regular file of at most 1 MiB")
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        sys.exit(f"clock_probe.py: {path}: cannot read: {getattr(e, 'strerror', None) or e}")
    if not rows or rows[0] != ["op", "m", "k", "n"]:
        sys.exit(f"clock_probe.py: {path}:1: header: expected exactly op, m, k, n (tab-separated)")
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != 4:
            sys.exit(f"clock_probe.py: {path}:{i}: expected 4 fields (op, m, k, n), got {len(r)}")
        if r[0] not in OPS:
            sys.exit(f"clock_probe.py: {path}:{i}: field op: '{r[0]}' is not mm or addmm")
        dims = []
        for name, v in zip(("m", "k", "n"), r[1:4]):
            if not (v.isascii() and v.isdigit() and len(v) <= 7) or not 1 <= int(v) <= MAX_DIM:
                sys.exit(f"clock_probe.py: {path}:{i}: field {name}: {v!r} is not a whole "
                         f"number 1..{MAX_DIM}")
            dims.append(int(v))
        m, k, n = dims
        for name, e in (("m*k", m * k), ("k*n", k * n), ("m*n", m * n)):
            if e > MAX_ELEMS:
                sys.exit(f"clock_probe.py: {path}:{i}: {name} = {e} elements, over {MAX_ELEMS}")
        out.append((r[0], *dims))
    if not out:
        sys.exit(f"clock_probe.py: {path}: no shapes")
    return out


def probe(torch, bm, op, m, k, n, dtype, replays):
    """(inductor, hidden, graph) in microseconds for one fresh measurement."""
    dev = "cuda"
    a = torch.randn(m, k, device=dev, dtype=dtype)
    b = torch.randn(k, n, device=dev, dtype=dtype)
    out = torch.empty(m, n, device=dev, dtype=dtype)
    if op == "addmm":
        bias = torch.randn(n, device=dev, dtype=dtype)

        def call():
            torch.addmm(bias, a, b, out=out)
    else:
        def call():
            torch.mm(a, b, out=out)
    t_ind = bm.benchmark_gpu(call) * 1e3

    flush = torch.empty(bm.L2_cache_size // 4, dtype=torch.int, device=dev)
    call()
    torch.cuda.synchronize()
    times = []
    for _ in range(50):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        flush.zero_()
        torch.cuda._sleep(200_000)   # ~0.1 ms of GPU time: the dispatch below ends first
        s.record()
        call()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    t_hid = min(times) * 1e3

    run.warm_up(call)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(replays):
            call()
    g.replay()
    torch.cuda.synchronize()
    gt = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        g.replay()
        e.record()
        torch.cuda.synchronize()
        gt.append(s.elapsed_time(e) / replays)
    t_graph = statistics.median(gt) * 1e3
    return t_ind, t_hid, t_graph


def main(argv):
    p = argparse.ArgumentParser(prog="clock_probe.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", help="TSV: op, m, k, n (default: built-in list)")
    p.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16", "float32"))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--replays", type=int, default=20)
    p.add_argument("-o", "--out")
    a = p.parse_args(argv)
    if not 1 <= a.reps <= 100:
        p.error(f"--reps {a.reps}: expected 1..100")
    if not 1 <= a.replays <= 1000:
        p.error(f"--replays {a.replays}: expected 1..1000")
    if a.out == "":
        p.error("-o: an empty file name")
    shapes = read_shapes(a.shapes) if a.shapes else DEFAULT
    if a.out:
        d = os.path.dirname(os.path.abspath(a.out))
        if os.path.isdir(a.out) or not os.path.isdir(d) or not os.access(d, os.W_OK):
            sys.exit(f"clock_probe.py: -o {a.out}: not a file in a writable folder")
    try:
        import torch
        from torch._inductor.runtime.benchmarking import benchmarker
    except Exception as e:  # noqa: BLE001 - ImportError or a torch that fails to load
        print(f"clock_probe.py: torch does not import: {e}", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("clock_probe.py: no CUDA device", file=sys.stderr)
        return 3
    dtype = getattr(torch, a.dtype)
    lines = [f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, {a.dtype}; "
             f"microseconds, median of {a.reps} [min-max]",
             "", "| op | m | k | n | inductor | hidden | graph | inductor/hidden | inductor/graph |",
             "|---|---|---|---|---|---|---|---|---|"]
    for op, m, k, n in shapes:
        r = [probe(torch, benchmarker, op, m, k, n, dtype, a.replays) for _ in range(a.reps)]
        cols = list(zip(*r))
        med = [statistics.median(c) for c in cols]
        cell = [f"{md:.1f} [{min(c):.1f}-{max(c):.1f}]" for md, c in zip(med, cols)]
        lines.append(f"| {op} | {m} | {k} | {n} | {cell[0]} | {cell[1]} | {cell[2]} | "
                     f"{med[0] / med[1]:.2f} | {med[0] / med[2]:.2f} |")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    sys.stdout.flush()
    if a.out:
        try:
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(a.out)))
            with os.fdopen(fd, "w") as f:
                f.write(text)
            os.replace(tmp, a.out)
        except OSError as e:
            print(f"clock_probe.py: -o {a.out}: {e.strerror or e} (the table is on stdout)",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
