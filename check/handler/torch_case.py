#!/usr/bin/env python3
"""torch_case.py — mmrank.inductor against a real torch 2.11 on the CPU
(check/t6150-handler.sh, TORCH prerequisite; no GPU).

usage: torch_case.py ARTIFACT K M KDIM N

1. Signatures: InductorChoices._finalize_template_configs, the handler's
   override, KernelTemplateChoice.__init__, V.set_choices_handler,
   MMKernelInputs.mat1mat2 and the autoheuristic_utils helpers the handler
   calls: "sig ok" or "sig bad WHAT".
2. A CPU compile (max_autotune) of addmm(bias, a, w) and a @ w (bf16, a
   M x KDIM, w KDIM x N) with the handler installed through
   V.set_choices_handler.  On the CPU Inductor offers only ATen choices, so
   for mm and addmm the probe adds the triton::mm choices torch's own CUDA
   template heuristic makes for these kernel_inputs (real
   KernelTemplateChoice objects, real params), lets the handler decide with
   the mm context it builds from the real IR nodes, records what it kept,
   and hands Inductor back the ATen choices only.  The GPU facts the
   handler asks for (shared memory, capability) are those of an H200.
Prints per op: "ctx OP JSON" (the context), "offered OP ID" (each triton
id, Inductor's order), "kept OP ID", "aten OP UID"; "stats JSON"."""
import inspect
import json
import sys

import torch

from mmrank import inductor as mi


def signatures():
    from torch._inductor.autoheuristic import autoheuristic_utils as au
    from torch._inductor.choices import InductorChoices
    from torch._inductor.kernel_inputs import MMKernelInputs
    from torch._inductor.kernel_template_choice import KernelTemplateChoice
    from torch._inductor.virtualized import V
    want = ["self", "template_choices", "kernel_inputs", "templates", "op_name", "kwarg_overrides"]
    bad = []
    for what, fn in (("InductorChoices._finalize_template_configs",
                      InductorChoices._finalize_template_configs),
                     ("MMRankChoices._finalize_template_configs",
                      mi.MMRankChoices._finalize_template_configs)):
        if list(inspect.signature(fn).parameters) != want:
            bad.append(what)
    if list(inspect.signature(KernelTemplateChoice.__init__).parameters) != [
            "self", "template", "params", "extra_kwargs", "layout", "inputs"]:
        bad.append("KernelTemplateChoice.__init__")
    for what, ok in (("V.set_choices_handler", hasattr(V, "set_choices_handler")),
                     ("MMKernelInputs.mat1mat2", hasattr(MMKernelInputs, "mat1mat2")),
                     ("InductorChoices.get_ktc", hasattr(InductorChoices, "get_ktc")),
                     ("config.inductor_choices_class",
                      hasattr(torch._inductor.config, "inductor_choices_class")),
                     *((f"autoheuristic_utils.{n}", hasattr(au, n)) for n in
                       ("AHContext", "AHMetadata", "context_add_strides",
                        "context_add_using_tf32", "mm_operations"))):
        if not ok:
            bad.append(what)
    print("sig ok" if not bad else "sig bad " + ", ".join(bad))


def main(argv):
    artifact, k, m, kd, n = argv[0], argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    signatures()
    from torch._inductor.autoheuristic.autoheuristic_utils import AHMetadata
    from torch._inductor.kernel.mm import mm_template
    from torch._inductor.kernel_template_choice import KernelTemplateChoice
    from torch._inductor.template_heuristics.registry import get_template_heuristic
    from torch._inductor.virtualized import V
    mi._metadata = lambda choices=(): AHMetadata(232448, (9, 0), list(choices), "mm")
    seen = []

    class Probe(mi.MMRankChoices):
        def _decide(self, choices, kernel_inputs, templates, op_name):
            h = get_template_heuristic(mm_template.uid, "cuda", op_name)
            tri = [KernelTemplateChoice(mm_template, p, {}, kernel_inputs.output_layout(),
                                        kernel_inputs)
                   for p in h.get_template_configs(kernel_inputs, op_name)]
            out = super()._decide(list(choices) + tri, kernel_inputs, templates, op_name)
            ctx = mi.mm_context(kernel_inputs)
            seen.append((op_name, {a: str(b) for a, b in ctx.context_dict.items()},
                         [mi.triton_id(c) for c in tri],
                         [mi.triton_id(c) for c in out if c.template is mm_template],
                         [c.template.uid for c in out if c.template is not mm_template]))
            return [c for c in out if c.template is not mm_template]

    h = Probe(mi.load_artifact(artifact), k="auto" if k == "auto" else int(k))
    V.set_choices_handler(h)
    torch._inductor.config.max_autotune = True
    g = torch.Generator().manual_seed(0)
    a = torch.randn(m, kd, generator=g).to(torch.bfloat16)
    w = torch.randn(kd, n, generator=g).to(torch.bfloat16)
    b = torch.randn(n, generator=g).to(torch.bfloat16)
    f = torch.compile(lambda a, w, b: (torch.addmm(b, a, w), a @ w), dynamic=False)
    f(a, w, b)
    for op, ctx, offered, kept, aten in seen:
        print("ctx", op, json.dumps(ctx))
        for x in offered:
            print("offered", op, x)
        for x in kept:
            print("kept", op, x)
        for x in aten:
            print("aten", op, x)
    print("stats", json.dumps(h.stats(), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
