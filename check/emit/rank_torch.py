#!/usr/bin/env python3
"""rank_torch.py — rank every context of a TSV with a generated Python
heuristic the way a real torch Inductor does (needs torch; no GPU): the
artifact is found by Inductor's own discovery, its context built with
Inductor's value types, its ranking taken through Inductor's controller.

usage: rank_torch.py MODULE.py CLASS CONTEXTS.tsv SHARED_MEMORY MAJOR,MINOR

MODULE.py is copied into a scratch folder that becomes the search path of
torch._inductor.autoheuristic.artifacts (torch's files are not touched), so
LearnedHeuristicController discovers it as it discovers torch's artifacts;
exactly one 'mm' heuristic, of class CLASS, must be found, and its
check_precondition must hold for the device SHARED_MEMORY, (MAJOR, MINOR)
and fail for (MAJOR - 1, MINOR).  CONTEXTS.tsv: rank_py.py's input (the
columns m k n mat1_stride_0 .. mat2_stride_1 mat1_dtype mat2_dtype
mat1_iscontig mat2_iscontig using_tf32, by name); each context is built as
kernel/mm.py's mm_autoheuristic builds it: dtypes as torch.dtype objects,
contiguity as bool, using_tf32 as bool (float32) or 'not_float_32', then
torch's mm_operations().  Output: rank_py.py's lines without --append
("<n>\\t<idx:p,...>", "None" or "-"), from get_best_choices; for every
context the controller's get_decisions_ranked(10) must be that list's first
ten choice names (else exit 1 naming the context).  Exit 2: bad usage, no
torch, or the artifact not discovered as said.
"""
import importlib
import os
import shutil
import sys
import tempfile
import warnings

from ctxrows import context_rows  # this script's folder


def die(msg, code=2):
    sys.stderr.write(f"rank_torch: {msg}\n")
    sys.exit(code)


def contexts(path, torch, AHContext, mm_operations):
    for v in context_rows(path, "rank_torch"):
        ctx = AHContext()
        for name in ("m", "k", "n"):
            ctx.add_feature(name, int(v[name]))
        for name in ("mat1_dtype", "mat2_dtype"):
            ctx.add_feature(name, getattr(torch, v[name].split(".", 1)[1]), is_categorical=True)
        for name in ("mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"):
            ctx.add_feature(name, int(v[name]))
        for name in ("mat1_iscontig", "mat2_iscontig"):
            ctx.add_feature(name, v[name] == "True", is_categorical=True)
        t = v["using_tf32"]
        ctx.add_feature("using_tf32", t if t == "not_float_32" else t == "True",
                        is_categorical=True)
        ctx.apply_operations(mm_operations())
        yield ctx


def main():
    if len(sys.argv) != 6:
        die(__doc__.strip())
    mod_path, cls, tsv, smem, capa = sys.argv[1:]
    try:
        capa = tuple(int(x) for x in capa.split(","))
        smem = int(smem)
    except ValueError:
        die(f"SHARED_MEMORY '{sys.argv[4]}' MAJOR,MINOR '{sys.argv[5]}': expected integers")
    warnings.filterwarnings("ignore")
    try:
        import torch
        import torch._inductor.autoheuristic.artifacts as artifacts
        from torch._inductor.autoheuristic.autoheuristic_utils import (
            AHContext, AHMetadata, mm_operations)
        from torch._inductor.autoheuristic.learned_heuristic_controller import (
            LearnedHeuristicController)
        from torch._inductor.autoheuristic.learnedheuristic_interface import (
            LearnedHeuristicDecision)
    except ImportError as e:
        die(f"no torch Inductor: {e}")
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(mod_path, os.path.join(tmp, os.path.basename(mod_path)))
        artifacts.__path__ = [tmp]
        importlib.invalidate_caches()
        LearnedHeuristicController.existing_heuristics.clear()
        LearnedHeuristicController.heuristics_initialized = False
        found = LearnedHeuristicController(AHMetadata(smem, capa, [], "mm"),
                                           AHContext()).get_heuristics("mm")
    if [type(h).__name__ for h in found] != [cls]:
        die(f"{mod_path}: Inductor's discovery found {[type(h).__name__ for h in found]} "
            f"for 'mm', not [{cls}]")
    h = found[0]
    if not isinstance(h, LearnedHeuristicDecision):
        die(f"{mod_path}: {cls} is not a LearnedHeuristicDecision")
    md = AHMetadata(smem, capa, list(h.choices), "mm")
    other = AHMetadata(smem, (capa[0] - 1, capa[1]), list(h.choices), "mm")
    if not h.check_precondition(md, AHContext()) or h.check_precondition(other, AHContext()):
        die(f"{mod_path}: check_precondition does not hold for exactly shared memory "
            f"{smem}, capability {capa}")
    w = sys.stdout.write
    for i, ctx in enumerate(contexts(tsv, torch, AHContext, mm_operations)):
        r = h.get_best_choices(ctx)
        want = None if r is None else [c for c in (h.get_choice(x) for _, x in r)
                                       if c is not None][:10]
        got = LearnedHeuristicController(md, ctx).get_decisions_ranked(10)
        if got != want:
            die(f"{tsv}: context {i}: get_decisions_ranked(10) {got}, the list's first ten "
                f"{want}", 1)
        s = "None" if r is None else (",".join(f"{idx}:{p:.3f}" for p, idx in r) or "-")
        w(f"{i}\t{s}\n")


if __name__ == "__main__":
    main()
