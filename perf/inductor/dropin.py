"""Inductor drop-in check: our _MMRankingH100.py inside torch.compile.

usage: python3 perf/inductor/dropin.py MODE ARTIFACT.py [SHAPES...]
  MODE      full    : max-autotune without AutoHeuristic (the baseline)
            shipped : TORCHINDUCTOR_AUTOHEURISTIC_USE=mm with torch's own
                      artifacts (MMRankingH100 matches an H200)
            ours    : the same, with ARTIFACT.py registered as the only mm
                      heuristic (LearnedHeuristicController.existing_heuristics)
  SHAPES    m,k,n,dtype[,tA,tB] (dtype f16|bf16|f32; tA/tB 1 = transposed view)
Prints one JSON object per shape on stdout: the choice ids Inductor
benchmarked for mm (recorded by wrapping AlgorithmSelectorCache.__call__),
whether they are the heuristic's top-10 plus extern_mm, compile seconds (first
call, fresh caches), the compiled mm's run time in ms (CUDA events, median of
50 after warm-up) and the max abs error against torch.mm.
Run one MODE per process (env vars are read at import), e.g. perf/inductor/run.sh.
"""
import importlib.util
import json
import os
import sys
import tempfile
import time

mode, artifact = sys.argv[1], sys.argv[2]
shapes = sys.argv[3:]
assert mode in ("full", "shipped", "ours"), mode
os.environ["TORCHINDUCTOR_AUTOHEURISTIC_USE"] = "" if mode == "full" else "mm"
os.environ["TORCHINDUCTOR_AUTOHEURISTIC_COLLECT"] = ""
os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix=f"inductor-{mode}-")
os.environ["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"

import torch  # noqa: E402
import torch._inductor.config as iconfig  # noqa: E402
from torch._inductor import select_algorithm  # noqa: E402
from torch._inductor.autoheuristic import learned_heuristic_controller as lhc  # noqa: E402

iconfig.force_disable_caches = True

ours = None
if mode in ("ours", "shipped"):
    spec = importlib.util.spec_from_file_location("mmrank_artifact", artifact)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cls = [v for k, v in vars(mod).items() if k.startswith("MMRanking") and isinstance(v, type)][0]
    ours = cls()
    if mode == "ours":
        ctl = lhc.LearnedHeuristicController
        ctl.existing_heuristics = {"mm": [ours]}
        ctl.heuristics_initialized = True

recorded = []
orig_call = select_algorithm.AlgorithmSelectorCache.__call__


def wrapped(self, name, choices, *args, **kwargs):
    if name == "mm":
        ids = []
        for c in choices:
            try:
                ids.append(c.autoheuristic_id())
            except Exception:  # pragma: no cover - other caller kinds
                ids.append(getattr(c, "name", repr(c)))
        recorded.append(ids)
    return orig_call(self, name, choices, *args, **kwargs)


select_algorithm.AlgorithmSelectorCache.__call__ = wrapped

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


class Ctx:
    """Minimal AHContext: get_value over the raw and derived mm features."""

    def __init__(self, d):
        self.d = d

    def get_value(self, k):
        return self.d[k]


def expected_top(a, b, m, k, n):
    """Our/shipped heuristic's top-10 ids for this context (spec §7.3)."""
    ctx = {
        "m": m, "k": k, "n": n,
        "mat1_dtype": a.dtype, "mat2_dtype": b.dtype,
        "mat1_stride_0": a.stride(0), "mat1_stride_1": a.stride(1),
        "mat2_stride_0": b.stride(0), "mat2_stride_1": b.stride(1),
        "mat1_iscontig": a.is_contiguous(), "mat2_iscontig": b.is_contiguous(),
        "using_tf32": "not_float_32" if a.dtype != torch.float32
        else torch.backends.cuda.matmul.allow_tf32,
        "m*k": m * k, "m*n": m * n, "k*n": k * n,
        "arith_intensity": (m * k * n) / (m * k + k * n + m * n),
    }
    ranked = ours.get_best_choices(Ctx(ctx)) or []
    return [ours.get_choice(i) for _, i in ranked]


for spec_s in shapes:
    f = spec_s.split(",")
    m, k, n = int(f[0]), int(f[1]), int(f[2])
    dt = DT[f[3]]
    ta = len(f) > 4 and f[4] == "1"
    tb = len(f) > 5 and f[5] == "1"
    torch.manual_seed(0)
    a = (torch.randn(k, m, device="cuda", dtype=dt).t() if ta
         else torch.randn(m, k, device="cuda", dtype=dt))
    b = (torch.randn(n, k, device="cuda", dtype=dt).t() if tb
         else torch.randn(k, n, device="cuda", dtype=dt))
    torch._dynamo.reset()
    fn = torch.compile(lambda x, y: torch.mm(x, y), mode="max-autotune-no-cudagraphs")
    n_before = len(recorded)
    t0 = time.perf_counter()
    out = fn(a, b)
    torch.cuda.synchronize()
    compile_s = time.perf_counter() - t0
    err = (out.float() - (a.float() @ b.float())).abs().max().item()
    for _ in range(10):
        fn(a, b)
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(50)]
    for s, e in ev:
        s.record()
        fn(a, b)
        e.record()
    torch.cuda.synchronize()
    ts = sorted(s.elapsed_time(e) for s, e in ev)
    bench = recorded[n_before] if len(recorded) > n_before else None
    res = {"mode": mode, "shape": spec_s, "compile_s": round(compile_s, 3),
           "run_ms": ts[len(ts) // 2], "max_abs_err": err,
           "n_benchmarked": len(bench) if bench is not None else None,
           "benchmarked": bench}
    if ours is not None and bench is not None:
        # spec §7.3: the ranking is filtered to the call's candidates, then
        # truncated to 10, then extern_mm is added.  So what was benchmarked
        # must come from the ranking, be at most 11 entries, and include the
        # ranking's first entry that is a candidate (checked as: the top
        # entry, when benchmarked ids do not skip it).
        top = expected_top(a, b, m, k, n)
        ranks = sorted(top.index(c) for c in bench if c in top)
        res["heuristic_top10"] = top[:10]
        res["ranks_benchmarked"] = ranks
        res["only_top10_plus_extern_mm"] = set(bench) <= (set(top[:10]) | {"extern_mm"})
        res["from_ranking_plus_extern_mm"] = (
            set(bench) <= (set(top) | {"extern_mm"}) and len(bench) <= 11)
    print(json.dumps(res), flush=True)
