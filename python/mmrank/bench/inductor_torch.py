"""The torch side of the Inductor back end and of perf/inductor (needs torch
and a CUDA GPU; everything torch 2.11 specific is here, with the source
lines it relies on).

  pick_device(i)        CUDA_VISIBLE_DEVICES before torch is imported, so
                        that Inductor's device-0 queries (utils.py:2857
                        get_gpu_shared_memory) see the device we time on
  versions()            torch / Triton / CUDA versions and the device
  operands(inp)         mat1, mat2 with the input's exact sizes and strides
                        (as_strided views of randn buffers: a transposed or
                        padded layout is what Inductor then logs)
  set_tf32(flag)        what mm_autoheuristic logs as using_tf32
                        (autoheuristic_utils.py:339 fp32_precision == "tf32")
  fresh_inductor()      a context for one compile: torch._inductor.utils.
                        fresh_cache()
                        (utils.py:1351: a new TORCHINDUCTOR_CACHE_DIR and
                        TRITON_CACHE_DIR, and every in-process cache
                        registered with clear_on_fresh_cache cleared, e.g.
                        AlgorithmSelectorCache's precompile cache,
                        select_algorithm.py:2851), dynamo reset around it
  compile_mm(a, b)      torch.compile(mm, max-autotune-no-cudagraphs), called
                        once
  Recorder              what one compile did: the mm candidates Inductor
                        benchmarked (AlgorithmSelectorCache.__call__), their
                        autotuning times (a feedback saver,
                        select_algorithm.py:3370) and which learned
                        heuristic the controller consulted
                        (learned_heuristic_controller.py:108-119)
  kernel_ms(fn, a, b)   the compiled mm's kernel time: CUDA-graph replay
                        under triton.testing.do_bench (L2 flushed per call)
"""
import contextlib
import os
import time


def pick_device(index):
    """Restrict the process to GPU INDEX (of those visible) before torch loads."""
    vis = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = [x for x in vis.split(",") if x] if vis else None
    if ids is not None and index >= len(ids):
        raise SystemExit(f"--device {index}: only {len(ids)} GPUs visible ({vis})")
    os.environ["CUDA_VISIBLE_DEVICES"] = ids[index] if ids is not None else str(index)


def versions():
    import torch
    import triton
    p = torch.cuda.get_device_properties(0)
    return {"torch": torch.__version__, "triton": triton.__version__,
            "cuda": torch.version.cuda, "device": p.name.replace(" ", "_"),
            "capability": f"{p.major}.{p.minor}"}


DT = {"torch.float16": "float16", "torch.bfloat16": "bfloat16", "torch.float32": "float32"}


def operands(inp, seed=0):
    """mat1 (m, k) and mat2 (k, n) on cuda with inp.strides."""
    import torch
    dt = getattr(torch, DT[inp.dtype])
    g = torch.Generator(device="cuda").manual_seed(seed)
    n1, n2 = inp.storage()
    s = inp.strides
    a = torch.randn(n1, device="cuda", dtype=dt, generator=g).as_strided((inp.m, inp.k), s[0:2])
    b = torch.randn(n2, device="cuda", dtype=dt, generator=g).as_strided((inp.k, inp.n), s[2:4])
    return a, b


def set_tf32(flag):
    """The reference's own switch (gen_data_mm.py set_precision, spec §3.2):
    torch.set_float32_matmul_precision("high" | "highest").  In torch 2.11 it
    sets the cuda matmul fp32_precision that AutoHeuristic logs as using_tf32
    ("tf32" | "ieee") together with the generic setting; setting only
    torch.backends.cuda.matmul.fp32_precision (the new API) leaves them mixed,
    and Inductor's own torch.get_float32_matmul_precision() call
    (select_algorithm.py:2744) then raises "PyTorch is checking the matmul
    precision without a specific backend name" (seen on the H200 for a tf32
    input after an ieee one)."""
    import torch
    torch.set_float32_matmul_precision("high" if flag else "highest")
    m = torch.backends.cuda.matmul
    want = "tf32" if flag else "ieee"
    got = getattr(m, "fp32_precision", want if m.allow_tf32 == bool(flag) else "?")
    if got != want:
        raise RuntimeError(f"set_tf32({flag}): torch.backends.cuda.matmul.fp32_precision is {got!r}, not {want!r}")


def configure(collect=False, use=False, log_path=None):
    """AutoHeuristic mode of the next compiles (config.py:701-727 are read
    at call time: collect_autoheuristic / use_autoheuristic split the
    strings each time)."""
    import torch._inductor.config as cfg
    cfg.autoheuristic_collect = "mm" if collect else ""
    cfg.autoheuristic_use = "mm" if use else ""
    if log_path is not None:
        cfg.autoheuristic_log_path = log_path


class Recorder:
    """Hooks recording, per compile, the mm candidates Inductor benchmarked,
    their autotuning times (ms) and the learned heuristic consulted."""

    def __init__(self):
        from torch._inductor import select_algorithm as sa
        from torch._inductor.autoheuristic import learned_heuristic_controller as lhc
        self.sa, self.lhc = sa, lhc
        self.reset()
        rec = self
        orig_call = sa.AlgorithmSelectorCache.__call__

        def call(selector, *args, **kwargs):   # (name, choices, input_nodes, layout, ...)
            name = args[0] if args else kwargs.get("name")
            choices = args[1] if len(args) > 1 else kwargs.get("choices", [])
            if name == "mm":
                rec.candidates.append([_choice_id(c) for c in choices])
            return orig_call(selector, *args, **kwargs)
        sa.AlgorithmSelectorCache.__call__ = call

        orig_ranked = lhc.LearnedHeuristicController.get_decisions_ranked

        def ranked(ctl, top_k):
            used = None
            for h in ctl.get_heuristics(ctl.metadata.name):
                if h.check_precondition(ctl.metadata, ctl.context):
                    used = h
                    break
            out = orig_ranked(ctl, top_k)
            import inspect
            rec.consulted.append({
                "heuristic": type(used).__name__ if used is not None else None,
                "file": inspect.getfile(type(used)) if used is not None else None,
                "available": list(ctl.metadata.choices),
                "context": dict(ctl.context.context_dict),
                "returned": list(out) if out is not None else None})
            return out
        lhc.LearnedHeuristicController.get_decisions_ranked = ranked

    def reset(self):
        self.candidates, self.timings, self.consulted = [], [], []

    def saver(self, timings, name, input_nodes, choices, profiled, precompile_times):
        if name == "mm":
            self.timings.append({_choice_id(c): float(t) for c, t in timings.items()})

    def arm(self):
        """Before a compile: clear_savers(), then add ours."""
        clear_savers()
        self.sa.add_feedback_saver(self.saver)


def clear_savers():
    """Drop every registered feedback saver before a compile: AutoHeuristic
    never removes its own (spec §8 item 17; autoheuristic.py:306), so the
    saver of an earlier compile of the same input (same inputs and
    precompile keys) would log this compile's times a second time."""
    from torch._inductor import select_algorithm as sa
    sa.clear_feedback_savers()


def _choice_id(c):
    try:
        return c.autoheuristic_id()
    except Exception:
        return getattr(c, "name", repr(c))


@contextlib.contextmanager
def fresh_inductor(triton_cache=None):
    """A context with fresh Inductor caches and a reset dynamo, for one
    compile (and whatever is run of it) inside.  triton_cache: None for a
    fresh Triton cache inside the fresh Inductor cache (gen_data_mm.py's
    setting), or a folder shared across compiles (compiled kernels are
    reused; autotuning results never are)."""
    import torch
    from torch._inductor.utils import fresh_cache
    torch._dynamo.reset()
    try:
        with fresh_cache():
            if triton_cache is not None:
                os.environ["TRITON_CACHE_DIR"] = triton_cache  # restored by fresh_cache
            yield
    finally:
        torch._dynamo.reset()


def compile_mm(a, b):
    """torch.compile an mm of (a, b) (max-autotune-no-cudagraphs) and call it
    once: (compiled fn, seconds of that first call = compile + autotune).
    Call inside fresh_inductor()."""
    import torch
    fn = torch.compile(lambda x, y: torch.mm(x, y), mode="max-autotune-no-cudagraphs")
    t0 = time.perf_counter()
    fn(a, b)
    torch.cuda.synchronize()
    return fn, time.perf_counter() - t0


def kernel_ms(fn, a, b, rep_ms=100):
    """Median kernel time (ms) of fn(a, b): the call captured in a CUDA graph,
    graph replays timed by triton.testing.do_bench (events around each
    replay, L2 flushed before each).  Falls back to do_bench on the call
    itself (method 'do_bench') if capture fails."""
    import torch
    from triton.testing import do_bench
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn(a, b)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    try:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn(a, b)
        g.replay()
        torch.cuda.synchronize()
        return do_bench(g.replay, warmup=25, rep=rep_ms, return_mode="median"), "graph"
    except Exception:
        torch.cuda.synchronize()
        return do_bench(lambda: fn(a, b), warmup=25, rep=rep_ms, return_mode="median"), "do_bench"
