#!/usr/bin/env python3
"""dropin — our _MMRanking<GPU>.py inside Inductor vs PyTorch's shipped
MMRankingH100 vs a full autotune (needs torch and a
CUDA GPU).

usage: dropin.py --ours ARTIFACT.py [--discover] [--shapes FILE] [--subset LIST]
                 [--modes full,shipped,ours] [--reps R] [--time-limit S] [--cold]
                 OUT.jsonl

One process times everything, one compile at a time.  For each shape (in
file order), R rounds; in each round every mode once, the mode order rotated
by round; each compile is torch.compile(torch.mm, max-autotune-no-cudagraphs)
in fresh Inductor caches (fresh_cache, dynamo reset), so no autotuning
result is reused.  Modes:
  full     autoheuristic_use = "": Inductor's normal candidate list, all timed
  shipped  autoheuristic_use = "mm", the controller's list set to torch's own
           MMRankingH100 (spec §7.3: its top-10 candidates + extern_mm)
  ours     autoheuristic_use = "mm" with ARTIFACT.py: registered as the only mm
           heuristic, or with --discover found by Inductor's own discovery
           (make install-artifact first): then the record names the class and
           file Inductor consulted, which must be the installed copy
Per compile: compile_s (the first call: compile + autotune, seconds), the
compiled mm's kernel time kernel_ms (median, ms: the call captured in a CUDA
graph, graph replays timed by triton.testing.do_bench with L2 flushed; never
events around a Python call), max_abs_err against a float64 torch.mm, the ids
Inductor benchmarked, its autotuning winner and time (ms), and for shipped /
ours the heuristic consulted and whether the benchmarked ids are exactly the
ranking's candidates (an independent copy of the artifact ranks the context
Inductor built; kept: ids of the call, first 10; plus extern_mm).

Triton's compiled-kernel cache: in round 0 every mode compiles cold, in a
Triton cache of its own (compile_s then includes Triton compilation, which
grows with the candidate count: the compile time a user sees); the three
caches are then merged and rounds 1.. of that shape use the merge, so every
mode compiles warm there (compile_s: Inductor's codegen, kernel loading and
autotune benchmarking).  --cold: every round cold.  A throw-away compile
first warms Inductor's compile workers.  Autotuning results are never shared.

  --shapes FILE    a shapes list (mmrank.bench.inductor_shapes; default
                   perf/inductor/shapes.tsv: 30 shapes, 20 from real models)
  --subset LIST    only these 0-based rows of FILE, e.g. 0-9,14
  --time-limit S   start no new shape after S seconds (the shape in progress
                   is finished); rerun with the same OUT to continue
  OUT.jsonl        one JSON object per (shape, mode, round); appended, and
                   (shape, mode, round) already in OUT are skipped (resumable)
Exit status 0 (also when stopped by --time-limit; the summary says so); 1 on
bad input.  perf/inductor/report.py turns OUT into the table.
Needs the mmrank package: PYTHONPATH=<repo>/python (perf/inductor/run.sh
sets it) or pip install <repo>/python.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from mmrank import artifact as art
from mmrank.bench import inductor_shapes as ish
from mmrank.install_artifact import set_mm_heuristics

HERE = os.path.dirname(os.path.abspath(__file__))

MODES = ("full", "shipped", "ours")


def parse_subset(v, n):
    out = []
    for part in v.split(","):
        lo, _, hi = part.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise SystemExit(f"dropin: --subset '{v}': expected rows like 0-9,14") from None
        if not (0 <= a <= b < n):
            raise SystemExit(f"dropin: --subset '{v}': rows must be in 0..{n - 1}")
        out += range(a, b + 1)
    return sorted(set(out))


def load_heuristic(path):
    """A fresh, independent instance of the artifact's heuristic class."""
    try:
        return art.load(path)[0]
    except art.Refused as e:
        raise SystemExit(f"dropin: {e}") from None


class Ctx:
    def __init__(self, d):
        self.d = d

    def get_value(self, k):
        return self.d[k]


def expected_ids(heur, consulted):
    """spec §7.3 from an independent copy: ranking of Inductor's context,
    kept if a candidate of the call, first 10, plus extern_mm."""
    ranked = heur.get_decisions_ranked(Ctx(consulted["context"]))
    if not ranked:
        return None
    keep = [c for c in ranked if c in consulted["available"]][:10]
    return keep + ([] if "extern_mm" in keep else ["extern_mm"])


def warm_up(it):
    """A throw-away compile, so that the first timed one does not pay for
    starting Inductor's compile workers."""
    import torch
    a = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    it.configure()
    with it.fresh_inductor():
        it.compile_mm(a, a)


def measure(it, rec, mode, inp, a, b, ref, heur_ours, heur_shipped, args, triton_dir):
    """One fresh compile of mode MODE (Triton cache TRITON_DIR): the record
    of the module docstring."""
    it.configure(use=mode != "full")
    if mode == "shipped":
        set_mm_heuristics([heur_shipped])
    elif mode == "ours":
        set_mm_heuristics(None if args.discover else [heur_ours])
    rec.reset()
    with it.fresh_inductor(triton_dir):
        rec.arm()
        fn, compile_s = it.compile_mm(a, b)
        out = fn(a, b)
        err = (out.double() - ref).abs().max().item()
        ms, method = it.kernel_ms(fn, a, b, rep_ms=args.rep_ms)
        del fn, out
    r = {"mode": mode, "compile_s": round(compile_s, 4), "kernel_ms": ms, "timing": method,
         "max_abs_err": err,
         "benchmarked": rec.candidates[0] if rec.candidates else None,
         "n_benchmarked": len(rec.candidates[0]) if rec.candidates else None}
    if rec.timings:
        t = rec.timings[0]
        win = min(t, key=t.get)
        r.update({"autotune_winner": win, "autotune_winner_ms": t[win]})
    if mode != "full":
        c = rec.consulted[0] if rec.consulted else None
        r["heuristic"] = c["heuristic"] if c else None
        r["heuristic_file"] = c["file"] if c else None
        want = expected_ids(heur_ours if mode == "ours" else heur_shipped, c) if c else None
        r["fallback"] = want is None
        got = set(r["benchmarked"] or [])
        r["expected"] = want
        r["benchmarked_is_expected"] = want is not None and got == set(want)
    return r


def main(argv):
    p = argparse.ArgumentParser(prog="dropin.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("out", metavar="OUT.jsonl")
    p.add_argument("--ours", required=True, metavar="ARTIFACT.py")
    p.add_argument("--discover", action="store_true")
    p.add_argument("--shapes", default=os.path.join(HERE, "shapes.tsv"))
    p.add_argument("--subset")
    p.add_argument("--modes", default=",".join(MODES))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--time-limit", type=float)
    p.add_argument("--cold", action="store_true")
    p.add_argument("--rep-ms", type=int, default=50, help="do_bench's rep time per kernel (ms)")
    args = p.parse_args(argv)
    modes = args.modes.split(",")
    if not modes or any(m not in MODES for m in modes):
        p.error(f"--modes {args.modes}: a comma list of {', '.join(MODES)}")
    if args.reps < 1:
        p.error("--reps must be >= 1")
    try:
        allin = ish.read_shapes(args.shapes)
    except ish.ShapesError as e:
        sys.exit(f"dropin: {e}")
    rows = parse_subset(args.subset, len(allin)) if args.subset else range(len(allin))
    inputs = [(r, allin[r]) for r in rows]
    sources = _sources(args.shapes)

    done = set()
    if os.path.exists(args.out):
        with open(args.out) as fh:
            for line in fh:
                if line.strip():
                    d = json.loads(line)
                    done.add((d["row"], d["mode"], d["round"]))
    t_start = time.perf_counter()
    scratch = tempfile.mkdtemp(prefix="dropin-triton-")
    todo = [(r, x) for r, x in inputs if any((r, m, k) not in done for m in modes
                                             for k in range(args.reps))]
    import torch
    from mmrank.bench import inductor_torch as it
    from torch._inductor.autoheuristic.artifacts import _MMRankingH100 as shipped_mod
    v = it.versions()
    rec = it.Recorder()
    heur_ours = load_heuristic(args.ours)
    heur_shipped = shipped_mod.MMRankingH100()
    warm_up(it)
    t0 = time.perf_counter()
    stopped = False
    with open(args.out, "a") as fh:
        for r, inp in todo:
            if args.time_limit is not None and time.perf_counter() - t_start >= args.time_limit:
                stopped = True
                break
            it.set_tf32(inp.tf32)
            a, b = it.operands(inp, seed=r)
            ref = a.double() @ b.double()
            union = os.path.join(scratch, f"row{r}")
            for k in range(args.reps):
                for j in range(len(modes)):
                    mode = modes[(j + k) % len(modes)]
                    cold = k == 0 or args.cold or not os.path.isdir(union)
                    tdir = os.path.join(scratch, f"row{r}-{mode}-{k}") if cold else union
                    if (r, mode, k) in done:
                        continue
                    try:
                        res = measure(it, rec, mode, inp, a, b, ref, heur_ours,
                                      heur_shipped, args, tdir)
                    except Exception as e:
                        res = {"mode": mode, "error": f"{type(e).__name__}: {str(e)[:300]}"}
                    res.update({"row": r, "round": k, "source": sources.get(r, ""),
                                "shape": f"{inp.m}x{inp.k}x{inp.n}", "m": inp.m, "k": inp.k,
                                "n": inp.n, "dtype": inp.dtype, "tf32": inp.tf32,
                                "strides": list(inp.strides), "torch": v["torch"],
                                "triton": v["triton"], "device": v["device"],
                                "triton_cache": "cold" if cold else "warm"})
                    fh.write(json.dumps(res) + "\n")
                    fh.flush()
                    if cold and os.path.isdir(tdir):   # its kernels, for the warm rounds
                        shutil.copytree(tdir, union, dirs_exist_ok=True)
            print(f"dropin: row {r} {inp.m}x{inp.k}x{inp.n} {inp.dtype} done "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
            del a, b, ref
            torch.cuda.empty_cache()
    print(f"dropin: {'stopped by --time-limit' if stopped else 'all shapes done'} after "
          f"{time.perf_counter() - t_start:.0f} s; torch {v['torch']}, triton {v['triton']}",
          file=sys.stderr)
    return 0


def _sources(path):
    """Row -> the shapes file's 'source' column, if it has one."""
    out = {}
    with open(path, encoding="utf-8") as fh:
        lines = [ln.rstrip("\n") for ln in fh if not ln.startswith("#")]
    head = lines[0].split("\t")
    if "source" in head:
        i = head.index("source")
        for r, ln in enumerate(x for x in lines[1:] if x):
            out[r] = ln.split("\t")[i]
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
